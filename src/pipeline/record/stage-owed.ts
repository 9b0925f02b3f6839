import { findAutomation, sameState } from '../../config/lookup.js'
import type { WorkflowConfig } from '../../config/types.js'
import { PAUSED_LABEL } from './pause.js'
import { emptyRecord, haltedOnEffects, type Effect, type IssueRecord } from './record.js'
import { reviewerOf } from './review-chain.js'

/** The wake-up that starts what an issue is owed, named so that it is sent once. */
export interface OwedWake {
  wake: { state: string; entry: number; step?: string }
  /**
   * Names this wake-up among the issue's (a plain word, fit for a git ref): a later need is
   * another name, so a claim on this one never holds it back.
   */
  key: string
  why: string
  /**
   * The issue is in a state its record never saw it enter: whoever moved it there started
   * nothing yet, and must be one who may start stages before this wake-up is sent.
   */
  entered?: true
}

/**
 * What the scheduled reconcile starts for an issue in `state`, judged from its record alone:
 * the stage of an entry no job has run (a label event that started nothing, a wake-up that was
 * lost or queued), the same-state step the record asks for, or the effects of a decision that
 * were never carried out. A wake-up sent for nothing is harmless (plan.ts skips it); one never
 * sent leaves the pipeline stopped. Pure.
 */
export function owedWake(o: {
  config: WorkflowConfig
  state: string | null
  record: IssueRecord | null
  /** The issue's labels, as the listing gave them: a paused issue is owed nothing yet. */
  labels: readonly string[]
  /** A reply that answers the waiting stage, where the tracker sends no comment events. */
  reply?: { id: string }
}): OwedWake | { skip: string } {
  const { config, state } = o
  if (!state) return { skip: 'carries no state' }
  if (o.labels.some((l) => l.toLowerCase() === PAUSED_LABEL)) {
    return { skip: `is paused (label ${PAUSED_LABEL})` }
  }
  const automation = findAutomation(config, state)
  if (!automation) return { skip: `no automation starts in "${state}"` }
  if (!config.agent.profiles[automation.profile]?.enabled) {
    return { skip: `profile ${automation.profile} is disabled` }
  }
  const r = o.record ?? emptyRecord()
  if (r.owed && owesEffects(r, state)) {
    const run = r.owed.run
    const wake = r.owed.effects.find((e) => e.kind === 'wake')
    const key = `${r.entry}-o-${word(run)}`
    const why = `owes what run ${run} decided`
    // The job finishes the owed effects first (the move among them), then runs the stage
    // their wake-up was for.
    if (wake) return { wake: wakeOf(wake), key, why }
    return { wake: { state, entry: r.entry }, key, why }
  }
  if (r.state === null || !sameState(r.state, state)) {
    // Only a person's move puts the issue in a state its record did not enter.
    const entry = r.entry + 1
    return {
      wake: { state, entry },
      key: String(entry),
      why: `no stage started on entering "${state}"`,
      entered: true
    }
  }
  if (r.halted !== undefined) return { skip: 'the pipeline stopped; a person decides what next' }
  if (r.waiting?.entry === r.entry) {
    if (!o.reply) return { skip: 'a stage waits for an answer' }
    return {
      wake: { state, entry: r.entry },
      key: `${r.entry}-r-${word(o.reply.id)}`,
      why: 'a reply answers the stage waiting for input'
    }
  }
  const a = r.approval
  if (a && a.by === undefined && a.entry === r.entry && sameState(a.state, state)) {
    return { skip: 'a stage waits for approval' }
  }
  // An automation's helper runs are not the entry's own stages.
  const inEntry = r.stages.filter((s) => s.entry === r.entry && s.kind !== 'automation')
  const c = r.continuation
  if (c && c.entry === r.entry && sameState(c.state, state)) {
    const profile = c.kind === 'review' ? reviewerOf(config, c.profile) : c.profile
    const ran = inEntry.some(
      (s) =>
        s.kind === c.kind && s.profile === profile && s.attempt === c.attempt && s.round === c.round
    )
    if (ran) return { skip: 'the step the record asks for ran' }
    // A continuation without a step name is from before wake-ups named theirs: none matches it.
    if (c.step === undefined) return { skip: 'the step the record asks for has no wake-up name' }
    return {
      wake: { state, entry: r.entry, step: c.step },
      key: `${r.entry}-s-${word(c.step)}`,
      why: `${c.kind === 'review' ? 'a review' : `attempt ${c.attempt}`} by ${profile} is due`
    }
  }
  if (inEntry.length === 0) {
    return {
      wake: { state, entry: r.entry },
      key: String(r.entry),
      why: 'no stage ran for this entry'
    }
  }
  return { skip: 'a stage finished for this entry' }
}

/**
 * The decision's effects are known to have failed, or its move was never made (the job ended
 * between writing the record and moving the issue, which is still where the move starts).
 */
function owesEffects(r: IssueRecord, state: string): boolean {
  if (haltedOnEffects(r)) return true
  return (r.owed?.effects ?? []).some(
    (e) => e.kind === 'move' && sameState(e.from, state) && !sameState(e.to, state)
  )
}

function wakeOf(e: Extract<Effect, { kind: 'wake' }>): OwedWake['wake'] {
  return { state: e.state, entry: e.entry, step: e.step || undefined }
}

/** A run id or step name as one word of a git ref. */
function word(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80)
}
