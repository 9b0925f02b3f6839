// One `git cat-file --batch-command` per fake GitHub, kept for its life, answering what the
// fake's git-data routes ask of its bare origin. A git process per request spawned several per
// API call, and a spawn from a jest worker's large heap costs milliseconds of its CPU (most of
// some suites' time). Names are looked up when asked, so refs moved and objects written by
// other git processes meanwhile are seen.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'

export interface GitObject {
  sha: string
  type: string
  /** Empty unless asked for with `withContent`. */
  content: string
}

interface Pending {
  withContent: boolean
  resolve: (object: GitObject | undefined) => void
}

export class GitObjectReader {
  private child?: ChildProcessWithoutNullStreams
  private buffered = Buffer.alloc(0)
  private readonly pending: Pending[] = []

  constructor(private readonly gitDir: string) {}

  /** What each name (an object id or a ref) is; a name git cannot find is undefined. */
  read(names: string[], withContent = false): Promise<(GitObject | undefined)[]> {
    return Promise.all(
      names.map((name) =>
        // One name a line: a name holding a line break or a space is none git could find.
        name === '' || /\s/.test(name)
          ? undefined
          : new Promise<GitObject | undefined>((resolve) => {
              this.pending.push({ withContent, resolve })
              this.process().stdin.write(`${withContent ? 'contents' : 'info'} ${name}\n`)
            })
      )
    )
  }

  close(): void {
    this.child?.stdin.end()
    this.child = undefined
  }

  private process(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child
    const child = spawn('git', ['--git-dir', this.gitDir, 'cat-file', '--batch-command'])
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk])
      this.answer()
    })
    child.stderr.resume()
    child.on('close', () => {
      for (const p of this.pending.splice(0)) p.resolve(undefined)
      if (this.child === child) this.child = undefined
    })
    // A fake a test forgot to stop must not keep jest waiting.
    child.unref()
    for (const stream of [child.stdin, child.stdout, child.stderr]) {
      ;(stream as unknown as { unref?: () => void }).unref?.()
    }
    this.child = child
    return child
  }

  /** Resolves the requests whose answers are complete, in the order they were asked. */
  private answer(): void {
    for (let next = this.pending[0]; next; next = this.pending[0]) {
      const end = this.buffered.indexOf(10)
      if (end < 0) return
      const [sha = '', type = '', size = ''] = this.buffered.subarray(0, end).toString().split(' ')
      if (type === 'missing' || type === 'ambiguous' || size === '') {
        this.buffered = this.buffered.subarray(end + 1)
        this.pending.shift()
        next.resolve(undefined)
        continue
      }
      let content = ''
      let used = end + 1
      if (next.withContent) {
        // The contents, then a line feed.
        if (this.buffered.length < used + Number(size) + 1) return
        content = this.buffered.subarray(used, used + Number(size)).toString()
        used += Number(size) + 1
      }
      this.buffered = this.buffered.subarray(used)
      this.pending.shift()
      next.resolve({ sha, type, content })
    }
  }
}
