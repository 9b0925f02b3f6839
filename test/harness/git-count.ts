// Counts the git processes the action starts: a `git` first on PATH that logs its argv and
// runs the real one. git's own children (and the agent's, which inherit the marker) are not
// counted: only the processes started by something that is not git itself.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'

export interface GitCounter {
  /** PATH for the action: the counting git first. */
  path: (rest: string) => string
  /** Every git started so far, its argv; `take` also forgets them. */
  take: () => string[][]
}

export function gitCounter(): GitCounter {
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
  const dir = mkdtempSync(join(tmpdir(), 'git-count-'))
  const log = join(dir, 'log')
  writeFileSync(log, '', { mode: 0o666 })
  chmodSync(log, 0o666)
  writeFileSync(
    join(dir, 'git'),
    `#!/bin/sh
if [ -z "$ITERVOX_GIT_COUNTED" ]; then
  for a in "$@"; do printf '%s\\037' "$a"; done >> '${log}'
  printf '\\n' >> '${log}'
fi
ITERVOX_GIT_COUNTED=1 exec '${real}' "$@"
`
  )
  chmodSync(join(dir, 'git'), 0o755)
  // Not writable: the action passes over a git in a folder it could write (git.ts).
  chmodSync(dir, 0o555)
  let seen = 0
  return {
    path: (rest) => `${dir}:${rest}`,
    take: () => {
      const lines = readFileSync(log, 'utf8').split('\n').slice(0, -1)
      const fresh = lines.slice(seen)
      seen = lines.length
      return fresh.map((l) => l.split('\x1f').slice(0, -1))
    }
  }
}

/** The git subcommand of an argv: what follows the `-c` settings and other global options. */
export function subcommand(argv: string[]): string {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === '-c' || a === '-C') i++
    else if (!a.startsWith('-') || a === '--version') return a
  }
  return ''
}

const NETWORK = new Set(['fetch', 'ls-remote', 'push', 'pull'])

/** Talks to a remote: fetch, ls-remote, push, or a clone of a URL (not a local hand-over). */
export function isNetworkOp(argv: string[]): boolean {
  const sub = subcommand(argv)
  return NETWORK.has(sub) || (sub === 'clone' && argv.some((a) => a.includes('://')))
}
