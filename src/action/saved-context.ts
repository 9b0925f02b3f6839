import { lstatSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'

/** The state key under which the main step tells the post step where the stage context is. */
export const CONTEXT_STATE = 'context'

/**
 * Only a context file of our own user, that no other user can write, in a folder only we can
 * write: with isolation, nothing the agent user could have touched.
 */
export function ownFile(path: string): boolean {
  const uid = process.getuid?.()
  try {
    const file = lstatSync(path)
    const dir = lstatSync(dirname(path))
    return (
      file.isFile() &&
      file.uid === uid &&
      (file.mode & 0o022) === 0 &&
      dir.isDirectory() &&
      dir.uid === uid &&
      (dir.mode & 0o022) === 0
    )
  } catch {
    return false
  }
}

/**
 * Whether the post step may have work to do: the main step saved a context of ours that does
 * not say `done`. A false answer is the one the full check (post-finish.ts) would give too: no
 * context, or one it would not read, or one that is done; it never trusts more than it.
 */
export function unfinishedContext(path: string): boolean {
  if (!path || !ownFile(path)) return false
  let value: unknown
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return false
  }
  return (value as { phase?: unknown } | null)?.phase !== 'done'
}
