import {
  copyFile,
  lstat,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  utimes,
  writeFile
} from 'node:fs/promises'
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import * as z from '../zod.js'
import { git } from '../git/git.js'
import { formatOf } from '../git/integrity.js'
import { lstatOrNull } from '../git/lstat.js'
import type { AgentUser } from './agent-user.js'
import { systemEnv, systemProgram } from './privilege.js'

/** What the hand-over in place moved, to bring it back (kept in the stage context). */
export const inPlaceSchema = z.object({
  /** The runner's checkout whose own files the agent works on. */
  repo: z.string(),
  /** A folder of root's (0711) holding the checkout's objects for the stage: the agent's alternates. */
  store: z.string(),
  /** The mode of the checkout's `.git`, closed to others for the stage. */
  gitMode: z.int(),
  /** The checkout's untracked paths (git's, folded into folders) before the stage. */
  untracked: z.array(z.string()),
  /** Untracked paths below the top level, put aside in the runner's folder: [path, where]. */
  aside: z.array(z.tuple([z.string(), z.string()]))
})
export type InPlace = z.infer<typeof inPlaceSchema>

/** The store of a user's stages: beside its home, in a folder only root may write. */
export const storeOf = (user: AgentUser) => `${user.home}.objects`

/**
 * The record a hand-over in place leaves in the store (root's, so the agent cannot forge it):
 * the checkout the objects and the tree came from, the mode of its `.git`, and the stage's
 * marker. A job killed with no post step leaves it behind; the next stage puts things back by it.
 */
export const leftRecordOf = (user: AgentUser) => path.join(storeOf(user), 'left')

export interface LeftBehind {
  repo: string
  gitMode: number
  marker: string
}

/** What an earlier stage left in the store and never took back, or null. */
export async function leftBehind(user: AgentUser): Promise<LeftBehind | null> {
  const text = await readFile(leftRecordOf(user), 'utf8').catch(() => null)
  if (text === null) return null
  const [repo = '', mode = '', marker = ''] = text.split('\0')
  if (!path.isAbsolute(repo) || !/^[0-7]{3,4}$/.test(mode) || !path.isAbsolute(marker)) {
    throw new Error(`the record ${leftRecordOf(user)} is not one the action wrote`)
  }
  return { repo, gitMode: parseInt(mode, 8), marker }
}

const run = promisify(execFile)

const readable = (mode: number, dir: boolean) => (mode & (dir ? 0o005 : 0o004)) === (dir ? 5 : 4)

/**
 * Why the checkout's own tree cannot be handed over here, or null: it must be a plain
 * repository (no linked worktree, no alternates or submodules of its own) on the file system of the agent's
 * home (everything moves by rename), its objects readable by every user (the umask git wrote
 * them with), and no earlier stage's objects still in the store.
 */
export async function inPlaceObstacle(repo: string, user: AgentUser): Promise<string | null> {
  const gitDir = await lstatOrNull(path.join(repo, '.git'))
  if (!gitDir?.isDirectory()) return 'its .git is not a folder'
  const objects = path.join(repo, '.git', 'objects')
  const o = await lstatOrNull(objects)
  if (!o?.isDirectory()) return 'it has no objects folder'
  if (await lstatOrNull(path.join(objects, 'info', 'alternates'))) {
    return 'its objects borrow from another repository'
  }
  // A submodule's folder holds a .git file naming the checkout's .git/modules, which stays
  // behind, closed to the agent: its git would fail there, and that file would come back from
  // the agent, free to name a repository of its own for the runner's git.
  if (await lstatOrNull(path.join(repo, '.git', 'modules'))) {
    return 'it has submodules (.git/modules), which live in the .git the agent may not reach'
  }
  const parent = await stat(path.dirname(user.home))
  if (parent.uid !== 0 || (parent.mode & 0o022) !== 0) {
    return `${path.dirname(user.home)} is not root's alone`
  }
  const dev = (await stat(repo)).dev
  if (parent.dev !== dev || gitDir.dev !== dev || o.dev !== dev) {
    return "it is on another file system than the agent user's home"
  }
  if (
    (await lstatOrNull(path.join(storeOf(user), 'objects'))) ||
    (await lstatOrNull(leftRecordOf(user)))
  ) {
    return `an earlier stage's objects are still in ${storeOf(user)}`
  }
  // git writes its folders and files with the umask; packs hold nearly everything.
  for (const name of ['', 'pack', ...(await readdir(objects))]) {
    const st = await lstat(path.join(objects, name))
    if (st.isDirectory() && !readable(st.mode, true)) return 'its objects are closed to other users'
  }
  for (const name of await readdir(path.join(objects, 'pack')).catch(() => [])) {
    if (!readable((await lstat(path.join(objects, 'pack', name))).mode, false)) {
      return 'its objects are closed to other users'
    }
  }
  // A file of the checkout with a second name elsewhere (a cache restored with hard links) would
  // be the agent's under both names once chowned, and the take-back drops such files: a clone
  // copies it instead.
  const find = systemProgram('find') ?? 'find'
  const prune = ['-path', path.join(repo, '.git'), '-prune', '-o']
  const args = [repo, ...prune, '!', '-type', 'd', '-links', '+1', '-print0', '-quit']
  const linked = (await run(find, args, { env: systemEnv() })).stdout.split('\0')[0]
  if (linked) return `${path.relative(repo, linked)} has another name (a hard link)`
  return null
}

/**
 * git's untracked paths in the checkout, whole untracked folders as one (ignored ones too):
 * what the agent must not get (an earlier step's files, a cloud credential).
 */
async function untrackedIn(repo: string): Promise<string[]> {
  const r = await git(repo, ['ls-files', '-z', '--others', '--directory'])
  return r.stdout
    .split('\0')
    .filter(Boolean)
    .map((p) => p.replace(/\/$/, ''))
}

/**
 * Readies the hand-over in place, as the runner's user: the untracked paths below the top level
 * go aside (the top-level ones stay behind in the checkout), and the agent's own repository is
 * made in `gitDir`: HEAD on the branch at the checkout's commit, the checkout's index (its
 * stat data still fits the files, which keep their inodes and times), its objects borrowed
 * from the store, read-only, and its new ones its own. Returns what was put aside (the caller
 * lists the top-level names that go to the agent once its configuration is in place).
 */
export async function readyInPlace(o: {
  repo: string
  branch: string
  /** The commit the checkout is at, which the agent's HEAD names. */
  baseSha: string
  user: AgentUser
  /** The runner's private folder for the stage. */
  workDir: string
  gitDir: string
}): Promise<{ state: InPlace }> {
  const untracked = await untrackedIn(o.repo)
  const asideDir = path.join(o.workDir, 'aside')
  await rm(asideDir, { recursive: true, force: true })
  await mkdir(asideDir, { mode: 0o700 })
  const aside: [string, string][] = []
  for (const p of untracked.filter((u) => u.includes('/'))) {
    const to = path.join(asideDir, String(aside.length))
    await rename(path.join(o.repo, p), to)
    aside.push([p, to])
  }
  // Beside them, for a next stage to put them back should this one's job be killed.
  await writeFile(path.join(asideDir, ASIDE_LIST), JSON.stringify(aside), { mode: 0o600 })

  const head = o.baseSha
  const format = formatOf(head)
  const store = storeOf(o.user)
  await mkdir(path.join(o.gitDir, 'objects', 'info'), { recursive: true })
  await mkdir(path.join(o.gitDir, 'objects', 'pack'))
  await mkdir(path.join(o.gitDir, 'refs', 'heads', path.dirname(o.branch)), { recursive: true })
  await mkdir(path.join(o.gitDir, 'refs', 'tags'))
  await writeFile(path.join(o.gitDir, 'HEAD'), `ref: refs/heads/${o.branch}\n`)
  await writeFile(path.join(o.gitDir, 'refs', 'heads', o.branch), `${head}\n`)
  await writeFile(path.join(o.gitDir, 'objects', 'info', 'alternates'), `${store}/objects\n`)
  // The chown of the hand-over changes every file's ctime, and the index holds the runner's
  // uid: the agent's git compares size and mtime only, or it would read the whole tree again.
  await writeFile(
    path.join(o.gitDir, 'config'),
    [
      '[core]',
      `\trepositoryformatversion = ${format === 'sha1' ? 0 : 1}`,
      '\tfilemode = true',
      '\tbare = false',
      '\tlogallrefupdates = true',
      '\ttrustctime = false',
      '\tcheckStat = minimal',
      ...(format === 'sha1' ? [] : ['[extensions]', `\tobjectformat = ${format}`]),
      ''
    ].join('\n')
  )
  for (const name of ['index', 'shallow']) {
    const from = path.join(o.repo, '.git', name)
    const st = await lstatOrNull(from)
    if (!st?.isFile()) continue
    await copyFile(from, path.join(o.gitDir, name))
    // git trusts stat data only for files older than the index itself.
    await utimes(path.join(o.gitDir, name), st.atime, st.mtime)
  }
  const gitMode = (await lstat(path.join(o.repo, '.git'))).mode & 0o7777
  return { state: { repo: o.repo, store, gitMode, untracked, aside } }
}

/**
 * After the stage's commit: the checkout loses what the agent left in it untracked (its new
 * files, what it installed), and gets back what was put aside. The checkout is the runner's
 * again, so nothing here follows a symlink: a path whose folders are not all real folders
 * keeps the agent's thing (removed) and leaves the runner's aside, named in the answer.
 */
export async function settleInPlace(s: InPlace): Promise<string[]> {
  const before = new Set(s.untracked)
  for (const p of await untrackedIn(s.repo)) {
    if (!before.has(p)) await rm(path.join(s.repo, p), { recursive: true, force: true })
  }
  return returnAside(s.repo, s.aside)
}

const ASIDE_LIST = 'list.json'

/**
 * What a stage whose job was killed put aside (`workDir`'s), back in the checkout; the paths
 * left aside, as settleInPlace names them. Nothing when nothing is there.
 */
export async function returnLeftAside(repo: string, workDir: string): Promise<string[]> {
  const list = path.join(workDir, 'aside', ASIDE_LIST)
  const text = await readFile(list, 'utf8').catch(() => null)
  if (text === null) return []
  const aside = z.array(z.tuple([z.string(), z.string()])).parse(JSON.parse(text))
  const kept = await returnAside(repo, aside)
  await rm(list)
  return kept
}

async function returnAside(repo: string, aside: [string, string][]): Promise<string[]> {
  const kept: string[] = []
  for (const [p, from] of aside) {
    if (!(await lstatOrNull(from))) continue
    const to = path.join(repo, p)
    if (!(await realFolders(repo, path.dirname(p)))) {
      kept.push(from)
      continue
    }
    await rm(to, { recursive: true, force: true })
    await rename(from, to)
  }
  return kept
}

/** Whether every folder of `rel` below `root` is a real folder (made when missing). */
async function realFolders(root: string, rel: string): Promise<boolean> {
  let at = root
  for (const part of rel.split('/').filter((x) => x && x !== '.')) {
    at = path.join(at, part)
    const st = await lstatOrNull(at)
    if (!st) await mkdir(at)
    else if (!st.isDirectory()) return false
  }
  return true
}
