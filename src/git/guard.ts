import type { Stats } from 'node:fs'
import { mkdir, readFile, readdir, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import * as z from '../zod.js'
import { UserError } from '../errors.js'
import { git } from './git.js'
import { lstatOrNull } from './lstat.js'
import { sharedObjects } from './objects.js'

/**
 * Files under `.git` that decide what git runs, where it fetches from or which objects it sees,
 * and the locks a dead agent could leave to block us. Each is put back byte for byte after the
 * agent (absent ones are removed again).
 */
const CONTROL_FILES = [
  'config',
  'config.worktree',
  'HEAD',
  'commondir',
  'shallow',
  'info/attributes',
  'info/exclude',
  'info/grafts',
  'objects/info/alternates',
  'objects/info/http-alternates',
  'index.lock',
  'HEAD.lock',
  'config.lock',
  'shallow.lock',
  'packed-refs.lock'
]

/** Directories under `.git` that may be rebuilt if the agent swapped them for something else. */
const REBUILDABLE_DIRS = ['info', 'objects/info', 'hooks']

/** Directories that hold the repository itself: if these were swapped, nothing can be trusted. */
const ESSENTIAL_DIRS = ['objects', 'refs']

/** checkout's persisted token: for its server, or `http.extraheader` for every URL. */
const EXTRAHEADER = /^http\.(.*\.)?extraheader$/

/** Persisted tokens: the extraheader, and (since checkout v6) includes of a credentials file. */
const isCredentialKey = (key: string) =>
  EXTRAHEADER.test(key) || /^(include\.path|includeif\..*\.path)$/.test(key)

const identitySchema = z.object({ dev: z.number(), ino: z.number() })

/** A file as it was: its bytes (base64) and mode, a symlink's target, or null when absent. */
const savedFileSchema = z.union([
  z.object({ data: z.string(), mode: z.number() }),
  z.object({ link: z.string() }),
  z.null()
])
type SavedFile = z.infer<typeof savedFileSchema>

/** A file `.git/config` includes, and the directory it sits in (to refuse a swapped one). */
const savedIncludeSchema = z.object({
  file: savedFileSchema,
  dir: z.nullable(identitySchema),
  /** It carried a credential and was removed for the run. */
  hidden: z.boolean()
})
type SavedInclude = z.infer<typeof savedIncludeSchema>

/**
 * What `.git` looked like before the agent ran. Plain JSON, so a `post:` step can restore it; it
 * holds the persisted credential, so it must be kept where the agent cannot read or edit it.
 */
export const gitDirSnapshotSchema = z.object({
  repo: z.string(),
  gitDir: z.string(),
  /** Device and inode of `.git`, to notice it being swapped. */
  identity: identitySchema,
  /** Relative to `.git`. `config` is the original, credentials included. */
  files: z.record(z.string(), savedFileSchema),
  /** The config the agent was left with (credentials removed), base64. */
  agentConfig: z.string(),
  /** `.git/hooks/<name>`; null when there was no hooks directory. */
  hooks: z.nullable(z.record(z.string(), savedFileSchema)),
  /** Files `.git/config` includes, by absolute path. */
  includes: z.record(z.string(), savedIncludeSchema),
  /** The branch HEAD named, and its commit. */
  branch: z.nullable(z.object({ ref: z.string(), sha: z.string() }))
})
export type GitDirSnapshot = z.infer<typeof gitDirSnapshotSchema>

interface GitDirChange {
  /** Relative to the repository (`.git/hooks/pre-push`), or absolute for an included file. */
  path: string
  change: 'added' | 'modified' | 'removed' | 'replaced'
}

export interface GitDirReport {
  /** Everything the agent changed that was put back, for the job summary. */
  changes: GitDirChange[]
  /** Config keys the agent added or changed (`core.hookspath`, `url.<u>.insteadof`, ...). */
  configKeys: string[]
  /** The agent moved the branch (committed locally); it was put back to `from`. */
  branchMoved: { from: string; to: string | null } | null
}

/** `.git` is gone or is no longer the directory we prepared. */
export class GitDirTamperedError extends UserError {
  constructor(message: string) {
    super(message)
    this.name = 'GitDirTamperedError'
  }
}

/**
 * Records `.git` before the agent runs, and takes persisted credentials out of its reach for the
 * run: the extraheader and credential includes leave `.git/config`, and the included credential
 * files leave the disk. `restoreGitDir` puts all of it back.
 */
export async function snapshotGitDir(repo: string): Promise<GitDirSnapshot> {
  const gitDir = path.join(path.resolve(repo), '.git')
  const st = await lstatOrNull(gitDir)
  if (!st?.isDirectory()) {
    throw new GitDirTamperedError(`${gitDir} is not a directory; run the stage in a plain clone`)
  }
  const files: Record<string, SavedFile> = {}
  for (const rel of CONTROL_FILES) files[rel] = await savedOrNull(path.join(gitDir, rel))
  const config = files['config']
  const head = files['HEAD']
  if (!config || !('data' in config) || !head || !('data' in head)) {
    throw new GitDirTamperedError(`${gitDir} has no regular config or HEAD file`)
  }

  const configPath = path.join(gitDir, 'config')
  const includes: Record<string, SavedInclude> = {}
  const strip: [string, string][] = []
  for (const [key, value] of await credentialCandidates(Buffer.from(config.data, 'base64'))) {
    if (!isCredentialKey(key)) continue
    if (!key.endsWith('.path')) {
      strip.push([key, value])
      continue
    }
    const target = includeTarget(value, gitDir)
    const file = await present(target)
    // A directory or a device is nothing git could include; it is not ours to manage.
    if (file === 'other') continue
    const dir = await statOrNull(path.dirname(target))
    const hidden = file !== null && 'data' in file && (await holdsCredential(file.data))
    includes[target] = { file, dir: dir && { dev: dir.dev, ino: dir.ino }, hidden }
    if (hidden) strip.push([key, value])
  }
  for (const [key, value] of strip) {
    await git('/', ['config', '--file', configPath, '--fixed-value', '--unset-all', key, value])
  }
  for (const [target, inc] of Object.entries(includes)) if (inc.hidden) await rm(target)

  return {
    repo: path.resolve(repo),
    gitDir,
    identity: { dev: st.dev, ino: st.ino },
    files,
    agentConfig: (await readFile(configPath)).toString('base64'),
    hooks: await readHooks(path.join(gitDir, 'hooks')),
    includes,
    branch: await headBranch(repo, Buffer.from(head.data, 'base64'))
  }
}

/**
 * Puts `.git` back after the agent and all its processes are dead: config, HEAD and the other
 * control files byte for byte, hooks as they were, hidden credentials restored, the branch
 * where it was. Reports what the agent had changed.
 */
export async function restoreGitDir(s: GitDirSnapshot): Promise<GitDirReport> {
  await checkIdentity(s)
  const changes: GitDirChange[] = []
  const rel = (p: string) => path.relative(s.repo, p)

  for (const dir of REBUILDABLE_DIRS) {
    const full = path.join(s.gitDir, dir)
    const st = await lstatOrNull(full)
    if (st && !st.isDirectory()) {
      await rm(full, { force: true })
      changes.push({ path: rel(full), change: 'replaced' })
    }
  }

  const configPath = path.join(s.gitDir, 'config')
  const nowConfig = await present(configPath)
  const configKeys =
    nowConfig && nowConfig !== 'other' && 'data' in nowConfig && nowConfig.data !== s.agentConfig
      ? await changedKeys(s.agentConfig, nowConfig.data)
      : []
  for (const [name, saved] of Object.entries(s.files)) {
    const full = path.join(s.gitDir, name)
    const given =
      name === 'config' && saved && 'data' in saved ? { ...saved, data: s.agentConfig } : saved
    const change = await putBack(full, saved, given)
    if (change) changes.push({ path: rel(full), change })
  }

  const hooksDir = path.join(s.gitDir, 'hooks')
  if (s.hooks === null) {
    if (await lstatOrNull(hooksDir)) {
      await rm(hooksDir, { recursive: true, force: true })
      changes.push({ path: rel(hooksDir), change: 'added' })
    }
  } else {
    await mkdir(hooksDir, { recursive: true })
    const names = new Set([...Object.keys(s.hooks), ...(await readdir(hooksDir))])
    for (const name of [...names].sort()) {
      const full = path.join(hooksDir, name)
      const saved = s.hooks[name] ?? null
      const change = await putBack(full, saved, saved)
      if (change) changes.push({ path: rel(full), change })
    }
  }

  for (const [target, inc] of Object.entries(s.includes)) {
    // Never write (a credential, even) into a directory the agent swapped for another; only
    // make sure the restored config includes nothing from it.
    const dir = await statOrNull(path.dirname(target))
    const sameDir = !!dir && dir.dev === inc.dir?.dev && dir.ino === inc.dir.ino
    if (inc.file && !sameDir) {
      await rm(target, { recursive: true, force: true })
      changes.push({ path: path.dirname(target), change: 'replaced' })
      continue
    }
    const change = await putBack(target, inc.file, inc.hidden ? null : inc.file)
    if (change) changes.push({ path: target, change })
  }

  return { changes, configKeys, branchMoved: await restoreBranch(s) }
}

/**
 * A snapshot read back from disk (by a `post:` step) could have been edited; at least its
 * writes must stay inside `.git`, apart from the files the config includes.
 */
function checkShape(s: GitDirSnapshot): void {
  const plain = (name: string) => !!name && name !== '.' && name !== '..' && !/[/\\]/.test(name)
  const sound =
    path.isAbsolute(s.repo) &&
    s.gitDir === path.join(s.repo, '.git') &&
    Object.keys(s.files).every((f) => CONTROL_FILES.includes(f)) &&
    Object.keys(s.hooks ?? {}).every(plain) &&
    Object.keys(s.includes).every((f) => path.isAbsolute(f)) &&
    (!s.branch || /^refs\/heads\/\S+$/.test(s.branch.ref))
  if (!sound) throw new GitDirTamperedError(`the saved state of ${s.gitDir} is malformed`)
}

async function checkIdentity(s: GitDirSnapshot): Promise<void> {
  checkShape(s)
  const st = await lstatOrNull(s.gitDir)
  const what = !st
    ? 'was removed'
    : st.isSymbolicLink()
      ? 'was replaced by a symlink'
      : !st.isDirectory() || st.dev !== s.identity.dev || st.ino !== s.identity.ino
        ? 'was replaced'
        : null
  if (what) {
    throw new GitDirTamperedError(
      `${s.gitDir} ${what} while the agent ran; refusing to commit or push from this workspace`
    )
  }
  for (const dir of ESSENTIAL_DIRS) {
    const full = path.join(s.gitDir, dir)
    const d = await lstatOrNull(full)
    if (!d?.isDirectory()) {
      throw new GitDirTamperedError(
        `${full} is no longer a directory after the agent ran; refusing to commit or push from this workspace`
      )
    }
  }
}

/**
 * Makes `file` hold `saved` (or not exist). `given` is what the agent was left with, so the
 * returned change describes the agent's doing, not ours (hidden credentials, stripped config).
 */
async function putBack(
  file: string,
  saved: SavedFile,
  given: SavedFile
): Promise<GitDirChange['change'] | null> {
  const now = await present(file)
  const change = same(now, given)
    ? null
    : now === null
      ? 'removed'
      : given === null
        ? 'added'
        : now !== 'other' && 'data' in now && 'data' in given
          ? 'modified'
          : 'replaced'
  if (!same(now, saved)) {
    if (now !== null) await rm(file, { recursive: true, force: true })
    if (saved) {
      await mkdir(path.dirname(file), { recursive: true })
      if ('link' in saved) await symlink(saved.link, file)
      // 'wx' never follows a symlink someone put back in the meantime.
      else
        await writeFile(file, Buffer.from(saved.data, 'base64'), { flag: 'wx', mode: saved.mode })
    }
  }
  return change
}

function same(now: SavedFile | 'other', was: SavedFile): boolean {
  if (now === null || was === null) return now === was
  if (now === 'other') return false
  if ('link' in now || 'link' in was) return 'link' in now && 'link' in was && now.link === was.link
  return now.data === was.data && now.mode === was.mode
}

async function restoreBranch(s: GitDirSnapshot): Promise<GitDirReport['branchMoved']> {
  if (!s.branch) return null
  const now = await sharedObjects(s.repo).resolve(`${s.branch.ref}^{commit}`)
  if (now === s.branch.sha) return null
  await git(s.repo, ['update-ref', '--no-deref', s.branch.ref, s.branch.sha])
  return { from: s.branch.sha, to: now }
}

async function headBranch(repo: string, head: Buffer): Promise<GitDirSnapshot['branch']> {
  const ref = /^ref: (refs\/heads\/\S+)\n?$/.exec(head.toString('utf8'))?.[1]
  if (!ref) return null
  const sha = await sharedObjects(repo).resolve(`${ref}^{commit}`)
  return sha ? { ref, sha } : null
}

async function readHooks(dir: string): Promise<Record<string, SavedFile> | null> {
  const st = await lstatOrNull(dir)
  if (!st?.isDirectory()) return null
  const hooks: Record<string, SavedFile> = {}
  for (const name of await readdir(dir)) hooks[name] = await savedOrNull(path.join(dir, name))
  return hooks
}

/** What is at `file` now: a regular file, a symlink, nothing, or something else. */
async function present(file: string): Promise<SavedFile | 'other'> {
  const st = await lstatOrNull(file)
  if (!st) return null
  if (st.isFile()) return { data: (await readFile(file)).toString('base64'), mode: st.mode & 0o777 }
  if (st.isSymbolicLink()) return { link: await readlink(file) }
  return 'other'
}

/** As `present`, with anything but a file or a symlink recorded as absent (removed on restore). */
async function savedOrNull(file: string): Promise<SavedFile> {
  const now = await present(file)
  return now === 'other' ? null : now
}

async function statOrNull(p: string): Promise<Stats | null> {
  return stat(p).catch(() => null)
}

/**
 * The config's entries when it may hold a credential key; none when it cannot. Section and
 * variable names allow no escapes or line continuations, so every key isCredentialKey takes
 * spells `extraheader` or `include` in the text, in some case: a checkout made with
 * `persist-credentials: false` is told apart without starting git.
 */
async function credentialCandidates(bytes: Buffer): Promise<[string, string][]> {
  return /extraheader|include/i.test(bytes.toString('latin1')) ? configEntries(bytes) : []
}

/** `key=value` pairs of a config file's own text, never following its includes. */
async function configEntries(bytes: Buffer): Promise<[string, string][]> {
  const r = await git('/', ['config', '--no-includes', '--file', '-', '--null', '--list'], {
    input: bytes
  })
  return r.stdout
    .split('\0')
    .filter(Boolean)
    .map((entry) => {
      const nl = entry.indexOf('\n')
      return nl < 0 ? [entry, ''] : [entry.slice(0, nl), entry.slice(nl + 1)]
    })
}

async function changedKeys(before: string, after: string): Promise<string[]> {
  const seen = new Set(
    (await configEntries(Buffer.from(before, 'base64'))).map(([k, v]) => `${k}\n${v}`)
  )
  const entries = await configEntries(Buffer.from(after, 'base64')).catch(() => null)
  if (!entries) return ['(the config no longer parses)']
  const keys = new Set<string>()
  for (const [k, v] of entries) if (!seen.has(`${k}\n${v}`)) keys.add(k)
  return [...keys].sort()
}

/** Where git looks for an include: `~/` is the home directory, relative is beside the config. */
function includeTarget(value: string, gitDir: string): string {
  if (value.startsWith('~/')) return path.join(os.homedir(), value.slice(2))
  return path.resolve(gitDir, value)
}

async function holdsCredential(data: string): Promise<boolean> {
  const entries = await configEntries(Buffer.from(data, 'base64')).catch(() => [])
  return entries.some(([k]) => EXTRAHEADER.test(k))
}
