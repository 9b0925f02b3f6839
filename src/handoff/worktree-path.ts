// Looks at a path in the worktree the agent has just had its hands on, without following any
// symlink: every component under the repository root is lstat-ed.
import type { Stats } from 'node:fs'
import { lstat } from 'node:fs/promises'
import { join } from 'node:path'

export type PathState =
  | { kind: 'file'; stat: Stats }
  | { kind: 'missing' }
  /** The path exists but is not a regular file. */
  | { kind: 'not-file'; what: string }
  /** A parent directory is a symlink or not a directory: nothing under it may be used. */
  | { kind: 'bad-parent'; parent: string; what: string }

/** The components of a repository-relative path; throws for anything that could leave the root. */
export function splitRelative(relPath: string): string[] {
  const parts = relPath.split('/')
  if (
    parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\0') || p.includes('\\'))
  ) {
    throw new Error(`not a repository-relative path: ${JSON.stringify(relPath)}`)
  }
  return parts
}

export async function inspectPath(repoRoot: string, relPath: string): Promise<PathState> {
  const parts = splitRelative(relPath)
  for (let i = 1; i < parts.length; i++) {
    const parent = parts.slice(0, i).join('/')
    const st = await lstatOrNull(join(repoRoot, parent))
    if (!st) return { kind: 'missing' }
    if (!st.isDirectory()) return { kind: 'bad-parent', parent, what: describeStat(st) }
  }
  const st = await lstatOrNull(join(repoRoot, relPath))
  if (!st) return { kind: 'missing' }
  if (!st.isFile()) return { kind: 'not-file', what: describeStat(st) }
  return { kind: 'file', stat: st }
}

export async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw e
  }
}

export function describeStat(st: Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link'
  if (st.isDirectory()) return 'a directory'
  if (st.isFIFO()) return 'a FIFO'
  if (st.isSocket()) return 'a socket'
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device'
  return 'a regular file'
}
