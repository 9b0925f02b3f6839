// Runs a CLI command in the test's own process, for tests of what a command prints and how it
// reads its flags and files: no node process to start and no bundle to load per run (about
// 0.3 CPU-s each). Each file that uses it keeps real runs of the bundled CLI for the exit
// paths, so src/cli/index.ts's dispatch and its exit statuses are still run for real.
import { UsageError, usageLine } from '../../src/cli/args.js'
import { commands } from '../../src/cli/commands.js'
import { UserError } from '../../src/errors.js'
import { GitError } from '../../src/git/git-errors.js'
import { cliEnv, type Run } from './helpers.js'

type Write = typeof process.stdout.write

/**
 * `itervox-handoff <command> ...args` run in `cwd` with cliEnv's environment, as cli() runs
 * it. A user mistake ends as src/cli/index.ts ends it (the usage line and exit 2 for a usage
 * error, one line and exit 1 for another); anything else is thrown, failing the test.
 */
export async function cliInProcess(
  cwd: string,
  args: string[],
  env: Record<string, string> = {}
): Promise<Run> {
  const [name, ...rest] = args
  const command = name !== undefined && Object.hasOwn(commands, name) ? commands[name] : undefined
  if (!command) throw new Error(`cliInProcess runs commands only, not ${JSON.stringify(args)}`)
  const out: string[] = []
  const err: string[] = []
  const saved = {
    cwd: process.cwd(),
    env: process.env,
    out: process.stdout.write,
    err: process.stderr.write,
    exitCode: process.exitCode,
    outTTY: process.stdout.isTTY,
    errTTY: process.stderr.isTTY
  }
  const capture =
    (to: string[]): Write =>
    (chunk: string | Uint8Array, ...more: unknown[]) => {
      to.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
      const done = more.find((m) => typeof m === 'function') as (() => void) | undefined
      done?.()
      return true
    }
  process.chdir(cwd)
  process.env = cliEnv(cwd, env)
  process.stdout.write = capture(out)
  process.stderr.write = capture(err)
  // Into a pipe, as cli()'s runs write, even when jest runs in band on a terminal.
  process.stdout.isTTY = false
  process.stderr.isTTY = false
  let code: number
  try {
    code = await command.run(rest)
  } catch (e) {
    if (e instanceof UsageError) {
      err.push(`${usageLine(command.usage)}\n${e.format()}\n`)
      code = 2
    } else if (e instanceof UserError) {
      err.push(e.format() + '\n')
      code = 1
    } else if (e instanceof GitError) {
      err.push(`itervox-handoff: ${e.message}\n`)
      code = 1
    } else {
      throw e
    }
  } finally {
    process.stdout.write = saved.out
    process.stderr.write = saved.err
    process.stdout.isTTY = saved.outTTY
    process.stderr.isTTY = saved.errTTY
    process.env = saved.env
    process.chdir(saved.cwd)
    process.exitCode = saved.exitCode
  }
  return { code, stdout: out.join(''), stderr: err.join('') }
}
