import { parseArgs, type ParseArgsConfig } from 'node:util'
import { closest } from '../config/did-you-mean.js'
import { UserError } from '../errors.js'

export interface Command {
  summary: string
  /** The whole `--help` text; its `Usage:` line is shown with a usage error. */
  usage: string
  run(argv: string[]): Promise<number>
}

/**
 * A mistake in how the CLI was called (an unknown command or option, a missing or bad
 * value): the command's `Usage:` line is printed before it (unless `withUsage` is false), and
 * the CLI exits 2.
 */
export class UsageError extends UserError {
  constructor(
    message: string,
    /** The command whose usage line goes with it; none for the top level. */
    readonly command?: string,
    readonly withUsage = true
  ) {
    super(message)
    this.name = 'UsageError'
  }
}

/** The `Usage: ...` line of a command's help text. */
export function usageLine(usage: string): string {
  return usage.trim().split('\n')[0] ?? ''
}

type Options = NonNullable<ParseArgsConfig['options']>

/**
 * Parses a command's flags; `--help` prints its usage. Unknown flags, stray arguments and a
 * flag without its value are usage errors, with a did-you-mean for a misspelt flag.
 */
export function parseCommandArgs<O extends Options>(
  name: string,
  usage: string,
  argv: string[],
  options: O
): { values: Record<string, string | boolean | undefined>; help: boolean } {
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true
    })
  } catch (err) {
    throw new UsageError(optionProblem(name, usage, (err as Error).message, options), name)
  }
  const values = parsed.values as Record<string, string | boolean | undefined>
  if (values.help) {
    process.stdout.write(usage.trim() + '\n')
    return { values, help: true }
  }
  const stray = parsed.positionals[0]
  if (stray !== undefined) {
    throw new UsageError(
      `${name}: unexpected argument "${stray}"; ${name} takes options only (see itervox-handoff help ${name})`,
      name
    )
  }
  return { values, help: false }
}

/** node:util's complaint about the flags, as a line that says what to change. */
function optionProblem(name: string, usage: string, message: string, options: Options): string {
  const unknown = /^Unknown option '([^']+)'/.exec(message)?.[1]
  if (unknown !== undefined) {
    const flags = [...Object.keys(options), 'help'].map((o) => `--${o}`)
    const near = closest(unknown.replace(/=.*$/, ''), flags)
    const hint = near === undefined ? `see itervox-handoff help ${name}` : `did you mean ${near}?`
    return `${name}: unknown option ${unknown}; ${hint}`
  }
  const missing = /^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(message)?.[1]
  if (missing !== undefined) {
    // The help's own placeholder: `--workflow FILE`.
    const shown = new RegExp(`${missing} ([A-Z]+)`).exec(usage)?.[1] ?? 'VALUE'
    return `${name}: ${missing} needs a value: ${missing} ${shown}`
  }
  const flag = /^Option '(--[\w-]+)' does not take an argument/.exec(message)?.[1]
  if (flag !== undefined) return `${name}: ${flag} takes no value; write ${flag} alone`
  return `${name}: ${message.replace(/\s+/g, ' ').trim()}; see itervox-handoff help ${name}`
}

export function stringOpt(v: string | boolean | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined
}
