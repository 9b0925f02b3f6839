// The command is run without a shell, so shell syntax would silently mean something else.
const SHELL_CHARS = /[;|&`$()<>]/
const QUOTES = /["'\\]/

/** Why a profile command cannot be run as written, or undefined when it can. */
export function commandProblem(command: string): string | undefined {
  if (SHELL_CHARS.test(command)) {
    return 'must not contain any of ;|&`$()>< (it runs without a shell); put the pipeline in a wrapper script and name the script here'
  }
  if (QUOTES.test(command)) {
    return 'must not contain quotes or backslashes (it is split on whitespace, without a shell); put the arguments in a wrapper script and name the script here'
  }
  if (command.trim() === '') return 'must not be empty; name the agent CLI, e.g. claude'
  return undefined
}

/** A checked command as argv, split on whitespace. */
export function commandArgv(command: string): string[] {
  return command.trim().split(/\s+/)
}
