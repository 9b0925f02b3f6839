import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { UserError } from '../errors.js'
import { git, type GitAuth } from './git.js'
import { lstatOrNull } from './lstat.js'
import { forkPoint } from './fork-point.js'
import { sharedObjects } from './objects.js'
import { isShallow } from './repo.js'

export interface PrepareOptions {
  /** The workspace: a checkout (shallow or not), or an empty or missing directory. */
  repo: string
  remote?: string
  /** The issue branch, e.g. `itervox/12`, or a pull request's head. */
  branch: string
  /** Where a new issue branch starts: the default branch. */
  base: string
  /** Needed only when `repo` is not a git repository yet. */
  remoteUrl?: string
  auth?: GitAuth
  /**
   * Commits of history to fetch when the workspace is shallow or new (0: all of it). A full
   * clone is never made shallow.
   */
  depth?: number
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

const DEFAULT_DEPTH = 100

/** Branches of the remote, listed and fetched together: what one `ls-remote` and one `fetch` learnt. */
export interface FetchedHeads {
  remote: string
  /** The branches asked about. */
  asked: string[]
  /** Each of them the remote has, to the commit fetched; the others it does not have. */
  heads: Map<string, string>
}

/**
 * Lists `branches` on the remote with one `ls-remote` and fetches those it has with one
 * `fetch` (shallow when the workspace is), making the repository first when there is none.
 */
export async function fetchHeads(
  o: Omit<PrepareOptions, 'branch' | 'base'> & {
    branches: string[]
    /** Called once the fetch is under way (not at all when nothing is fetched). */
    whileFetching?: () => void
  }
): Promise<FetchedHeads> {
  const remote = o.remote ?? 'origin'
  const repo = path.resolve(o.repo)
  const asked = [...new Set(o.branches)]
  for (const name of asked) await validateBranchName(name)
  validateRemoteName(remote)

  const fresh = await ensureRepository(repo, remote, o.remoteUrl)
  await removeStaleLocks(repo)
  const listed = await remoteHeads(repo, remote, asked, o.auth)
  const present = asked.filter((name) => listed.has(name))
  const heads = new Map<string, string>()
  if (present.length === 0) return { remote, asked, heads }
  const depth = o.depth ?? DEFAULT_DEPTH
  const shallow = fresh || (await isShallow(repo))
  const fetching = git(
    repo,
    [
      'fetch',
      '--no-tags',
      '--recurse-submodules=no',
      ...(shallow && depth > 0 ? [`--depth=${depth}`] : []),
      remote,
      ...present.map((name) => refspec(remote, name))
    ],
    { auth: o.auth }
  )
  o.whileFetching?.()
  await fetching
  const objects = sharedObjects(repo)
  for (const name of present) {
    const sha = await objects.resolve(`${tracking(remote, name)}^{commit}`)
    if (!sha) throw new Error(`fetching ${name} left no ${tracking(remote, name)}`)
    heads.set(name, sha)
  }
  return { remote, asked, heads }
}

const tracking = (remote: string, name: string) => `refs/remotes/${remote}/${name}`
const refspec = (remote: string, name: string) => `+refs/heads/${name}:${tracking(remote, name)}`

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
  const baseSha = head ?? baseHead
  const refspecs = created
    ? [refspec(remote, o.base)]
    : [o.branch, o.base].map((n) => refspec(remote, n))
  const forkSha = created
    ? baseSha
    : await forkPoint({
        repo,
        head: baseSha,
        base: tracking(remote, o.base),
        branch: o.branch,
        baseBranch: o.base,
        deepen: { remote, refspecs, ...(o.auth ? { auth: o.auth } : {}) }
      })
  // --force: a reused workspace may hold changes or untracked files in the way.
  await git(repo, ['checkout', '--quiet', '--force', '--no-track', '-B', o.branch, baseSha])
  return { branch: o.branch, baseSha, forkSha, created }
}

/**
 * A branch name git accepts as it is (no `@{-1}` expansion, no leading dash), by the rules of
 * git-check-ref-format(1) for `refs/heads/<name>`. Names come from issues and pull requests,
 * so they are data: checked here and only ever passed as argv.
 */
export function validateBranchName(name: string): Promise<string> {
  return badBranchName(name)
    ? Promise.reject(new UserError(`"${name}" is not a valid branch name`))
    : Promise.resolve(name)
}

function badBranchName(name: string): boolean {
  return (
    name === '' ||
    name === 'HEAD' ||
    name === '@' ||
    name.startsWith('-') ||
    name.endsWith('.') ||
    [...name].some((c) => c <= ' ' || c === '\x7f') ||
    /[~^:?*[\\]|\.\.|@\{/.test(name) ||
    name.split('/').some((part) => part === '' || part.startsWith('.') || part.endsWith('.lock'))
  )
}

function validateRemoteName(name: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
    throw new UserError(`"${name}" is not a valid remote name`)
  }
}

/**
 * Points `branch` at `sha`, makes it HEAD and resets the index and worktree to it, in one git.
 * The hardened config switches off any hook a repository declares.
 */
export async function resetBranchTo(repo: string, branch: string, sha: string): Promise<void> {
  await git(repo, ['checkout', '--quiet', '--force', '--no-track', '-B', branch, sha])
}

/** True when a new repository had to be made (nothing to reuse). */
async function ensureRepository(repo: string, remote: string, url?: string): Promise<boolean> {
  const fresh = !(await lstatOrNull(path.join(repo, '.git')))
  if (fresh) {
    await mkdir(repo, { recursive: true })
    await git(repo, ['init', '--quiet'])
  }
  const has = await git(repo, ['config', '--get', `remote.${remote}.url`], { okCodes: [1] })
  if (has.code === 1) {
    if (!url) {
      throw new UserError(
        `${repo} has no remote "${remote}"; check the repository out first or give its URL`
      )
    }
    await git(repo, ['remote', 'add', remote, url])
  }
  return fresh
}

/** A cancelled run can leave these behind in a reused workspace; git would refuse to start. */
async function removeStaleLocks(repo: string): Promise<void> {
  for (const lock of ['index.lock', 'shallow.lock']) {
    await rm(path.join(repo, '.git', lock), { force: true })
  }
}

async function remoteHeads(
  repo: string,
  remote: string,
  names: string[],
  auth?: GitAuth
): Promise<Map<string, string>> {
  const refs = names.map((n) => `refs/heads/${n}`)
  const r = await git(repo, ['ls-remote', '--heads', remote, ...refs], { auth })
  const heads = new Map<string, string>()
  for (const line of r.stdout.split('\n')) {
    const [sha, ref] = line.split('\t')
    // ls-remote matches patterns by suffix; keep exact names only.
    if (sha && ref && refs.includes(ref)) heads.set(ref.slice('refs/heads/'.length), sha)
  }
  return heads
}
