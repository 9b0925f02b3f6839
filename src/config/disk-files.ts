import { existsSync, realpathSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { FileRefused, readCappedText } from '../files/read-capped.js'

/** The nearest folder at or above `dir` that holds `.git`; `dir` itself when there is none. */
export function repoRootOf(dir: string): string {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current
    if (dirname(current) === current) return dir
  }
}

// Profile files (SOUL.md, INSTRUCTIONS.md) become prompt text: a few KiB each.
const REPO_FILE_MAX_BYTES = 1024 * 1024

/**
 * A repository-relative file's text, or null when it is missing or (through a symlink)
 * outside the repository. A FileRefused when it is there but not a regular file, or too large.
 */
export function readRepoFile(root: string, repoPath: string): string | null {
  let real: string
  try {
    real = realpathSync(join(root, repoPath))
    const inside = relative(realpathSync(root), real)
    if (inside.startsWith('..') || inside === '') return null
  } catch {
    return null
  }
  try {
    return readCappedText(real, REPO_FILE_MAX_BYTES, repoPath)
  } catch (e) {
    if (e instanceof FileRefused && e.reason === 'missing') return null
    throw e
  }
}

/** `dir` relative to `root`, with `/` separators; `.` for the root itself. */
export function repoRelativeDir(root: string, dir: string): string {
  return relative(root, dir).split(sep).join('/') || '.'
}
