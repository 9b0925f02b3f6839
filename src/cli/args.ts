import { parseArgs, type ParseArgsConfig } from 'node:util'
import { closest } from '../config/did-you-mean.js'
import { UserError } from '../errors.js'

export interface Command {
  summary: string
  run(argv: string[]): Promise<number>
}

type Options = NonNullable<ParseArgsConfig['options']>

/**
 * Parses a command's flags; `--help` prints its usage. Unknown flags and stray arguments are
 * user errors that point at the command's help.
 */
export function parseCommandArgs<O extends Options>(
  name: string,
  usage: string,
  argv: string[],
  options: O
): { values: Record<string, string | boolean | undefined>; help: boolean } {
  try {
    const parsed = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true
    })
    const values = parsed.values as Record<string, string | boolean | undefined>
    const positionals = parsed.positionals
    if (values.help) {
      process.stdout.write(usage.trim() + '\n')
      return { values, help: true }
    }
    if (positionals.length > 0) {
      throw new UserError(
        `${name}: unexpected argument "${positionals[0]}"; see itervox-handoff ${name} --help`
      )
    }
    return { values, help: false }
  } catch (err) {
    if (err instanceof UserError) throw err
    const unknown = /^Unknown option '([^']+)'/.exec((err as Error).message)?.[1]
    if (unknown !== undefined) {
      const flags = [...Object.keys(options), 'help'].map((o) => `--${o}`)
      const near = closest(unknown, flags)
      const hint = near === undefined ? '' : `did you mean ${near}? `
      throw new UserError(
        `unknown option ${unknown} for ${name}; ${hint}see itervox-handoff ${name} --help`
      )
    }
    throw new UserError(`${name}: ${(err as Error).message}; see itervox-handoff ${name} --help`)
  }
}

export function stringOpt(v: string | boolean | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined
}
