import { sameState } from '../../config/lookup.js'
import type { AutomationConfig, WorkflowConfig } from '../../config/types.js'
import type { JobTrigger } from '../ports.js'
import { reviewerOf } from '../record/review-chain.js'
import type { Continuation, IssueRecord, Recovery } from '../record/record.js'
import type { StageKind } from '../../stage-kind.js'
import type { AutomationRun, FiredRun } from '../triggers/run.js'

/** Which stage a job runs: the profile, the attempt, and the entry into the state it serves. */
export interface StagePlan {
  entry: number
  /** The job starts a new entry into the state (the record must say so). */
  newEntry: boolean
  kind: StageKind
  profile: string
  attempt: number
  round: number
  /** Why the previous attempt's deliverable was refused, for the prompt. */
  recheck?: string
  /** A review's subject. */
  reviewed?: string
  /** The work was sent back to this stage by that profile, whose deliverable says why. */
  sentBackBy?: string
  /** A resumed stage writes to its first run's handoff path. */
  timestamp?: string
  /** How many times this exact step already ran (a stage resumed by replies runs again). */
  resume: number
  reply?: JobTrigger['reply']
  /** This run recovers from the one before it (a fallback, a verify or blocking re-run). */
  recovery?: Recovery
  /** An automation's run for an event (kind `automation`). */
  automation?: AutomationRun
}

export interface PlanInput {
  config: WorkflowConfig
  record: IssueRecord
  state: string
  automation: AutomationConfig
  trigger: {
    source: JobTrigger['source']
    actorIsBot: boolean
    /** When a label event's label was added. */
    at?: string
    /** A wake-up names only the entry (and owed step) it was sent for; what runs comes from the record. */
    wake?: { entry: number; step?: string }
    reply?: JobTrigger['reply']
  }
  /** This job's run id (without the attempt): a re-run of a job finds its own stage. */
  runId: string
  /** How the next stage is started: with `dispatch`, our own label changes start nothing. */
  chain: 'dispatch' | 'label' | 'none'
}

/**
 * Decides what this job runs so that one entry into a state runs its stage once (plus the
 * pipeline's own retries, reviews and reworks), whatever mix of label events, dispatches and
 * re-runs arrives. Jobs for one issue are serialised by the workflow's concurrency group, so the
 * record read here already holds every earlier job's stage.
 */
export function planStage(o: PlanInput): StagePlan | { skip: string } {
  const plan = planOf(o)
  const back = o.record.sentBack
  if ('skip' in plan || plan.kind !== 'work' || back?.entry !== plan.entry) {
    return plan
  }
  return { ...plan, sentBackBy: back.by }
}

/**
 * An automation's helper run for its event: in the entry the event belongs to, its first
 * attempt, moving nothing unless its policy or its agent asks.
 */
export function automationPlan(record: IssueRecord, fired: FiredRun): StagePlan {
  return {
    entry: fired.entry,
    newEntry: false,
    kind: 'automation',
    profile: fired.automation.profile,
    attempt: 0,
    round: record.round,
    resume: 0,
    automation: fired.run
  }
}

function planOf(o: PlanInput): StagePlan | { skip: string } {
  const { record, state, automation, trigger } = o
  const sameEntry = record.state !== null && sameState(record.state, state)
  // An automation's helper runs are not the entry's stages (triggers/run.ts plans those).
  const stages = record.stages.filter((s) => s.kind !== 'automation')
  const inEntry = sameEntry ? stages.filter((s) => s.entry === record.entry) : []

  const mine = stages.filter((s) => s.run.split('/')[0] === o.runId)
  const rerun = mine[mine.length - 1]
  if (rerun) {
    if (!sameEntry || rerun.entry !== record.entry) {
      return { skip: 'this job ran for an earlier entry into the state; the issue has moved on' }
    }
    if (rerun.outcome === 'succeeded') {
      return { skip: `this job's ${rerun.profile} stage already succeeded for "${state}"` }
    }
    return {
      entry: record.entry,
      newEntry: false,
      kind: rerun.kind,
      profile: rerun.profile,
      attempt: nextAttempt(inEntry, rerun.kind, rerun.profile),
      round: record.round,
      resume: 0,
      // A re-run of a recovery is still one: a fallback must not earn retries of its own.
      recovery: rerun.recovery && { ...rerun.recovery, detail: '' }
    }
  }

  if (trigger.source === 'comment') {
    const w = record.waiting
    if (trigger.actorIsBot) return { skip: 'a bot comment does not answer a stage' }
    if (!w || !sameEntry || w.entry !== record.entry || !sameState(w.state, state)) {
      return { skip: 'no stage of this issue is waiting for input' }
    }
    return {
      entry: w.entry,
      newEntry: false,
      kind: w.kind,
      profile: w.profile,
      attempt: w.attempt,
      round: record.round,
      timestamp: w.timestamp,
      reply: trigger.reply,
      resume: inEntry.filter(
        (s) => s.kind === w.kind && s.profile === w.profile && s.attempt === w.attempt
      ).length
    }
  }

  // The same-state step the record asks for, when this job is the wake-up (or local run) for it.
  const c = record.continuation
  const forStep = sameEntry && c?.entry === record.entry && sameState(c.state, state)
  if (trigger.source === 'wake' && trigger.wake) {
    // The entry after the record's, in a state the record did not see the issue enter, is the
    // reconcile's wake-up for a person's move whose label event started nothing.
    const unseen = !sameEntry && trigger.wake.entry === record.entry + 1
    if (!unseen && (!sameEntry || trigger.wake.entry !== record.entry)) {
      return { skip: `the wake-up was for an earlier entry into "${state}"` }
    }
  }
  if (c && forStep && trigger.source === 'cli') return continueWith(o, c, inEntry)
  if (c && forStep && trigger.source === 'wake' && trigger.wake?.step !== undefined) {
    if (trigger.wake.step !== c.step) {
      return { skip: `the wake-up's step already ran for this entry into "${state}"` }
    }
    return continueWith(o, c, inEntry)
  }

  if (trigger.source === 'label' && trigger.actorIsBot && o.chain === 'dispatch') {
    return { skip: "the pipeline's own label change; its next stage was dispatched" }
  }
  if (trigger.source === 'wake' && sameEntry && inEntry.length > 0) {
    return { skip: `a stage already ran for this entry into "${state}"` }
  }
  // A label added before this entry's first stage started is that entry's, not a person's new
  // move: its event delivered late or again, or the re-run of a job that failed before it ran.
  const first = inEntry[0]?.startedAt
  if (
    trigger.source === 'label' &&
    trigger.at &&
    first &&
    Date.parse(trigger.at) <= Date.parse(first)
  ) {
    return { skip: `a stage already ran for this entry into "${state}" since that label was added` }
  }
  // The entry the pipeline's own move made, or a new one a person made.
  const ours = sameEntry && inEntry.length === 0
  return {
    entry: ours ? record.entry : record.entry + 1,
    newEntry: !ours,
    kind: 'work',
    profile: automation.profile,
    attempt: 0,
    round: ours ? record.round : 0,
    resume: 0
  }
}

function continueWith(
  o: PlanInput,
  c: Continuation,
  inEntry: IssueRecord['stages']
): StagePlan | { skip: string } {
  const fallback = c.recovery?.kind === 'fallback'
  const profile = c.kind === 'review' && !fallback ? reviewerOf(o.config, c.profile) : c.profile
  if (!o.config.agent.profiles[profile]) {
    return { skip: `the record asks for profile ${profile}, which this WORKFLOW.md does not have` }
  }
  const ran = (s: (typeof inEntry)[number]) =>
    s.kind === c.kind && s.profile === profile && s.attempt === c.attempt && s.round === c.round
  if (inEntry.some(ran)) {
    return {
      skip: `${profile} attempt ${c.attempt}${c.round ? ` of review round ${c.round}` : ''} already ran for this entry into "${o.state}"`
    }
  }
  return {
    entry: o.record.entry,
    newEntry: false,
    kind: c.kind,
    profile,
    attempt: c.attempt,
    round: c.round,
    resume: 0,
    recheck: c.recheck,
    reviewed: c.reviewed,
    recovery: c.recovery
  }
}

function nextAttempt(
  stages: { kind: StageKind; profile: string; attempt: number }[],
  kind: StageKind,
  profile: string
): number {
  const same = stages.filter((s) => s.kind === kind && s.profile === profile)
  return same.length === 0 ? 0 : Math.max(...same.map((s) => s.attempt)) + 1
}
