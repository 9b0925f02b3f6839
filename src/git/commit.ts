import { createHash, randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { copyFile, open, readlink, rename, rm, utimes } from 'node:fs/promises'
import path from 'node:path'
import picomatch from 'picomatch'
import { isAgentConfig, namedExplicitly } from '../agent/config-paths.js'
import { agentConfigEntries, type ConfigEntry } from './agent-config.js'
import { resetBranchTo } from './branch.js'
import { validateBranchName } from './branch-name.js'
import { git } from './git.js'
import { formatOf, objectId, verifyBaseTrees } from './integrity.js'
import { lstatOrNull } from './lstat.js'
import { sharedObjects } from './objects.js'
import { setAsideOversized } from './oversized-files.js'
import { formatMessage, type Trailer } from './trailers.js'

export interface Identity {
  name: string
  email: string
}

export const BOT_IDENTITY: Identity = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com'
}

/** Never committed, whatever the caller passes: the pipeline's own definition and git's. */
const ALWAYS_FORBIDDEN = [
  '.github/**',
  'WORKFLOW.md',
  '.itervox/agents/**',
  '.git/**',
  '.gitmodules'
]

/** GitHub refuses files over 100 MB. */
const DEFAULT_MAX_FILE_BYTES = 100 * 1024 * 1024

export interface CommitOptions {
  repo: string
  /**
   * Where the agent's files are, when not in `repo`'s own worktree: an isolated agent's tree,
   * taken back from it. Its `.git` is never read; only its files, as below.
   */
  workTree?: string
  /** The local branch to point at the new commit. */
  branch: string
  /** The commit the stage started from (`prepareIssueBranch`'s `baseSha`); the new commit's parent. */
  baseSha: string
  /** Paths always committed when present, even if `.gitignore` ignores them. */
  deliverablePaths: readonly string[]
  /** Other changed paths to commit (picomatch, dot files included). */
  allowGlobs: readonly string[]
  /** Never committed, on top of ALWAYS_FORBIDDEN: earlier handoff files, a custom workflow file. */
  forbiddenGlobs: readonly string[]
  /**
   * The commit whose agent configuration the agent was given (see putAgentConfig); paths it
   * has none at, the agent was given none of. Such a path counts as changed only when the
   * agent changed it from that. Without this, changes are counted from `baseSha`, as for
   * every other path.
   */
  configGivenAt?: string
  message: string
  trailers: readonly Trailer[]
  /** Who the commit is by and who made it; both default to BOT_IDENTITY. */
  author?: Identity
  committer?: Identity
  maxFileBytes?: number
  /**
   * Sees what is about to be stored at `path` (a file's bytes, a symlink's target) and says
   * what to store instead, or why the path stays out of the commit.
   */
  screen?: (path: string, content: Buffer, kind: 'file' | 'symlink') => Screened
}

export type Screened = { content: Buffer } | { refuse: string }

interface Dropped {
  path: string
  reason: string
  /** Refused by the screen (it holds a secret): the screen reports it, without the path. */
  screened?: true
}

export interface CommitResult {
  /** null when nothing allowed changed. */
  sha: string | null
  /** Paths the commit adds, changes or deletes. */
  committed: string[]
  /** Changed paths left out, with why. */
  dropped: Dropped[]
}

/** A change to make in the new commit's index. */
type Update = { path: string; mode: string; content: Buffer } | { path: string; remove: true }

/**
 * Commits what the agent left in the worktree, compared with `baseSha` (so its own local commits
 * count only through the files they left), limited to the deliverables and the allow-list and
 * never touching a forbidden path. Built with plumbing on a private index: no hook, filter or
 * fsmonitor runs, and only bytes read here, from lstat-checked regular files, are stored.
 * The local branch then points at the commit and the index and worktree are reset to it.
 * Call it after `restoreGitDir`, so that the config it runs under is the one from before the agent.
 */
export async function commitAllowed(o: CommitOptions): Promise<CommitResult> {
  const repo = path.resolve(o.repo)
  await validateBranchName(o.branch)
  // Beside the real index, so that it can replace it in one rename.
  const index = path.join(repo, '.git', `index.handoff-${randomBytes(6).toString('hex')}`)
  const files = o.workTree ? path.resolve(o.workTree) : repo
  const env: Record<string, string> = { GIT_INDEX_FILE: index }
  const baseSha = await sharedObjects(repo).resolve(`${o.baseSha}^{commit}`)
  if (!baseSha) throw new Error(`the base commit ${o.baseSha} is not in ${repo}`)
  const algo = formatOf(baseSha)
  const maxBytes = o.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES
  let setAside = new Map<string, string>()
  try {
    if (files === repo) {
      await seedIndex(repo, o.baseSha, { GIT_INDEX_FILE: index })
    } else {
      // The repository's index knows nothing of the other tree's files, so git learns their
      // stat data here, hashing each once (filters only as the repository's own config says;
      // the agent never touched it), except those too large to commit.
      await git(repo, ['read-tree', o.baseSha], { env })
      env.GIT_WORK_TREE = files
      setAside = await setAsideOversized(repo, o.baseSha, files, env, maxBytes)
      await git(repo, ['update-index', '-q', '--refresh', '--ignore-submodules'], {
        env,
        okCodes: [1]
      })
    }
    const changed = await worktreeChanges(repo, files, env, algo)
    for (const [p, mode] of setAside) changed.set(p, mode)
    delete env.GIT_WORK_TREE
    for (const p of o.deliverablePaths) if (!changed.has(p)) changed.set(p, null)

    const given = o.configGivenAt
      ? await agentConfigEntries(repo, o.configGivenAt, changed.keys())
      : undefined
    const { updates, dropped } = await decide(files, changed, o, maxBytes, given)
    const committed = updates.map((u) => u.path).sort()
    if (updates.length === 0) return { sha: null, committed, dropped }

    const baseTree = await verifyBaseTrees(repo, baseSha, committed)
    await git(repo, ['update-index', '--add', '-z', '--index-info'], {
      env,
      input: await indexInfo(repo, updates, algo)
    })
    const tree = (await git(repo, ['write-tree'], { env })).stdout.trim()
    if (tree === baseTree) return { sha: null, committed: [], dropped }

    const author = o.author ?? BOT_IDENTITY
    const committer = o.committer ?? BOT_IDENTITY
    const commit = await git(
      repo,
      ['commit-tree', '--no-gpg-sign', tree, '-p', o.baseSha, '-F', '-'],
      {
        env: {
          GIT_AUTHOR_NAME: author.name,
          GIT_AUTHOR_EMAIL: author.email,
          GIT_COMMITTER_NAME: committer.name,
          GIT_COMMITTER_EMAIL: committer.email
        },
        input: formatMessage(o.message, o.trailers)
      }
    )
    const sha = commit.stdout.trim()
    // Our index (the new tree) replaces whatever index the agent left, then the worktree
    // follows. An index made for another tree has the wrong stat data for this one: the
    // repository's own index serves its reset better.
    if (files === repo) await rename(index, path.join(repo, '.git', 'index'))
    await resetBranchTo(repo, o.branch, sha)
    return { sha, committed, dropped }
  } finally {
    await rm(index, { force: true })
  }
}

/**
 * The private index starts as `baseSha`, borrowing stat data from the real index where the
 * content is the same, so that files nobody touched need not be read.
 */
async function seedIndex(repo: string, baseSha: string, env: { GIT_INDEX_FILE: string }) {
  const real = path.join(repo, '.git', 'index')
  const st = await lstatOrNull(real)
  let seeded = false
  if (st?.isFile()) {
    await copyFile(real, env.GIT_INDEX_FILE, constants.COPYFILE_EXCL)
    // git trusts stat data only for files older than the index file itself.
    await utimes(env.GIT_INDEX_FILE, st.atime, st.mtime)
    seeded = (await git(repo, ['read-tree', '-m', baseSha], { env, okCodes: [128] })).code === 0
  }
  if (!seeded) {
    await rm(env.GIT_INDEX_FILE, { force: true })
    await git(repo, ['read-tree', baseSha], { env })
  }
}

/**
 * Every path that differs between `baseSha` and the worktree, with its mode in `baseSha`
 * (null for a new path). A file git only suspects (its stat data is stale) is compared by its
 * raw bytes here, so no clean filter runs. New paths are those git does not ignore; ls-files
 * lists a symlinked directory as the link itself and never walks into it.
 */
async function worktreeChanges(
  repo: string,
  tree: string,
  env: Record<string, string>,
  algo: 'sha1' | 'sha256'
): Promise<Map<string, string | null>> {
  const changed = new Map<string, string | null>()
  // Both only read the index and the tree, so they run side by side. A submodule's own
  // repository is the agent's to plant; it is never looked into.
  const [diffed, others] = await Promise.all([
    git(repo, ['diff-files', '-z', '--ignore-submodules=all'], { env }),
    git(repo, ['ls-files', '-z', '--others', '--exclude-standard'], { env })
  ])
  const diff = diffed.stdout.split('\0')
  for (let i = 0; i + 1 < diff.length; i += 2) {
    // `:<base mode> <worktree mode> <base id> <worktree id> <status>`, then the path.
    const [baseMode = '', , baseId = '', , status] = (diff[i] ?? '').slice(1).split(' ')
    const p = diff[i + 1] ?? ''
    if (status === 'D' || !(await sameAsBase(repo, tree, p, baseMode, baseId, algo))) {
      changed.set(p, baseMode)
    }
  }
  for (const p of others.stdout.split('\0')) if (p) changed.set(p, null)
  return changed
}

async function sameAsBase(
  repo: string,
  tree: string,
  p: string,
  baseMode: string,
  baseId: string,
  algo: 'sha1' | 'sha256'
): Promise<boolean> {
  const full = path.join(tree, p)
  const st = await lstatOrNull(full)
  if (st?.isSymbolicLink() && baseMode === '120000') {
    return objectId('blob', await readlink(full, { encoding: 'buffer' }), algo) === baseId
  }
  if (!st?.isFile() || fileMode(st.mode) !== baseMode) return false
  // A file of another size differs without being read: the agent may have left one far larger
  // than memory (a sparse file of gigabytes). One of the same size is hashed a piece at a time.
  const baseSize = (await sharedObjects(repo).blobSizes([baseId])).get(baseId)
  if (baseSize !== st.size) return false
  return (await fileObjectId(full, st.size, algo)) === baseId
}

/** The blob id of the file at `full`, read in pieces; null when it is no longer `size` bytes. */
async function fileObjectId(
  full: string,
  size: number,
  algo: 'sha1' | 'sha256'
): Promise<string | null> {
  const hash = createHash(algo).update(`blob ${size}\0`)
  const fh = await open(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  try {
    const piece = Buffer.alloc(1024 * 1024)
    let read = 0
    for (;;) {
      const { bytesRead } = await fh.read(piece, 0, piece.length, read)
      if (bytesRead === 0) break
      read += bytesRead
      if (read > size) return null
      hash.update(piece.subarray(0, bytesRead))
    }
    return read === size ? hash.digest('hex') : null
  } finally {
    await fh.close()
  }
}

const fileMode = (mode: number) => (mode & 0o111 ? '100755' : '100644')

async function decide(
  tree: string,
  changed: Map<string, string | null>,
  o: CommitOptions,
  maxBytes: number,
  /** What the agent was given at the changed agent configuration paths (`configGivenAt`). */
  given: ReadonlyMap<string, ConfigEntry> | undefined
): Promise<{ updates: Update[]; dropped: Dropped[] }> {
  const forbidden = picomatch([...ALWAYS_FORBIDDEN, ...o.forbiddenGlobs], { dot: true })
  const allowed =
    o.allowGlobs.length > 0 ? picomatch([...o.allowGlobs], { dot: true }) : () => false
  const deliverables = new Set(o.deliverablePaths)
  const updates: Update[] = []
  const dropped: Dropped[] = []
  const drop = (p: string, reason: string) => dropped.push({ path: p, reason })
  const screenedOut = (p: string, reason: string) =>
    dropped.push({ path: p, reason, screened: true })

  for (const [p, baseMode] of [...changed].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const why = pathProblem(p)
    if (why) {
      drop(p, why)
      continue
    }
    if (forbidden(p)) {
      drop(p, 'forbidden path')
      continue
    }
    if (isAgentConfig(p)) {
      if (given && (await asGiven(tree, p, given.get(p), maxBytes))) continue
      if (!namedExplicitly(o.allowGlobs, p)) {
        drop(p, AGENT_CONFIG)
        continue
      }
    }
    const globbed = allowed(p)
    if (!deliverables.has(p) && !globbed) {
      drop(p, 'not in the allow-list')
      continue
    }
    if (baseMode === '160000') {
      drop(p, 'submodule')
      continue
    }
    const found = await inspect(tree, p, maxBytes)
    if (found.kind === 'gone') {
      if (baseMode !== null) updates.push({ path: p, remove: true })
    } else if (found.kind === 'file') {
      const screened = o.screen ? o.screen(p, found.content, 'file') : { content: found.content }
      if ('refuse' in screened) screenedOut(p, screened.refuse)
      else updates.push({ path: p, mode: found.mode, content: screened.content })
    } else if (found.kind === 'symlink') {
      if (!globbed) drop(p, 'a symlink, not a regular file')
      else if (!found.inside) drop(p, 'symlink pointing outside the repository')
      else {
        const screened = o.screen ? o.screen(p, found.target, 'symlink') : { content: found.target }
        if ('refuse' in screened) screenedOut(p, screened.refuse)
        else updates.push({ path: p, mode: '120000', content: screened.content })
      }
    } else {
      drop(p, found.reason)
    }
  }
  return { updates: withoutConflicts(updates, changed, dropped), dropped }
}

const AGENT_CONFIG =
  'agent configuration, which the next stage would obey; a commit_paths entry must name it (e.g. CLAUDE.md or .claude/**), a wildcard is not enough'

/** The path is in the tree exactly as the agent was given it (`entry`; undefined: absent). */
async function asGiven(
  tree: string,
  p: string,
  entry: ConfigEntry | undefined,
  maxBytes: number
): Promise<boolean> {
  const found = await inspect(tree, p, maxBytes)
  if (!entry || found.kind === 'gone') return !entry && found.kind === 'gone'
  const algo = entry.oid.length === 64 ? 'sha256' : 'sha1'
  if (found.kind === 'file') {
    return found.mode === entry.mode && objectId('blob', found.content, algo) === entry.oid
  }
  if (found.kind === 'symlink') {
    return entry.mode === '120000' && objectId('blob', found.target, algo) === entry.oid
  }
  return false
}

/** Paths git never lists, but a caller's deliverable path might be anything. */
function pathProblem(p: string): string | null {
  const parts = p.split('/')
  if (parts.some((s) => s === '' || s === '.' || s === '..')) return 'not a plain relative path'
  if (parts.some((s) => s.toLowerCase() === '.git')) return 'inside a .git directory'
  return null
}

type Found =
  | { kind: 'gone' }
  | { kind: 'file'; mode: string; content: Buffer }
  | { kind: 'symlink'; target: Buffer; inside: boolean }
  | { kind: 'bad'; reason: string }

/**
 * What is at `p`, looked at without following symlinks anywhere on the way. A path under a
 * symlinked directory, or replaced by a directory, is gone as far as the tree is concerned.
 */
async function inspect(repo: string, p: string, maxBytes: number): Promise<Found> {
  const parts = p.split('/')
  for (let i = 1; i < parts.length; i++) {
    const st = await lstatOrNull(path.join(repo, ...parts.slice(0, i)))
    if (!st?.isDirectory()) return { kind: 'gone' }
  }
  const full = path.join(repo, ...parts)
  const st = await lstatOrNull(full)
  if (!st || st.isDirectory()) return { kind: 'gone' }
  if (st.isSymbolicLink()) {
    const target = await readlink(full, { encoding: 'buffer' })
    const text = target.toString('utf8')
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(p), text))
    const inside =
      text !== '' &&
      !path.posix.isAbsolute(text) &&
      resolved !== '..' &&
      !resolved.startsWith('../') &&
      !resolved.split('/').some((s) => s.toLowerCase() === '.git')
    return { kind: 'symlink', target, inside }
  }
  if (!st.isFile()) return { kind: 'bad', reason: `not a regular file (${fileType(st.mode)})` }
  if (st.nlink !== 1) return { kind: 'bad', reason: 'a hard link' }
  if (st.size > maxBytes) return { kind: 'bad', reason: tooLarge(st.size, maxBytes) }

  const fh = await open(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  try {
    const now = await fh.stat()
    if (!now.isFile() || now.ino !== st.ino || now.nlink !== 1) {
      return { kind: 'bad', reason: 'changed while being read' }
    }
    if (now.size > maxBytes) return { kind: 'bad', reason: tooLarge(now.size, maxBytes) }
    // Never more than the size just seen, plus one byte to notice a file that grew since.
    const content = Buffer.alloc(now.size + 1)
    let read = 0
    for (;;) {
      const { bytesRead } = await fh.read(content, read, content.length - read, read)
      if (bytesRead === 0) break
      read += bytesRead
      if (read > now.size) return { kind: 'bad', reason: 'changed while being read' }
    }
    return { kind: 'file', mode: fileMode(now.mode), content: content.subarray(0, read) }
  } finally {
    await fh.close()
  }
}

/** Names the size, so that whoever reads the line knows what the agent left. */
const tooLarge = (size: number, maxBytes: number) =>
  `too large to commit: ${size} bytes, over the ${maxBytes}-byte limit`

function fileType(mode: number): string {
  const t = mode & constants.S_IFMT
  if (t === constants.S_IFIFO) return 'fifo'
  if (t === constants.S_IFSOCK) return 'socket'
  if (t === constants.S_IFCHR || t === constants.S_IFBLK) return 'device'
  return 'special file'
}

/**
 * A file and a directory cannot share a path. When the agent put files where a file it may
 * not change used to be (or the reverse), committing them would delete that file, so they
 * are dropped instead.
 */
function withoutConflicts(
  updates: Update[],
  changed: Map<string, string | null>,
  dropped: Dropped[]
): Update[] {
  const removing = new Set(updates.filter((u) => 'remove' in u).map((u) => u.path))
  const kept = [...changed].filter(([p, mode]) => mode !== null && !removing.has(p)).map(([p]) => p)
  if (kept.length === 0) return updates
  return updates.filter((u) => {
    if ('remove' in u) return true
    const blocker = kept.find((k) => u.path.startsWith(`${k}/`) || k.startsWith(`${u.path}/`))
    if (!blocker) return true
    dropped.push({ path: u.path, reason: `would replace ${blocker}, which may not change` })
    return false
  })
}

/** `update-index --index-info` lines: removals first, so a path can change from file to directory. */
async function indexInfo(
  repo: string,
  updates: Update[],
  algo: 'sha1' | 'sha256'
): Promise<Buffer> {
  const zero = '0'.repeat(algo === 'sha256' ? 64 : 40)
  const lines: string[] = []
  for (const u of updates) if ('remove' in u) lines.push(`0 ${zero}\t${u.path}\0`)
  for (const u of updates) {
    if ('remove' in u) continue
    const blob = await git(repo, ['hash-object', '-w', '--no-filters', '-t', 'blob', '--stdin'], {
      input: u.content
    })
    lines.push(`${u.mode} ${blob.stdout.trim()}\t${u.path}\0`)
  }
  return Buffer.from(lines.join(''), 'utf8')
}
