import { readProvenance } from '../pipeline/record/provenance-log.js'
import { readCommittedFile } from '../git/committed-file.js'
import { git } from '../git/git.js'
import { resolveCommit } from '../git/repo.js'
import { findLandedStage, type StageKey } from '../git/trailers.js'
import type { PreparedBranch, Published, PublishTarget, Workspace } from '../pipeline/ports.js'
import { withIssueFileSetAside } from './issue-guard.js'
import {
  assertCleanWorktree,
  baseBranchOf,
  checkoutIssueBranch,
  discardUncommitted,
  type LocalBranch
} from './local-branch.js'
import { restoreCheckout, type UserCheckout } from './user-checkout.js'

/**
 * The local runner's git side: the issue branch in the user's own checkout, with no remote. A
 * stage's commit is already on the branch when the stage ends, so publishing is done.
 */
export class LocalWorkspace implements Workspace {
  /** The issue branch, when this run made it. */
  private made: LocalBranch | null = null

  constructor(private readonly o: { root: string; issueId: string; baseBranch?: string }) {}

  async prepare(): Promise<PreparedBranch> {
    await assertCleanWorktree(this.o.root)
    const base = await baseBranchOf(this.o.root, this.o.baseBranch)
    const b = await checkoutIssueBranch(this.o.root, this.o.issueId, base)
    if (b.created) this.made = b
    return { ...b, repo: this.o.root, baseBranch: base }
  }

  /**
   * After a stage that could not start: the branch this run made for it, still holding no
   * commit of its own, is deleted once the user is back where they were, so a later run
   * starts it afresh from the base branch (with whatever was committed there meanwhile).
   */
  async dropUnusedBranch(was: UserCheckout): Promise<void> {
    const made = this.made
    if (!made) return
    if ((await resolveCommit(this.o.root, `refs/heads/${made.branch}`)) !== made.baseSha) return
    if (await restoreCheckout(this.o.root, was)) return
    await git(this.o.root, ['branch', '--quiet', '-D', made.branch])
    this.made = null
  }

  findLanded(prepared: PreparedBranch, key: StageKey) {
    return findLandedStage(this.o.root, prepared.baseSha, key)
  }

  provenance(prepared: PreparedBranch, issue: string) {
    return readProvenance(this.o.root, prepared.baseSha, prepared.forkSha, issue)
  }

  async publish(_prepared: PublishTarget, commit: string): Promise<Published> {
    return { commit }
  }

  readCommitted(commit: string, path: string, maxBytes: number) {
    return readCommittedFile(this.o.root, commit, path, maxBytes).catch(() => null)
  }

  around<T>(prepared: PreparedBranch, stage: () => Promise<T>): Promise<T> {
    return withIssueFileSetAside(this.o.root, this.o.issueId, prepared.baseSha, async () => {
      const done = await stage()
      // A stage that threw leaves the tree as it is: nothing it did not save is lost.
      await discardUncommitted(this.o.root)
      return done
    })
  }
}
