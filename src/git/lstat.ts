import type { Stats } from 'node:fs'
import { lstat } from 'node:fs/promises'

/** lstat that answers null when nothing is there (or a parent is not a directory). */
export async function lstatOrNull(p: string): Promise<Stats | null> {
  try {
    return await lstat(p)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    throw e
  }
}
