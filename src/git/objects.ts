// Reads trees and blobs straight from git's object store, so committed files are never read
// through the file system (a committed symlink is only ever a blob holding its target). This is
// the only place the handoff engine runs git: one long-lived `git cat-file --batch-command`
// (git 2.36+), started with an argv array, never a shell, through git.ts's `gitInvocation` (the
// same executable, hardening and environment as every other git we run), and with nothing from
// the repository's config or the environment able to run a program, reach the network or swap
// an object. Trees are read as raw objects, so listing a directory costs one object however many
// files it holds; blob sizes are asked only for the blobs that may be read.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import type { Socket } from 'node:net'
import path from 'node:path'
import { UserError } from '../errors.js'
import { gitInvocation } from './git.js'
import { RawTree, type TreeEntry } from './raw-tree.js'

/** Where a directory is: a tree (to read with `readRawTree`), or why there is none. */
export type TreeLocation =
  | { kind: 'tree'; oid: string; size: number; what: string }
  | { kind: 'missing' }
  | { kind: 'other'; mode: string; path: string }

export interface TreeListing {
  /** `other`: the path, or one of its parent directories, exists but is not a directory. */
  kind: 'tree' | 'missing' | 'other'
  /** Mode of the entry that is not a directory (`120000` for a symlink, `160000` a gitlink). */
  mode?: string
  /** Which path that entry has: `dir` itself or one of its parents. */
  path?: string
  entries: TreeEntry[]
}

// Added to git.ts's hardening. No transport at all, so a partial clone cannot fetch a missing
// object behind our back: `protocol.file.allow=always` there would outrank `protocol.allow`.
const GIT_OPTIONS = [
  '-c',
  'protocol.allow=never',
  '-c',
  'protocol.file.allow=never',
  '--no-replace-objects'
]
const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/
const MAX_STDERR = 4096
// 16 MiB of tree is some 250,000 entries: far beyond any handoff directory, and a bound on
// what one listing can cost.
const MAX_TREE_BYTES = 16 * 1024 * 1024

export interface GitObjectsOptions {
  /** Trees larger than this are refused rather than read (default 16 MiB). */
  maxTreeBytes?: number
}

interface Found {
  oid: string
  type: string
  size: number
  /** The object's bytes, for a `contents` request. */
  data?: Buffer
}

interface Pending {
  kind: 'info' | 'contents'
  name: string
  header?: Found
  resolve: (found: Found | null) => void
  reject: (err: Error) => void
}

// One reader per repository for the whole stage (see sharedObjects): every git object a stage
// reads goes through it, so a stage starts one `cat-file` however many readers it has.
const shared = new Map<string, GitObjects>()

/** The stage's object reader of `repo`, started on first use; `closeSharedObjects` ends it. */
export function sharedObjects(repo: string): GitObjects {
  const dir = path.resolve(repo)
  let objects = shared.get(dir)
  if (!objects) shared.set(dir, (objects = new GitObjects(dir)))
  return objects
}

/** Ends every shared reader: at the end of a stage. */
export async function closeSharedObjects(): Promise<void> {
  const all = [...shared.values()]
  shared.clear()
  await Promise.all(all.map((o) => o.close()))
}

export class GitObjects {
  private batch?: ChildProcessWithoutNullStreams
  private batchExit?: Promise<void>
  private batchError?: Error
  private readonly waiting: Pending[] = []
  private chunks: Buffer[] = []
  private buffered = 0
  private stderr = ''

  private readonly maxTreeBytes: number

  constructor(
    readonly repoDir: string,
    opts: GitObjectsOptions = {}
  ) {
    this.maxTreeBytes = opts.maxTreeBytes ?? MAX_TREE_BYTES
  }

  /**
   * Lists the directory `dir` (repo-relative, forward slashes) at `commitish`. A `dir` that is
   * a symlink, a gitlink or a file, or sits under one, is `other` and nothing of it is listed.
   */
  async listTree(commitish: string, dir: string): Promise<TreeListing> {
    const found = await this.findTree(commitish, dir)
    if (found.kind !== 'tree') return { ...found, entries: [] }
    return { kind: 'tree', entries: (await this.readRawTree(found)).entries() }
  }

  /** Where `dir` is at `commitish`, without reading its entries (see `listTree`). */
  async findTree(commitish: string, dir: string): Promise<TreeLocation> {
    if (commitish === '' || /[\0\n\r]/.test(commitish)) {
      throw new Error(`not a commit: ${JSON.stringify(commitish)}`)
    }
    const parts = checkDir(dir)
    const [root] = await this.request('info', [`${commitish}^{tree}`])
    if (!root) throw new Error(`git has no commit or tree ${JSON.stringify(commitish)}`)
    const [self] = parts.length ? await this.request('info', [`${root.oid}:${dir}`]) : [root]
    const what = `${dir} at ${commitish}`
    if (self?.type === 'tree') {
      this.checkTreeSize(self.size, what)
      return { kind: 'tree', oid: self.oid, size: self.size, what }
    }
    // Missing, or not a directory: walk down from the root to say which.
    let tree: { oid: string; size?: number } = root
    for (let i = 0; i < parts.length; i++) {
      const here = parts.slice(0, i).join('/') || '/'
      const raw = await this.readRawTree({ ...tree, what: `${here} at ${commitish}` })
      const entry = raw.entries().find((e) => e.name === parts[i])
      if (!entry) return { kind: 'missing' }
      const path = parts.slice(0, i + 1).join('/')
      if (entry.type !== 'tree') return { kind: 'other', mode: entry.mode, path }
      tree = { oid: entry.oid }
    }
    return { kind: 'missing' }
  }

  /** A tree's entries, indexed but not yet parsed (`findTree` says where it is). */
  async readRawTree(tree: { oid: string; size?: number; what: string }): Promise<RawTree> {
    const { what } = tree
    const [info] = tree.size === undefined ? await this.request('info', [tree.oid]) : [tree]
    if (info?.size === undefined) throw new Error(`${what}: tree ${tree.oid} is missing`)
    this.checkTreeSize(info.size, what)
    const [found] = await this.request('contents', [tree.oid])
    if (found?.type !== 'tree' || !found.data) throw new Error(`${what}: ${tree.oid} is not a tree`)
    return new RawTree(found.data, tree.oid.length / 2)
  }

  /** The object id `rev` names (`refs/remotes/origin/main^{commit}`), or null when none. */
  async resolve(rev: string): Promise<string | null> {
    if (rev === '' || /[\0\n\r]/.test(rev))
      throw new Error(`not a revision: ${JSON.stringify(rev)}`)
    const [found] = await this.request('info', [rev])
    return found?.oid ?? null
  }

  /** The raw bytes of a commit or a tree, as git stores them (to be hashed, or parsed). */
  async readObject(oid: string, type: 'commit' | 'tree'): Promise<Buffer> {
    const [id] = checkOids([oid])
    const [found] = await this.request('contents', [id!])
    if (!found?.data) throw new Error(`git object ${oid} is missing`)
    if (found.type !== type) throw new Error(`git object ${oid} is a ${found.type}, not a ${type}`)
    return found.data
  }

  /** The sizes of blobs, without reading them. */
  async blobSizes(oids: string[]): Promise<Map<string, number>> {
    const unique = checkOids(oids)
    const found = await this.request('info', unique)
    const sizes = new Map<string, number>()
    unique.forEach((oid, i) => sizes.set(oid, blob(oid, found[i] ?? null).size))
    return sizes
  }

  /** The contents of blobs. */
  async readBlobs(oids: string[]): Promise<Map<string, Buffer>> {
    const unique = checkOids(oids)
    const found = await this.request('contents', unique)
    const blobs = new Map<string, Buffer>()
    unique.forEach((oid, i) => blobs.set(oid, blob(oid, found[i] ?? null).data as Buffer))
    return blobs
  }

  async close(): Promise<void> {
    if (!this.batch) return
    // Held open until git has exited, which an idle reader would not wait for.
    this.batch.ref()
    this.batch.stdin.end()
    await this.batchExit
    this.batch = undefined
  }

  private checkTreeSize(size: number, what: string): void {
    if (size > this.maxTreeBytes) {
      throw new UserError(
        `${what} is a ${size}-byte directory, over the ${this.maxTreeBytes}-byte limit; remove old files from it`
      )
    }
  }

  private request(kind: Pending['kind'], names: string[]): Promise<(Found | null)[]> {
    if (names.length === 0) return Promise.resolve([])
    const proc = this.startBatch()
    const replies = names.map(
      (name) =>
        new Promise<Found | null>((resolve, reject) => {
          if (this.batchError) return reject(this.batchError)
          this.waiting.push({ kind, name, resolve, reject })
        })
    )
    proc.stdin.write(names.map((n) => `${kind} ${n}\n`).join(''))
    ;(proc.stdout as Socket).ref()
    return Promise.all(replies)
  }

  private startBatch(): ChildProcessWithoutNullStreams {
    if (this.batch) return this.batch
    // The same git, hardening and environment as every other git we run (git.ts).
    const { file, args, env } = gitInvocation(this.repoDir, { env: { GIT_NO_LAZY_FETCH: '1' } })
    const child = spawn(file, [...args, ...GIT_OPTIONS, 'cat-file', '--batch-command'], {
      cwd: this.repoDir,
      env,
      stdio: ['pipe', 'pipe', 'pipe']
    })
    this.batch = child
    this.batchError = undefined
    this.chunks = []
    this.buffered = 0
    this.stderr = ''
    // An idle reader never keeps the process alive (only a pending reply does), so a stage's
    // shared reader that nothing closed cannot hold a finished step open.
    child.unref()
    for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as Socket).unref()
    child.stdout.on('data', (d: Buffer) => this.onData(d))
    child.stderr.on('data', (d: Buffer) => {
      if (this.stderr.length < MAX_STDERR) this.stderr += d.toString('utf8')
    })
    // A write after git died fails with EPIPE; the exit below reports why.
    child.stdin.on('error', () => undefined)
    this.batchExit = new Promise((resolve) => {
      const fail = (why: string) => {
        const old = /batch-command/.test(this.stderr) ? ' (git 2.36 or later is needed)' : ''
        this.batchError = new Error(`git cat-file ${why}: ${firstLine(this.stderr)}${old}`)
        for (const p of this.waiting.splice(0)) p.reject(this.batchError)
        this.batch = undefined
        resolve()
      }
      child.on('error', (e) => fail(`could not start (${e.message})`))
      child.on('close', (code) => fail(`exited (${code})`))
    })
    return child
  }

  // Replies come in request order: `<oid> <type> <size>\n`, then for `contents` the bytes and
  // `\n`; or `<name> missing\n` (also `ambiguous`).
  private onData(chunk: Buffer): void {
    this.chunks.push(chunk)
    this.buffered += chunk.length
    for (let p = this.waiting[0]; p; p = this.waiting[0]) {
      if (!p.header) {
        const nl = this.findNewline()
        if (nl < 0) return
        const line = this.take(nl + 1).toString('utf8', 0, nl)
        const m = /^([0-9a-f]+) (\S+) (\d+)$/.exec(line)
        if (!m) {
          this.waiting.shift()
          if (line.endsWith(' missing')) p.resolve(null)
          else p.reject(new Error(`git cat-file: ${p.name}: ${line}`))
          continue
        }
        const [, oid = '', type = '', size = ''] = m
        p.header = { oid, type, size: Number(size) }
        if (p.kind === 'info') {
          this.waiting.shift()
          p.resolve(p.header)
          continue
        }
      }
      if (this.buffered < p.header.size + 1) return
      const data = this.take(p.header.size)
      this.take(1)
      this.waiting.shift()
      p.resolve({ ...p.header, data })
    }
    if (this.waiting.length === 0) (this.batch?.stdout as Socket | undefined)?.unref()
  }

  private findNewline(): number {
    let offset = 0
    for (const c of this.chunks) {
      const i = c.indexOf(0x0a)
      if (i >= 0) return offset + i
      offset += c.length
    }
    return -1
  }

  private take(n: number): Buffer {
    const parts: Buffer[] = []
    let need = n
    while (need > 0) {
      const c = this.chunks[0]
      // Callers take only what `buffered` says has arrived.
      if (!c) throw new Error(`git cat-file: ${n} bytes asked for, ${n - need} buffered`)
      if (c.length <= need) {
        parts.push(c)
        this.chunks.shift()
        need -= c.length
      } else {
        parts.push(c.subarray(0, need))
        this.chunks[0] = c.subarray(need)
        need = 0
      }
    }
    this.buffered -= n
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts, n)
  }
}

function blob(oid: string, found: Found | null): Found {
  if (!found) throw new Error(`git object ${oid} is missing`)
  if (found.type !== 'blob') throw new Error(`git object ${oid} is a ${found.type}, not a blob`)
  return found
}

function checkOids(oids: string[]): string[] {
  const unique = [...new Set(oids)]
  for (const oid of unique) if (!OID.test(oid)) throw new Error(`not an object id: ${oid}`)
  return unique
}

/** The parts of a repo-relative directory; none for `''`, the root. */
function checkDir(dir: string): string[] {
  if (dir === '') return []
  const parts = dir.split('/')
  if (parts.some((p) => p === '' || p === '.' || p === '..' || /[\0\n\r]/.test(p))) {
    throw new Error(`not a repository-relative directory: ${JSON.stringify(dir)}`)
  }
  return parts
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] || 'no message'
}
