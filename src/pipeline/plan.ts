import { sameState } from '../config/lookup.js'
import type { AutomationConfig, WorkflowConfig } from '../config/types.js'
import type { IssueRecord, StageKind } from './record.js'

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
  /** A review's subject, or the profile sent back to rework after a failed review. */
  reviewed?: string
  /** A resumed stage writes to its first run's handoff path. */
  timestamp?: string
  reply?: { body: string; author: string }
}

export interface PlanInput {
  config: WorkflowConfig
  record: IssueRecord
  state: string
  automation: AutomationConfig
  trigger: {
    source: 'label' | 'workflow_dispatch' | 'repository_dispatch' | 'comment' | 'cli'
    actorIsBot: boolean
    continuation?: {
      entry: number
      kind: StageKind
      profile?: string
      attempt: number
      round: number
      recheck?: string
      reviewed?: string
    }
    reply?: { body: string; author: string }
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
  const { record, state, automation, trigger } = o
  const sameEntry = record.state !== null && sameState(record.state, state)
  const inEntry = sameEntry ? record.stages.filter((s) => s.entry === record.entry) : []

  const mine = record.stages.filter((s) => s.run.split('/')[0] === o.runId)
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
      round: record.round
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
      reply: trigger.reply
    }
  }

  const c = trigger.continuation
  if (trigger.source === 'repository_dispatch' && c) {
    if (!sameEntry || c.entry !== record.entry) {
      return { skip: `the dispatch was for an earlier entry into "${state}"` }
    }
    const kind = c.kind
    const profile =
      kind === 'review' ? o.config.agent.reviewerProfile : (c.profile ?? automation.profile)
    if (!profile || !o.config.agent.profiles[profile]) {
      return { skip: `the dispatch names no profile this WORKFLOW.md has` }
    }
    const ran = (s: (typeof inEntry)[number]) =>
      s.kind === kind && s.profile === profile && s.attempt === c.attempt && s.round === c.round
    if (inEntry.some(ran)) {
      return {
        skip: `${profile} attempt ${c.attempt}${c.round ? ` of review round ${c.round}` : ''} already ran for this entry into "${state}"`
      }
    }
    return {
      entry: record.entry,
      newEntry: false,
      kind,
      profile,
      attempt: c.attempt,
      round: c.round,
      recheck: c.recheck,
      reviewed: c.reviewed
    }
  }

  if (trigger.source === 'label' && trigger.actorIsBot && o.chain === 'dispatch') {
    return { skip: "the pipeline's own label change; its next stage was dispatched" }
  }
  if (trigger.source === 'repository_dispatch' && sameEntry && inEntry.length > 0) {
    return { skip: `a stage already ran for this entry into "${state}"` }
  }
  return {
    entry: sameEntry && inEntry.length === 0 ? record.entry : record.entry + 1,
    newEntry: !(sameEntry && inEntry.length === 0),
    kind: 'work',
    profile: automation.profile,
    attempt: 0,
    round: 0
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
