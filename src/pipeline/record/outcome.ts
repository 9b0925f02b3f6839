import * as z from '../../zod.js'
import { AGENT_OUTCOMES } from '../../agent/types.js'

/** How a stage ended (DESIGN.md's `outcome` output): as its agent run did, or before one. */
export const stageOutcomeSchema = z.enum([...AGENT_OUTCOMES, 'skipped', 'denied'])
export type StageOutcome = z.infer<typeof stageOutcomeSchema>

/**
 * Ends in which the agent did not do its work: the run's deliverable becomes `.partial.md`,
 * and the job fails so a person sees it (input_required is a pause, not an end).
 */
const UNFINISHED: ReadonlySet<StageOutcome> = new Set([
  'failed',
  'stalled',
  'timed_out',
  'cancelled',
  'rate_limited'
])

export function isUnfinished(outcome: StageOutcome): boolean {
  return UNFINISHED.has(outcome)
}
