import path from 'node:path'
import { UserError } from '../errors.js'
import {
  fetchBranches,
  refspec,
  tracking,
  type FetchedBranches,
  type FetchOptions
} from './fetch-branches.js'
import { git } from './git.js'
import { forkPoint } from './fork-point.js'
import { isAncestor, newestIssueCommit } from './merged-work.js'
import { sharedObjects } from './objects.js'

export interface PrepareOptions extends FetchOptions {
  /** The issue branch, e.g. `itervox/12`, or a pull request's head. */
  branch: string
  /** Where a new issue branch starts: the default branch. */
  base: string
  /** Where the issue's record says the branch left the base, and the issue's id. */
  recorded?: { fork: string; issue: string }
}

export interface PreparedBranch {
  branch: string
  /** The commit the stage starts from: the branch's head on the remote, or the base's. */
  baseSha: string
  /** Where the branch left the base branch; handoffs committed there are not the issue's. */
  forkSha: string
  /** The branch did not exist on the remote; the first push creates it. */
  created: boolean
}

/** Branches of the remote, listed and fetched together: what one `ls-remote` and one `fetch` learnt. */
export interface FetchedHeads {
  remote: string
  /** The branches asked about. */
  asked: string[]
  /** Each of them the remote has, to the commit fetched; the others it does not have. */
  heads: Map<string, string>
}

/** `fetchBranches`, then the commit each fetched branch is at. */
export async function fetchHeads(o: Parameters<typeof fetchBranches>[0]): Promise<FetchedHeads> {
  return headsOf(o.repo, await fetchBranches(o))
}

/** The commits the branches `fetched` brought are at, read from the fetched refs. */
export async function headsOf(repo: string, fetched: FetchedBranches): Promise<FetchedHeads> {
  const { remote, asked, present } = fetched
  const objects = sharedObjects(path.resolve(repo))
  const heads = new Map<string, string>()
  for (const name of present) {
    const sha = await objects.resolve(`${tracking(remote, name)}^{commit}`)
    if (!sha) throw new Error(`fetching ${name} left no ${tracking(remote, name)}`)
    heads.set(name, sha)
  }
  return { remote, asked, heads }
}

/**
 * Checks out the issue branch: fetched from the remote when it exists there, otherwise made from
 * the remote's base branch. Works after `actions/checkout` (any depth, detached or not), in a
 * dirty reused workspace, and in an empty directory. What `fetched` already says of both
 * branches is not asked of the remote again.
 */
export async function prepareIssueBranch(
  o: PrepareOptions & { fetched?: FetchedHeads }
): Promise<PreparedBranch> {
  const remote = o.remote ?? 'origin'
  const repo = path.resolve(o.repo)
  const known =
    o.fetched?.remote === remote &&
    o.fetched.asked.includes(o.branch) &&
    o.fetched.asked.includes(o.base)
  const { heads } =
    known && o.fetched ? o.fetched : await fetchHeads({ ...o, branches: [o.branch, o.base] })
  // An existing branch needs its base too, to tell its own handoffs from earlier issues'.
  const baseHead = heads.get(o.base)
  if (!baseHead) throw new UserError(`the base branch "${o.base}" does not exist on ${remote}`)
  const head = heads.get(o.branch)
  const created = head === undefined
  const refspecs = created
    ? [refspec(remote, o.base)]
    : [o.branch, o.base].map((n) => refspec(remote, n))
  const live = created
    ? baseHead
    : await forkPoint({
        repo,
        head,
        base: tracking(remote, o.base),
        branch: o.branch,
        baseBranch: o.base,
        deepen: { remote, refspecs, ...(o.auth ? { auth: o.auth } : {}) }
      })
  // Where the branch still leaves the base where the record says, nothing of it was merged.
  const merged =
    o.recorded && o.recorded.fork !== live ? await mergedInto(repo, o.recorded, head, live) : null
  // A deleted branch whose work was merged is made again from that work, not from the base's
  // tip: what other issues merged since would otherwise read as this issue's trail.
  const baseSha = head ?? merged?.tip ?? baseHead
  const forkSha = merged ? merged.fork : live
  // --force: a reused workspace may hold changes or untracked files in the way.
  await git(repo, ['checkout', '--quiet', '--force', '--no-track', '-B', o.branch, baseSha])
  return { branch: o.branch, baseSha, forkSha, created }
}

/**
 * The issue's work a person merged into the base: the recorded fork point (which the branch, or
 * the base, still has) and the newest of the issue's commits the base holds. Null when the base
 * (down to `live`, the branch's merge-base with it, or its tip) holds none of them.
 */
async function mergedInto(
  repo: string,
  recorded: { fork: string; issue: string },
  head: string | undefined,
  live: string
): Promise<{ fork: string; tip: string } | null> {
  const tip = await newestIssueCommit(repo, live, recorded.fork, recorded.issue)
  if (!tip || !(await isAncestor(repo, recorded.fork, head ?? live))) return null
  return { fork: recorded.fork, tip }
}

/**
 * Points `branch` at `sha`, makes it HEAD and resets the index and worktree to it, in one git.
 * The hardened config switches off any hook a repository declares.
 */
export async function resetBranchTo(repo: string, branch: string, sha: string): Promise<void> {
  await git(repo, ['checkout', '--quiet', '--force', '--no-track', '-B', branch, sha])
}
