import type { AgentOutcome, StreamFindings } from './types.js'

/**
 * The start of a failed run's reason when the CLI stopped itself at the cost budget it was
 * given: the stage's share of the budget is spent, so running it the same way again cannot end
 * better (see src/pipeline/settle/transitions.ts).
 */
export const BUDGET_SPENT = 'the cost budget ran out: '

/** Why we ended the run ourselves, if we did. */
export type EndCause =
  | { kind: 'stalled'; silentMs: number }
  | { kind: 'timed_out'; deadlineMs: number }
  | { kind: 'cancelled'; why?: string }
  | { kind: 'spawn_failed'; error: string }

export interface EndFacts {
  cause?: EndCause
  exitCode: number | null
  signal: string | null
  findings: StreamFindings
}

/**
 * The outcome and its one-line reason. Our own reasons to end a run come first (the exit
 * status of a process we killed says nothing); then a failed process or an error result,
 * which is a rate limit when the stream reported one; then a clean end that asked for input.
 */
export function classify(facts: EndFacts): { outcome: AgentOutcome; reason: string } {
  const { cause, exitCode, signal, findings } = facts
  switch (cause?.kind) {
    case 'stalled':
      return {
        outcome: 'stalled',
        reason: `no output and no busy CPU for ${seconds(cause.silentMs)}`
      }
    case 'timed_out':
      return { outcome: 'timed_out', reason: `deadline of ${seconds(cause.deadlineMs)} reached` }
    case 'cancelled':
      return { outcome: 'cancelled', reason: cause.why ? `cancelled: ${cause.why}` : 'cancelled' }
    case 'spawn_failed':
      return { outcome: 'failed', reason: cause.error }
    case undefined:
      break
  }
  const processFailed = signal !== null || (exitCode !== null && exitCode !== 0)
  if (processFailed || findings.error) {
    const reason =
      findings.error ?? (signal !== null ? `killed by signal ${signal}` : `exit code ${exitCode}`)
    return { outcome: findings.rateLimited ? 'rate_limited' : 'failed', reason }
  }
  if (findings.needsInput) return { outcome: 'input_required', reason: 'the agent asked for input' }
  return { outcome: 'succeeded', reason: 'exit code 0' }
}

function seconds(ms: number): string {
  const s = ms / 1000
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`
}
