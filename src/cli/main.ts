// What the CLI does with its arguments: the top level (help, version, unknown commands) and
// the dispatch to a command. index.ts runs it as the process; tests run it in-process too.
import { closest } from '../config/did-you-mean.js'
import { UsageError } from './args.js'
import { commands } from './commands.js'
import { EXIT_FAILURE } from './user-failure.js'
import { cliVersion, PACKAGE_NAME } from './version.js'

export const USAGE = `itervox-handoff: run itervox handoff pipelines locally and check them before they run in CI

Usage: itervox-handoff <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(10)}${c.summary}`)
  .join('\n')}

Run "itervox-handoff help <command>" (or "itervox-handoff <command> --help") for a command's
options, "itervox-handoff --version" for the version.

Exit status: 0 done; 1 a mistake in a file, problems found, or a pipeline that gave up;
2 a usage mistake; 70 an internal error (a bug: please report it); 130 interrupted.`

/**
 * Runs `itervox-handoff ...argv` to its exit status. A user's mistake is thrown, for the caller
 * to show (src/cli/user-failure.ts).
 */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined) {
    throw new UsageError(
      'no command given; name one of the commands above, e.g. itervox-handoff validate'
    )
  }
  if (name === '--help' || name === '-h') {
    process.stdout.write(USAGE + '\n')
    return 0
  }
  if (name === '--version' || name === '-V') return printVersion()
  if (name === 'help') return help(rest)
  return commandNamed(name).run(rest)
}

/** `help` alone lists the commands; `help <command>` shows that command's options. */
function help(args: string[]): number {
  const [name, ...extra] = args
  if (name === undefined) {
    process.stdout.write(USAGE + '\n')
    return 0
  }
  if (extra.length > 0) {
    throw new UsageError(
      `help takes one command, not "${args.join(' ')}"; e.g. itervox-handoff help run`
    )
  }
  process.stdout.write(commandNamed(name).usage.trim() + '\n')
  return 0
}

function commandNamed(name: string) {
  // Own entries only: "constructor" is no command.
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined
  if (command) return command
  const visible = Object.keys(commands)
  const what = name.startsWith('-') ? `option ${name} before a command` : `command "${name}"`
  const near = name.startsWith('-')
    ? closest(name, ['--version', '--help'])
    : closest(name, visible)
  // What other CLIs spell the version with: -v, version.
  const version = near === '--version' || /^(-v|-{0,2}version)$/i.test(name)
  const hint = version
    ? 'did you mean --version (or -V)?'
    : near === undefined
      ? `the commands are ${visible.join(', ')}`
      : `did you mean ${near}?`
  // One line, no help text before it: it says all there is to change.
  throw new UsageError(`unknown ${what}; ${hint}`, undefined, false)
}

function printVersion(): number {
  const version = cliVersion()
  if (version === undefined) {
    process.stderr.write(
      `itervox-handoff: version unknown: no package.json of ${PACKAGE_NAME} above this script; run the CLI from the package (dist/cli/index.js)\n`
    )
    return EXIT_FAILURE
  }
  process.stdout.write(`itervox-handoff ${version}\n`)
  return 0
}
