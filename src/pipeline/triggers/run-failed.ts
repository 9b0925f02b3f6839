// run_failed: a stage gave up after its retries. The job that decided so sends a wake-up for
// it (see automation-wakes.ts); what failed is read from the record, never from the wake-up.
// An automation's own failure fires nothing, so two automations cannot feed each other.
import type { StageOutcome } from '../record/outcome.js'
import type { AutomationEvent } from '../ports.js'
import type { TriggerRule } from './rule.js'

/** The ends a retry follows, and that end the pipeline once the retries are spent. */
export const FAILED: readonly StageOutcome[] = ['failed', 'stalled', 'timed_out', 'rate_limited']

export const runFailed: TriggerRule<Extract<AutomationEvent, { type: 'run_failed' }>> = {
  type: 'run_failed',
  occasion(e, c) {
    const last = c.record.stages.filter((s) => s.kind !== 'automation').at(-1)
    if (!last || last.entry !== e.entry || !FAILED.includes(last.outcome)) {
      return { skip: `no stage of entry ${e.entry} failed last` }
    }
    const where = last.handoffPath ? ` Its work is in \`${last.handoffPath}\`.` : ''
    return {
      state: last.state,
      entry: last.entry,
      key: `failed-${last.entry}-${last.kind}-${last.attempt}-${last.round}`,
      about: `The ${last.profile} stage in "${last.state}" ended ${last.outcome} after its retries, and the pipeline stopped.${where} Its reason is below.`,
      text: { author: 'the pipeline', body: last.reason }
    }
  }
}
