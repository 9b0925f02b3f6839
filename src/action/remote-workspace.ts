import { readProvenance } from '../pipeline/record/provenance-log.js'
import { messageOf } from '../errors.js'
import type { PreparedBranch, Published, PublishTarget, Workspace } from '../pipeline/ports.js'
import { prepareIssueBranch, type FetchedHeads } from '../git/branch.js'
import { readCommittedFile } from '../git/committed-file.js'
import type { CommitSigner } from '../git/commit-signer.js'
import { git, type GitAuth } from '../git/git.js'
import { sharedObjects } from '../git/objects.js'
import { pushWithRetry } from '../git/push.js'
import { findLandedStage, type StageKey } from '../git/trailers.js'

/**
 * The action's git side: the issue branch fetched from `origin` (or made from the base
 * branch), and a stage's commit pushed back, or to a rescue branch when the issue branch
 * refuses it, so no agent's work is lost to a refused push.
 */
export class RemoteWorkspace implements Workspace {
  constructor(
    private readonly o: {
      repo: string
      baseBranch: string
      auth?: GitAuth
      remote?: string
      /** What the job already fetched (the default branch, the likely issue branch). */
      fetched?: FetchedHeads
      /** GitHub creates the issue branch's commits (`sign-commits`); a rescue is pushed. */
      signer?: CommitSigner
      /** Branches besides `baseBranch` that a stage's commit is never pushed to. */
      protectedBranches?: string[]
    }
  ) {}

  async prepare(
    branch: string,
    recorded?: { fork: string; issue: string }
  ): Promise<PreparedBranch> {
    const prepared = await prepareIssueBranch({
      repo: this.o.repo,
      branch,
      base: this.o.baseBranch,
      ...(recorded ? { recorded } : {}),
      ...(this.o.auth ? { auth: this.o.auth } : {}),
      ...(this.o.fetched ? { fetched: this.o.fetched } : {})
    })
    return { ...prepared, repo: this.o.repo, baseBranch: this.o.baseBranch }
  }

  findLanded(prepared: PreparedBranch, key: StageKey) {
    return findLandedStage(this.o.repo, prepared.baseSha, key)
  }

  provenance(prepared: PreparedBranch, issue: string) {
    return readProvenance(this.o.repo, prepared.baseSha, prepared.forkSha, issue)
  }

  async publish(prepared: PublishTarget, commit: string, rescueRef: string): Promise<Published> {
    const push = (branch: string, created: boolean, signer?: CommitSigner) =>
      pushWithRetry({
        repo: this.o.repo,
        branch,
        sha: commit,
        baseSha: prepared.baseSha,
        created,
        ...(this.o.remote ? { remote: this.o.remote } : {}),
        ...(this.o.auth ? { auth: this.o.auth } : {}),
        ...(signer ? { signer } : {}),
        forbidden: [this.o.baseBranch, ...(this.o.protectedBranches ?? [])]
      })
    let refusal: string
    try {
      const pushed = await push(prepared.branch, prepared.created, this.o.signer)
      return { commit: pushed.sha, ...(pushed.notice ? { notice: pushed.notice } : {}) }
    } catch (err) {
      refusal = messageOf(err)
    }
    try {
      await push(rescueRef, true)
      return { commit, rescuedTo: rescueRef, refusal }
    } catch (err) {
      return { failed: `${refusal}; the rescue branch ${rescueRef} failed too: ${messageOf(err)}` }
    }
  }

  async readCommitted(commit: string, path: string, maxBytes: number): Promise<string | null> {
    const has = await sharedObjects(this.o.repo)
      .resolve(`${commit}^{commit}`)
      .catch(() => null)
    // A re-run finishing an earlier run's comments may not have that commit yet.
    if (!has && /^[0-9a-f]{40,64}$/.test(commit)) {
      await git(
        this.o.repo,
        ['fetch', '--no-tags', '--depth=1', this.o.remote ?? 'origin', commit],
        { ...(this.o.auth ? { auth: this.o.auth } : {}), okCodes: [1, 128] }
      )
    }
    return readCommittedFile(this.o.repo, commit, path, maxBytes).catch(() => null)
  }

  around<T>(_prepared: PreparedBranch, stage: () => Promise<T>): Promise<T> {
    return stage()
  }
}
