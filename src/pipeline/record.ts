import type { StageOutcome } from './outcome.js'

/** What kind of run a stage was: the state's own work, a review of it, or a rerun. */
export type StageKind = 'work' | 'review'

/** One stage run, as the issue's status record keeps it. */
export interface StageRecord {
  /** Which entry into `state` this run belongs to (see IssueRecord.entry). */
  entry: number
  state: string
  profile: string
  kind: StageKind
  /** 0 for the first run of the stage in this entry, then 1, 2, ... */
  attempt: number
  /** The review round the run belongs to (0 before any failed review). */
  round: number
  outcome: StageOutcome
  reason: string
  /** `<run id>/<run attempt>` of the job (or `local` for the CLI). */
  run: string
  runUrl?: string
  startedAt: string
  durationMs: number
  /** The committed deliverable or partial. */
  handoffPath?: string
}

/** A stage paused for a person's answer. */
export interface WaitingInput {
  entry: number
  state: string
  profile: string
  kind: StageKind
  attempt: number
  /** The paused run's timestamp: the resumed run writes to the same handoff path. */
  timestamp: string
  question: string
}

/**
 * Everything the pipeline remembers about one issue between jobs. It lives in the issue's
 * status comment (GitHub) or beside the issue file (local), written only by this tool.
 */
export interface IssueRecord {
  v: 1
  /** The state this record last saw the issue enter. */
  state: string | null
  /** Counts entries into a state; a stage runs at most once (plus retries) per entry. */
  entry: number
  /** State moves made so far, for the loop budget. */
  transitions: number
  /** Review rounds spent in the current entry. */
  round: number
  /** A move decided before a review, applied when the review passes. */
  pendingMove?: string
  stages: StageRecord[]
  waiting?: WaitingInput
  /** Set when the pipeline stopped on purpose (budget, escalation); shown in the status. */
  halted?: string
}

export function emptyRecord(): IssueRecord {
  return { v: 1, state: null, entry: 0, transitions: 0, round: 0, stages: [] }
}

/** Most stage records kept; older ones stay in the branch's commit trailers. */
export const MAX_STAGE_RECORDS = 50

/** The record once a job has decided to run a stage for `state`. */
export function recordStart(
  record: IssueRecord,
  state: string,
  plan: { entry: number; newEntry: boolean; reply?: unknown }
): IssueRecord {
  const next = { ...record }
  if (plan.newEntry) {
    Object.assign(next, { state, entry: plan.entry, round: 0 })
    delete next.pendingMove
    delete next.halted
    delete next.waiting
  }
  if (plan.reply) delete next.waiting
  return next
}

/** Adds a finished stage, keeping only the newest MAX_STAGE_RECORDS. */
export function recordStage(record: IssueRecord, stage: StageRecord): IssueRecord {
  return { ...record, stages: [...record.stages, stage].slice(-MAX_STAGE_RECORDS) }
}
