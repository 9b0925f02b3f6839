import { UserError } from '../errors.js'
import { GitError } from '../git/git-errors.js'
import { faultKind } from '../tracker/github-errors.js'

/**
 * The one line a failed job ends with. A user's mistake says what to change; GitHub being
 * down, rate limits, a full disk or a failing git each say what they are; only a fault of
 * ours is an "internal error", with its stack in the debug log.
 */
export function failureLine(err: unknown): { line: string; ours: boolean } {
  if (err instanceof UserError) return { line: err.format(), ours: false }
  // GitError's message names the command and git's last words (DiskFullError: the path).
  if (err instanceof GitError) return { line: err.message, ours: false }
  const kind = faultKind(err)
  if (kind !== 'internal' && kind !== 'user') {
    return { line: (err as Error).message, ours: false }
  }
  return { line: `internal error: ${(err as Error)?.message ?? String(err)}`, ours: true }
}
