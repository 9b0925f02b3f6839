import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { UserError } from '../errors.js'
import { git, type GitAuth } from './git.js'
import { lstatOrNull } from './lstat.js'
import { forkPoint } from './fork-point.js'
import { isShallow, resolveCommit } from './repo.js'

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

/**
 * Checks out the issue branch: fetched from the remote when it exists there, otherwise made from
 * the remote's base branch. Works after `actions/checkout` (any depth, detached or not), in a
 * dirty reused workspace, and in an empty directory.
 */
export async function prepareIssueBranch(o: PrepareOptions): Promise<PreparedBranch> {
  const remote = o.remote ?? 'origin'
  const repo = path.resolve(o.repo)
  await validateBranchName(o.branch)
  await validateBranchName(o.base)
  validateRemoteName(remote)

  const fresh = await ensureRepository(repo, remote, o.remoteUrl)
  await removeStaleLocks(repo)
  const heads = await remoteHeads(repo, remote, [o.branch, o.base], o.auth)
  const created = !heads.has(o.branch)
  // An existing branch needs its base too, to tell its own handoffs from earlier issues'.
  if (!heads.has(o.base)) {
    throw new UserError(`the base branch "${o.base}" does not exist on ${remote}`)
  }
  const source = created ? o.base : o.branch
  const depth = o.depth ?? DEFAULT_DEPTH
  const shallow = fresh || (await isShallow(repo))
  const tracking = (name: string) => `refs/remotes/${remote}/${name}`
  const refspec = (name: string) => `+refs/heads/${name}:${tracking(name)}`
  const refspecs = source === o.base ? [refspec(o.base)] : [refspec(source), refspec(o.base)]
  await git(
    repo,
    [
      'fetch',
      '--no-tags',
      '--recurse-submodules=no',
      ...(shallow && depth > 0 ? [`--depth=${depth}`] : []),
      remote,
      ...refspecs
    ],
    { auth: o.auth }
  )
  const baseSha = await resolveCommit(repo, tracking(source))
  if (!baseSha) throw new Error(`fetching ${source} left no ${tracking(source)}`)
  const forkSha =
    source === o.base
      ? baseSha
      : await forkPoint({
          repo,
          head: baseSha,
          base: tracking(o.base),
          branch: o.branch,
          baseBranch: o.base,
          deepen: { remote, refspecs, ...(o.auth ? { auth: o.auth } : {}) }
        })
  // --force: a reused workspace may hold changes or untracked files in the way.
  await git(repo, ['checkout', '--quiet', '--force', '--no-track', '-B', o.branch, baseSha])
  return { branch: o.branch, baseSha, forkSha, created }
}

/**
 * A branch name git accepts as it is (no `@{-1}` expansion, no leading dash). Names come from
 * issues and pull requests, so they are data: checked here and only ever passed as argv.
 */
export async function validateBranchName(name: string): Promise<string> {
  const bad = () => new UserError(`"${name}" is not a valid branch name`)
  if (!name || name.startsWith('-') || name.includes('@{')) throw bad()
  const r = await git('/', ['check-ref-format', '--branch', name], { okCodes: [128] })
  if (r.code !== 0 || r.stdout.trim() !== name) throw bad()
  return name
}

function validateRemoteName(name: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
    throw new UserError(`"${name}" is not a valid remote name`)
  }
}

/**
 * Points `branch` at `sha`, makes it HEAD and resets the index and worktree to it. `reset` runs
 * no hooks, and the hardened config switches off any a repository declares.
 */
export async function resetBranchTo(repo: string, branch: string, sha: string): Promise<void> {
  const ref = `refs/heads/${branch}`
  await git(repo, ['update-ref', '-m', 'handoff-action', ref, sha])
  await git(repo, ['symbolic-ref', 'HEAD', ref])
  await git(repo, ['reset', '--hard', '--quiet'])
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
