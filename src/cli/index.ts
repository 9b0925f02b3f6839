import { UserError } from '../errors.js'
import { GitError } from '../git/git-errors.js'
import { commands } from './commands.js'

const USAGE = `itervox-handoff: run itervox handoff pipelines locally and check them before they run in CI

Usage: itervox-handoff <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(10)}${c.summary}`)
  .join('\n')}

Run "itervox-handoff <command> --help" for a command's options.`

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE + '\n')
    return name ? 0 : 1
  }
  const command = commands[name]
  if (!command) throw new UserError(`unknown command "${name}"; run itervox-handoff --help`)
  return command.run(rest)
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (err: unknown) => {
    if (err instanceof UserError) {
      process.stderr.write(err.format() + '\n')
      process.exitCode = 1
    } else if (err instanceof GitError) {
      // Names the command and what git said (a full disk, a broken repository): not our bug.
      process.stderr.write(`itervox-handoff: ${err.message}\n`)
      process.exitCode = 1
    } else {
      // Not the user's doing: show everything so it can be reported.
      process.stderr.write(
        `itervox-handoff: internal error: ${(err as Error)?.stack ?? String(err)}\n`
      )
      process.exitCode = 2
    }
  }
)
