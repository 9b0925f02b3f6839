import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { UserError } from '../errors.js'
import { validateBranchName } from './branch-name.js'
import { git, type GitAuth } from './git.js'
import { lstatOrNull } from './lstat.js'
import { isShallow } from './repo.js'

export interface FetchOptions {
  /** The workspace: a checkout (shallow or not), or an empty or missing directory. */
  repo: string
  remote?: string
  /** Needed only when `repo` is not a git repository yet. */
  remoteUrl?: string
  auth?: GitAuth
  /**
   * Commits of history to fetch when the workspace is shallow or new (0: all of it). A full
   * clone is never made shallow.
   */
  depth?: number
}

/** What one `ls-remote` and one `fetch` of some branches did. */
export interface FetchedBranches {
  remote: string
  /** The branches asked about. */
  asked: string[]
  /** Those of them the remote has, each now at refs/remotes/<remote>/<name>. */
  present: string[]
}

const DEFAULT_DEPTH = 100

/**
 * Lists `branches` on the remote with one `ls-remote` and fetches those it has with one
 * `fetch` (shallow when the workspace is), making the repository first when there is none.
 */
export async function fetchBranches(
  o: FetchOptions & { branches: string[] }
): Promise<FetchedBranches> {
  const remote = o.remote ?? 'origin'
  const repo = path.resolve(o.repo)
  const asked = [...new Set(o.branches)]
  for (const name of asked) await validateBranchName(name)
  validateRemoteName(remote)

  const fresh = await ensureRepository(repo, remote, o.remoteUrl)
  await removeStaleLocks(repo)
  const listed = await remoteHeads(repo, remote, asked, o.auth)
  const present = asked.filter((name) => listed.has(name))
  if (present.length === 0) return { remote, asked, present }
  const depth = o.depth ?? DEFAULT_DEPTH
  const shallow = fresh || (await isShallow(repo))
  await git(
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
  return { remote, asked, present }
}

export const tracking = (remote: string, name: string) => `refs/remotes/${remote}/${name}`
export const refspec = (remote: string, name: string) =>
  `+refs/heads/${name}:${tracking(remote, name)}`

function validateRemoteName(name: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
    throw new UserError(`"${name}" is not a valid remote name`)
  }
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
