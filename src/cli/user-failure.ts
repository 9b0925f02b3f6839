import { UserError } from '../errors.js'
import { GitError } from '../git/git-errors.js'
import { usageLine, UsageError } from './args.js'
import { commands } from './commands.js'

// Exit statuses, as the README's table lists them.
export const EXIT_FAILURE = 1
const EXIT_USAGE = 2

/**
 * What the CLI prints on stderr, and exits with, for a mistake its user can fix; undefined for
 * anything else (a bug, shown whole). `usage` is shown with a usage mistake that names no
 * command.
 */
export function userFailure(
  err: unknown,
  usage: string
): { text: string; code: number } | undefined {
  if (err instanceof UsageError) {
    // The usage first, so that the last line is the one that says what to change.
    const command = err.command === undefined ? undefined : commands[err.command]
    const before = !err.withUsage ? '' : `${command ? usageLine(command.usage) : usage}\n`
    return {
      text: `${before}${err.format()}\n`,
      code: EXIT_USAGE
    }
  }
  if (err instanceof UserError) return { text: err.format() + '\n', code: EXIT_FAILURE }
  // Names the command and what git said (a full disk, a broken repository): not our bug.
  if (err instanceof GitError)
    return { text: `itervox-handoff: ${err.message}\n`, code: EXIT_FAILURE }
  return undefined
}
