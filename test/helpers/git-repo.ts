// Real git repositories in temp directories, filled through `git fast-import` so any tree can
// be made quickly: symlinks, gitlinks, big or invalid-UTF-8 blobs, odd names, 10,000 files.
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface FileSpec {
  path: string
  /** File contents; for a symlink its target. */
  data?: string | Buffer
  mode?: '100644' | '100755' | '120000' | '160000'
  /** The commit a gitlink (mode 160000) points at. */
  commit?: string
}

const IDENT = 'Test <test@example.com> 1767225600 +0000'
// glibc returning memory to the kernel after every object makes fast-import take ~2 ms per
// file on some VMs; a large top pad keeps it at ~0.1 ms.
const GIT_ENV = { ...process.env, MALLOC_TOP_PAD_: String(256 * 1024 * 1024) }

/** Runs git at once, as a fixed author and committer; its stdout, trimmed. */
export function gitSync(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'a',
      GIT_AUTHOR_EMAIL: 'a@x',
      GIT_COMMITTER_NAME: 'a',
      GIT_COMMITTER_EMAIL: 'a@x'
    }
  }).trim()
}

/**
 * Runs git with an argv array, streaming `input` (with back-pressure) to its stdin; resolves
 * with stdout, rejects with stderr on failure.
 */
export function git(
  cwd: string,
  args: string[],
  input: string | Buffer | Iterable<Buffer> = ''
): Promise<Buffer> {
  const child = spawn('git', args, { cwd, env: GIT_ENV, stdio: ['pipe', 'pipe', 'pipe'] })
  const out: Buffer[] = []
  let err = ''
  child.stdout.on('data', (d: Buffer) => out.push(d))
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  const done = new Promise<Buffer>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`git ${args.join(' ')}: ${err}`))
    )
  })
  // A child that stops reading (it exited) must not leave us waiting for 'drain'.
  const gone = new Promise<void>((resolve) => {
    child.stdin.on('error', () => resolve())
    child.on('close', () => resolve())
  })
  const feed = async () => {
    const chunks = typeof input === 'string' || Buffer.isBuffer(input) ? [input] : input
    for (const chunk of chunks) {
      if (!child.stdin.write(chunk)) {
        const drained = await Promise.race([once(child.stdin, 'drain').then(() => true), gone])
        if (!drained) return
      }
    }
    child.stdin.end()
  }
  return Promise.all([done, feed()]).then(([stdout]) => stdout)
}

export class TempRepo {
  private constructor(readonly dir: string) {}

  static async create(
    prefix = 'handoff-test-',
    objectFormat: 'sha1' | 'sha256' = 'sha1'
  ): Promise<TempRepo> {
    const dir = await mkdtemp(join(tmpdir(), prefix))
    await git(dir, ['init', '-q', '-b', 'main', `--object-format=${objectFormat}`])
    return new TempRepo(dir)
  }

  /**
   * Commits `files` on top of the current `main` (or as its first commit) and returns the new
   * commit id. With `replace`, the tree holds exactly these files.
   */
  async commit(
    files: Iterable<FileSpec>,
    opts: { message?: string; replace?: boolean } = {}
  ): Promise<string> {
    const parent = await this.head()
    await git(this.dir, ['fast-import', '--quiet', '--done'], fastImportStream(files, parent, opts))
    return (await this.head()) as string
  }

  /** The commit `main` points at, or null before the first commit. */
  async head(): Promise<string | null> {
    try {
      return (await git(this.dir, ['rev-parse', '--verify', '-q', 'refs/heads/main']))
        .toString()
        .trim()
    } catch {
      return null
    }
  }

  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true })
  }
}

function* fastImportStream(
  files: Iterable<FileSpec>,
  parent: string | null,
  opts: { message?: string; replace?: boolean }
): Generator<Buffer> {
  const message = opts.message ?? 'test'
  yield Buffer.from(
    `commit refs/heads/main\nauthor ${IDENT}\ncommitter ${IDENT}\n` +
      `data ${Buffer.byteLength(message)}\n${message}\n` +
      (parent ? `from ${parent}\n` : '') +
      (opts.replace ? 'deleteall\n' : '')
  )
  for (const f of files) {
    const mode = f.mode ?? '100644'
    if (mode === '160000') {
      yield Buffer.from(`M 160000 ${f.commit} ${quotePath(f.path)}\n`)
      continue
    }
    const data = Buffer.isBuffer(f.data) ? f.data : Buffer.from(f.data ?? '')
    yield Buffer.concat([
      Buffer.from(`M ${mode} inline ${quotePath(f.path)}\ndata ${data.length}\n`),
      data,
      Buffer.from('\n')
    ])
  }
  yield Buffer.from('done\n')
}

/** A fast-import path: quoted C-style when it holds a line break, a quote or a backslash. */
function quotePath(path: string): string {
  if (!/["\\\n\r]/.test(path) && !path.startsWith('"')) return path
  const body = path
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
  return `"${body}"`
}
