// Runs the CLI (src/cli/main.ts) in the test's own process, for tests of what it prints and how
// it reads its arguments and files: no node process to start and no bundle to load per run
// (about 0.3 CPU-s each). Each file that uses it keeps real runs of the bundled CLI for the
// exit paths, so src/cli/index.ts and its exit statuses are still run for real.
import { main, USAGE } from '../../src/cli/main.js'
import { userFailure } from '../../src/cli/user-failure.js'
import { CLI, cliEnv, type Run } from './helpers.js'

type Write = typeof process.stdout.write

/**
 * `itervox-handoff ...args` run in `cwd` with cliEnv's environment, as cli() runs it, with
 * process.argv naming the bundle as a real run does (the version is read from the package
 * above it; the demo runs its agent through it). A user mistake ends as the CLI ends it
 * (src/cli/user-failure.ts); anything else is thrown, failing the test.
 */
export async function cliInProcess(
  cwd: string,
  args: string[],
  env: Record<string, string> = {}
): Promise<Run> {
  const out: string[] = []
  const err: string[] = []
  const saved = {
    cwd: process.cwd(),
    env: process.env,
    argv: process.argv,
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
  process.argv = [process.execPath, CLI, ...args]
  process.stdout.write = capture(out)
  process.stderr.write = capture(err)
  // Into a pipe, as cli()'s runs write, even when jest runs in band on a terminal.
  process.stdout.isTTY = false
  process.stderr.isTTY = false
  let code: number
  try {
    code = await main(args)
  } catch (e) {
    const failure = userFailure(e, USAGE)
    if (!failure) throw e
    err.push(failure.text)
    code = failure.code
  } finally {
    process.stdout.write = saved.out
    process.stderr.write = saved.err
    process.stdout.isTTY = saved.outTTY
    process.stderr.isTTY = saved.errTTY
    process.env = saved.env
    process.argv = saved.argv
    process.chdir(saved.cwd)
    process.exitCode = saved.exitCode
  }
  return { code, stdout: out.join(''), stderr: err.join('') }
}
