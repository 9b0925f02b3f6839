import { posix } from 'node:path'

/**
 * `value` (a path relative to WORKFLOW.md's folder `baseDir`) as a normalised
 * repository-relative path, or why it cannot be one: it must stay inside the repository.
 */
export function repoPath(baseDir: string, value: string): { path: string } | { problem: string } {
  if (/[\u0000-\u001f]/.test(value)) return { problem: 'must not contain control characters' }
  if (value.includes('\\')) return { problem: 'must use "/" between folders, not "\\"' }
  if (posix.isAbsolute(value) || /^[A-Za-z]:/.test(value)) {
    return { problem: "must be relative to WORKFLOW.md's folder, not an absolute path" }
  }
  const path = posix.normalize(posix.join(baseDir, value))
  if (path === '..' || path.startsWith('../')) {
    return { problem: 'must stay inside the repository; remove the ".." that leads out of it' }
  }
  if (path === '.' || path.endsWith('/')) return { problem: 'must name a file, not a folder' }
  return { path }
}
