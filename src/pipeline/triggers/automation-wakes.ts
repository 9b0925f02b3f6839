// The events the pipeline finds itself: a stage that gave up after its retries (run_failed)
// and a stage that asked a question (input_required). The job that decides so owes a wake-up
// for each such automation, in its record like every effect; the job the wake-up starts reads
// what happened from the record and runs the automation (run.ts).
import type { WorkflowConfig } from '../../config/types.js'
import type { StageKind } from '../../stage-kind.js'
import type { Effect } from '../record.js'
import type { Tracker } from '../ports.js'
import type { Next } from '../transitions.js'
import { INPUT_REQUIRED_STEP, RUN_FAILED_STEP } from './run.js'
import { automationEffects } from './after.js'

export function withAutomations(
  effects: Effect[],
  o: {
    config: WorkflowConfig
    kind: StageKind
    next: Next
    /** The state and entry the stage ran in. */
    state: string
    entry: number
    /** Whether this stage's run failed (not stopped for its budget or a lost state). */
    failed: boolean
    wakes: Tracker['wakes']
  }
): Effect[] {
  if (o.kind === 'automation') return automationEffects(effects)
  if (o.wakes === 'none') return effects
  const has = (type: string) =>
    o.config.automations.some((a) => a.enabled && a.trigger.type === type)
  const { next } = o
  if (next.kind === 'escalate' && o.failed && has('run_failed')) {
    // After the move into the failed state, where the wake-up must find the issue.
    const state = next.to ?? o.state
    return [...effects, { kind: 'wake', state, entry: o.entry, step: RUN_FAILED_STEP }]
  }
  if (next.kind === 'wait' && has('input_required')) {
    return [...effects, { kind: 'wake', state: o.state, entry: o.entry, step: INPUT_REQUIRED_STEP }]
  }
  return effects
}
