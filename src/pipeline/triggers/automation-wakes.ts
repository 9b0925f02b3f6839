// The events the pipeline finds itself: a stage that gave up after its retries (run_failed)
// and a stage that asked a question (input_required). The job that decides so owes a wake-up
// for each such automation, in its record like every effect; the job the wake-up starts reads
// what happened from the record and runs the automation (run.ts). Where nothing is woken (the
// CLI), the runner runs the event's automation next itself.
import type { WorkflowConfig } from '../../config/types.js'
import type { StageKind } from '../../stage-kind.js'
import type { AutomationEvent } from '../ports.js'
import type { Effect } from '../record/record.js'
import type { Tracker } from '../ports.js'
import type { Next } from '../record/next.js'
import { INPUT_REQUIRED_STEP, RUN_FAILED_STEP } from './run.js'
import { automationEffects } from './after.js'

interface StageEnd {
  config: WorkflowConfig
  kind: StageKind
  next: Next
  /** The entry the stage ran in. */
  entry: number
  /** Whether this stage's run failed (not stopped for its budget or a lost state). */
  failed: boolean
}

/**
 * The automation event a stage's end raises: run_failed when it gave up after its retries,
 * input_required when it asked a question; none for a helper run (so none can loop).
 */
export function raisedEvent(o: StageEnd): AutomationEvent | undefined {
  if (o.kind === 'automation') return undefined
  const has = (type: string) =>
    o.config.automations.some((a) => a.enabled && a.trigger.type === type)
  if (o.next.kind === 'escalate' && o.failed && has('run_failed')) {
    return { type: 'run_failed', entry: o.entry }
  }
  if (o.next.kind === 'wait' && has('input_required')) {
    return { type: 'input_required', entry: o.entry }
  }
  return undefined
}

export function withAutomations(
  effects: Effect[],
  o: StageEnd & {
    /** The state the stage ran in. */
    state: string
    wakes: Tracker['wakes']
  }
): Effect[] {
  if (o.kind === 'automation') return automationEffects(effects)
  const raised = raisedEvent(o)
  if (o.wakes === 'none' || !raised) return effects
  const { next } = o
  if (raised.type === 'run_failed') {
    // After the move into the failed state, where the wake-up must find the issue.
    const state = (next.kind === 'escalate' ? next.to : undefined) ?? o.state
    return [...effects, { kind: 'wake', state, entry: o.entry, step: RUN_FAILED_STEP }]
  }
  return [...effects, { kind: 'wake', state: o.state, entry: o.entry, step: INPUT_REQUIRED_STEP }]
}
