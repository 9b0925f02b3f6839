import { createHash } from 'node:crypto'
import { lstatSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { CommitResult } from '../../git/commit.js'

// The local tracker's issue files and run records: the tracker's, never a stage's. They sit
// uncommitted in the user's checkout while a local stage runs, so every stage finds them.
export const TRACKER_DIRS = ['.itervox/issues', '.itervox/runs'] as const

/** Each regular file under the tracker's folders, by repo-relative path, to its content's hash. */
export function snapshotTrackerFiles(repo: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (rel: string) => {
    let names: string[]
    try {
      names = readdirSync(join(repo, rel))
    } catch {
      return
    }
    for (const name of names) {
      const path = `${rel}/${name}`
      const hash = fileHash(repo, path)
      if (hash === 'dir') walk(path)
      else if (hash) out[path] = hash
    }
  }
  for (const dir of TRACKER_DIRS) walk(dir)
  return out
}

/**
 * The commit's refusals without the tracker's files the agent left as they were before the
 * stage: being refused is no news about them. Any it added, changed or removed still count.
 */
export function withoutUntouchedTrackerFiles(
  repo: string,
  before: Record<string, string>,
  dropped: CommitResult['dropped']
): CommitResult['dropped'] {
  return dropped.filter(
    (d) =>
      !TRACKER_DIRS.some((dir) => d.path.startsWith(`${dir}/`)) ||
      before[d.path] === undefined ||
      fileHash(repo, d.path) !== before[d.path]
  )
}

function fileHash(repo: string, path: string): string | 'dir' | null {
  try {
    const st = lstatSync(join(repo, path))
    if (st.isDirectory()) return 'dir'
    if (!st.isFile()) return null
    return createHash('sha256')
      .update(readFileSync(join(repo, path)))
      .digest('hex')
  } catch {
    return null
  }
}
