import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'

/** The nearest folder at or above `dir` that holds `.git`; `dir` itself when there is none. */
export function repoRootOf(dir: string): string {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current
    if (dirname(current) === current) return dir
  }
}

/**
 * A repository-relative file's text, or null when it is missing, not a regular file, or
 * (through a symlink) outside the repository.
 */
export function readRepoFile(root: string, repoPath: string): string | null {
  try {
    const real = realpathSync(join(root, repoPath))
    const inside = relative(realpathSync(root), real)
    if (inside.startsWith('..') || inside === '' || !statSync(real).isFile()) return null
    return readFileSync(real, 'utf8')
  } catch {
    return null
  }
}

/** `dir` relative to `root`, with `/` separators; `.` for the root itself. */
export function repoRelativeDir(root: string, dir: string): string {
  return relative(root, dir).split(sep).join('/') || '.'
}
