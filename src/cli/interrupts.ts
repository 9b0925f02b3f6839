import { killTracked } from '../agent/process-set.js'

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/**
 * Runs `work` with Ctrl-C, SIGTERM and a closed terminal (SIGHUP) handled alike: the first
 * ends the agent gracefully and saves its work as a partial; a second ends every agent
 * process at once and exits 130, so no agent outlives the CLI.
 */
export async function withInterrupts<T>(
  work: (signal: AbortSignal) => Promise<T>,
  err: { write(text: string): unknown } = process.stderr
): Promise<{ result: T; interrupted: boolean }> {
  const abort = new AbortController()
  const on = (name: string) => {
    if (!abort.signal.aborted) {
      err.write(`\n${name}: ending the agent and saving its work (again to stop at once)\n`)
      abort.abort(new Error('interrupted'))
      return
    }
    killTracked()
    process.exit(130)
  }
  const handlers = SIGNALS.map((name) => [name, () => on(name)] as const)
  for (const [name, h] of handlers) process.on(name, h)
  try {
    const result = await work(abort.signal)
    return { result, interrupted: abort.signal.aborted }
  } finally {
    for (const [name, h] of handlers) process.off(name, h)
  }
}
