import type { AgentOutcome } from '../agent/types.js'

/** How a stage ended (DESIGN.md's `outcome` output). */
export type StageOutcome = AgentOutcome | 'skipped' | 'denied'

/** Ends after which the run's deliverable becomes `.partial.md` (input_required is a pause). */
const PARTIAL: ReadonlySet<StageOutcome> = new Set([
  'failed',
  'stalled',
  'timed_out',
  'cancelled',
  'rate_limited'
])

export function marksPartial(outcome: StageOutcome): boolean {
  return PARTIAL.has(outcome)
}
