// What a failed git command becomes: a GitError whose one line names the command and the last
// thing git said (credentials masked), or a DiskFullError when git could not write for want of
// space, which no retry mends.
import { statfsSync } from 'node:fs'
import path from 'node:path'
import { clip } from '../clip.js'

/** git failed; carries the command (without the hardening prefix) and what git said. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | null,
    readonly stderr: string,
    message?: string
  ) {
    const said = lastLine(stderr)
    super(
      message ?? `${commandLine(args)} failed (exit ${code ?? 'signal'})${said ? `: ${said}` : ''}`
    )
    this.name = 'GitError'
  }
}

/** git could not write because the disk is full. */
export class DiskFullError extends GitError {
  constructor(
    args: readonly string[],
    code: number | null,
    stderr: string,
    /** The repository git ran in. */
    cwd: string,
    /** What git could not write, when it said. */
    readonly path?: string
  ) {
    const what = path ?? `in ${cwd} (${lastLine(stderr)})`
    super(
      args,
      code,
      stderr,
      `the disk is full: ${commandLine(args)} could not write ${what}; free disk space on the runner`
    )
    this.name = 'DiskFullError'
  }
}

/** Below this much free space, a failed write is taken for a full disk. */
const NEARLY_FULL_BYTES = 1024 * 1024

const NO_SPACE = /No space left on device|\bENOSPC\b/
/**
 * git does not always say why a write failed (a ref's lock file: "couldn't write '…'"); on a
 * disk with next to no room left, that is why.
 */
const WRITE_FAILED =
  /couldn't write|could not write|unable to write|failed to write|write error|Unable to create|unable to create|cannot create/

/** The error for a git command that failed in `cwd`. */
export function gitFailure(
  cwd: string,
  args: readonly string[],
  code: number | null,
  stderr: string
): GitError {
  const full = diskFull(stderr, () => freeBytes(cwd))
  if (!full) return new GitError(args, code, stderr)
  const named = full.path === undefined ? undefined : path.resolve(cwd, full.path)
  return new DiskFullError(args, code, stderr, cwd, named)
}

/**
 * Whether `stderr` tells of a full disk, and the path git could not write when it names one.
 * `free` is asked only when git's words leave it open.
 */
export function diskFull(
  stderr: string,
  free: () => number | undefined
): { path?: string } | undefined {
  const lines = stderr.split(/\r?\n|\r/).filter((l) => l.trim())
  const line =
    lines.find((l) => NO_SPACE.test(l)) ??
    (lines.some((l) => WRITE_FAILED.test(l)) && (free() ?? Infinity) < NEARLY_FULL_BYTES
      ? lines.find((l) => WRITE_FAILED.test(l))
      : undefined)
  if (line === undefined) return undefined
  const named = pathIn(line)
  return named === undefined ? {} : { path: named }
}

/** The last path-like word of a git message (`'/r/.git/index.lock'`, `.git/config.lock`). */
function pathIn(line: string): string | undefined {
  const words = line.match(/'[^']+'|[^\s']+/g) ?? []
  const paths = words
    .map((w) => w.replace(/^'|'$/g, '').replace(/[:.,]+$/, ''))
    .filter((w) => w.includes('/') && !w.startsWith('refs/') && !/^[a-z]+:\/\//.test(w))
  return paths.at(-1)
}

function freeBytes(dir: string): number | undefined {
  try {
    const s = statfsSync(dir)
    // root may fill the blocks reserved for it; anyone else stops short of them.
    return s.bsize * (process.getuid?.() === 0 ? s.bfree : s.bavail)
  } catch {
    return undefined
  }
}

/** `git <subcommand> <args>`, one line, without the `-c` settings we put first, credentials masked. */
function commandLine(args: readonly string[]): string {
  let at = 0
  while (args[at] === '-c' && at + 1 < args.length) at += 2
  return clip(`git ${args.slice(at).map(mask).join(' ')}`.replace(/\s+/g, ' '), 160)
}

/** The last thing git said, on one line, credentials masked. */
function lastLine(stderr: string): string {
  const lines = stderr.split(/\r?\n|\r/).map((l) => l.trim())
  return clip(mask(lines.filter(Boolean).at(-1) ?? '').replace(/\s+/g, ' '), 300)
}

/** Hides credentials git may echo: a URL's user and password, an auth header, a GitHub token. */
export function mask(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1***@')
    .replace(/(authorization:\s*(?:basic|bearer|token)\s+)[^\s'"]+/gi, '$1***')
    .replace(/\b(?:gh[opsur]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,})/g, '***')
}
