import type { FileChanges } from './file-changes.js'
import type { RemoteFailure } from './remote-failure.js'

/** A commit for GitHub to create on `branch` (`createCommitOnBranch`), which it signs. */
export interface CommitRequest {
  branch: string
  /** The compare-and-swap: GitHub creates the commit only while the branch is here. */
  expectedHeadOid: string
  headline: string
  body: string
  fileChanges: FileChanges
}

export type SignVerdict =
  | { kind: 'ok'; oid: string }
  /** The branch is no longer at `expectedHeadOid`. */
  | { kind: 'moved' }
  | RemoteFailure

/** Has GitHub create a commit, as the token's identity, signed and marked Verified. */
export interface CommitSigner {
  createCommit(c: CommitRequest): Promise<SignVerdict>
}
