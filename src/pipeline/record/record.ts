import * as z from '../../zod.js'
import { stageOutcomeSchema } from './outcome.js'
import { NEEDS_ATTENTION_LABEL, NEEDS_INPUT_LABEL } from '../names.js'
import { PARSE_ONCE } from '../../parse-once.js'
import { stageKindSchema } from '../../stage-kind.js'

// The record is read back from places anyone with write access can edit (a comment, a file),
// so its shape is defined once, as a schema, and the types are what the schema accepts.

const count = z.int().check(z.minimum(0))

/** Most restarts kept in the record. */
export const MAX_RESTARTS = 20

/**
 * How a run recovers from the run before it in its entry: the fallback profile after another's
 * retries were spent, or the same profile again after its verify commands failed or its
 * deliverable reported blocking failures (recovery.ts decides).
 */
const recoveryKindSchema = z.enum(['fallback', 'verify', 'blocking'])
export type RecoveryKind = z.infer<typeof recoveryKindSchema>

/** A recovery run as the stage record keeps it: which kind, and the profile it took over from. */
const recoveryMarkSchema = z.object({ kind: recoveryKindSchema, from: z.optional(z.string()) })

/** A recovery still to run: its mark and what went wrong, for its prompt (untrusted text). */
const recoverySchema = z.extend(recoveryMarkSchema, {
  detail: z.string().check(z.maxLength(4000)),
  /** The deliverable or partial of the run it recovers from. */
  handoff: z.optional(z.string())
})
export type Recovery = z.infer<typeof recoverySchema>

/** What the profile's verify commands showed: the evidence in the status comment. */
const verifyEvidenceSchema = z.object({
  passed: z.boolean(),
  /** The command that failed, or the last one when all passed. */
  command: z.string().check(z.maxLength(500)),
  /** e.g. `3 commands passed` or `exit code 1`. */
  result: z.string().check(z.maxLength(300)),
  /** Its output's last lines (redacted, clipped). */
  tail: z.string().check(z.maxLength(2000))
})
export type VerifyEvidence = z.infer<typeof verifyEvidenceSchema>

/** What the agent's CLI reported in its last event, under the same names for every CLI. */
const agentStatsSchema = z.object({
  turns: z.optional(count),
  inputTokens: z.optional(count),
  outputTokens: z.optional(count),
  costUsd: z.optional(z.number().check(z.minimum(0)))
})

/** One stage run, as the issue's record keeps it. */
const stageRecordSchema = z.object({
  /** Which entry into `state` this run belongs to (see IssueRecord.entry). */
  entry: count,
  state: z.string(),
  profile: z.string(),
  kind: stageKindSchema,
  /** 0 for the first run of the stage in this entry, then 1, 2, ... */
  attempt: count,
  /** The review round the run belongs to (0 before any failed review). */
  round: z._default(count, 0),
  outcome: stageOutcomeSchema,
  reason: z.string(),
  /** `<run id>/<run attempt>` of the job (or `local-…` for the CLI). */
  run: z.string(),
  runUrl: z.optional(z.string()),
  startedAt: z.string(),
  durationMs: z.number().check(z.minimum(0)),
  /** The committed deliverable or partial. */
  handoffPath: z.optional(z.string()),
  /** The commit holding it, where it landed. */
  commit: z.optional(z.string()),
  /** Set when the issue branch refused the push and the work went to this ref instead. */
  rescuedTo: z.optional(z.string()),
  agent: z.optional(agentStatsSchema),
  /** The agent's requests that were not carried out, one line each saying what to change. */
  refused: z.optional(z.array(z.string()).check(z.maxLength(10))),
  /** Secrets kept out of what the stage left: where, and which kind (never the value). */
  withheld: z.optional(z.array(z.string())),
  /** The deliverable's handoff fields (key_facts, ...), clipped, for the status comment. */
  fields: z.optional(
    z.object({
      keyFacts: z.optional(z.array(z.string()).check(z.maxLength(20))),
      decisions: z.optional(z.array(z.string()).check(z.maxLength(20))),
      openQuestions: z.optional(z.array(z.string()).check(z.maxLength(20))),
      confidence: z.optional(z.number().check(z.minimum(0), z.maximum(1)))
    })
  ),
  /** Set on a recovery run (a recovery handoff in the contract's terms). */
  recovery: z.optional(recoveryMarkSchema),
  verify: z.optional(verifyEvidenceSchema),
  /** A review's verdict, counted by agent.review_quorum with the others of its round. */
  verdict: z.optional(z.enum(['PASS', 'FAIL'])),
  /** An automation's run: which automation, and the event it answered (e.g. `comment-42`). */
  automation: z.optional(
    z.object({ id: z.string().check(z.maxLength(200)), event: z.string().check(z.maxLength(80)) })
  )
})
export type StageRecord = z.infer<typeof stageRecordSchema>

/** A stage paused for a person's answer. */
const waitingSchema = z.object({
  entry: count,
  state: z.string(),
  profile: z.string(),
  kind: stageKindSchema,
  attempt: count,
  /** The paused run's timestamp: the resumed run writes to the same handoff path. */
  timestamp: z.string(),
  question: z.string(),
  /** An input_required automation's answer that resumes the stage (triggers/auto-resume.ts). */
  answer: z.optional(
    z.object({
      automation: z.string().check(z.maxLength(200)),
      profile: z.string(),
      commit: z.string(),
      path: z.string()
    })
  )
})
export type WaitingInput = z.infer<typeof waitingSchema>

/** A person started the stopped pipeline again (see restart.ts). */
const restartSchema = z.object({
  at: z.string(),
  /** The state the issue was in (the failed state, or the escalated stage's own). */
  from: z.nullable(z.string()),
  to: z.string(),
  by: z.string().check(z.maxLength(100)),
  /** What the record said when the pipeline stopped. */
  halted: z.optional(z.string())
})

/**
 * The same-state step the pipeline asked for next (a retry, a review, a rework). A wake-up
 * (repository_dispatch, or the next local `run`) names only the issue and the entry; what runs
 * comes from here, never from the wake-up's payload.
 */
const continuationSchema = z.object({
  state: z.string(),
  entry: count,
  kind: stageKindSchema,
  profile: z.string(),
  attempt: count,
  round: count,
  /** Why the previous attempt's deliverable was refused, written by our own checks. */
  recheck: z.optional(z.string()),
  /** A review's subject. */
  reviewed: z.optional(z.string()),
  /** Names this step's wake-up, so a duplicate of it runs nothing (it carries no instruction). */
  step: z.optional(z.string()),
  recovery: z.optional(recoverySchema)
})
export type Continuation = z.infer<typeof continuationSchema>

/** One effect of a decision on the tracker; each is idempotent and safe to carry out again. */
const effectSchema = z.discriminatedUnion('kind', [
  /** A comment, written at most once per key. */
  z.object({ kind: z.literal('comment'), key: z.string(), body: z.string() }),
  /** A comment the agent asked for, read again from its committed deliverable. */
  z.object({
    kind: z.literal('agent-comment'),
    key: z.string(),
    profile: z.string(),
    commit: z.string(),
    path: z.string(),
    /** Absent: on the issue. */
    pullRequest: z.optional(count)
  }),
  /** A compare-and-set state move: done when the issue is in `to`, void when it left `from`. */
  z.object({ kind: z.literal('move'), from: z.string(), to: z.string() }),
  z.object({
    kind: z.literal('flag'),
    flag: z.enum([NEEDS_ATTENTION_LABEL, NEEDS_INPUT_LABEL]),
    on: z.boolean()
  }),
  /**
   * The pipeline reached its completion state: the pull request leaves draft and says it
   * closes the issue. Done only while the issue is in `state`; doing it twice changes nothing.
   */
  z.object({
    kind: z.literal('ready'),
    state: z.string(),
    pullRequest: count,
    /** The pull request's GraphQL node id, when known (saves a lookup). */
    node: z.optional(z.string())
  }),
  /** Start the stage for `entry` of `state` (a repository_dispatch on GitHub). */
  z.object({
    kind: z.literal('wake'),
    state: z.string(),
    entry: count,
    step: z.optional(z.string())
  })
])
export type Effect = z.infer<typeof effectSchema>

/** What a decision still owes the tracker: written before any effect, finished by any later run. */
const owedSchema = z.object({
  /** The run that decided it. */
  run: z.string(),
  effects: z.array(effectSchema)
})

/**
 * Everything the pipeline remembers about one issue between jobs. It lives in the issue's
 * status comment (GitHub) or beside the issue file (local), written only by this tool.
 */
const issueRecordSchema = z.object({
  v: z.literal(1),
  /** The state this record last saw the issue enter. */
  state: z.nullable(z.string()),
  /** Counts entries into a state; a stage runs at most once (plus retries) per entry. */
  entry: count,
  /** State moves made so far, for the loop budget. */
  transitions: count,
  /**
   * Review rounds spent since a person last moved the issue: each time the work goes back to a
   * state it was in (a FAIL review, a move to an earlier state). Written only by this tool, so
   * neither the agent nor the issue's author can reset it; a person's move does.
   */
  round: count,
  /** The states entered since then, in WORKFLOW.md's spelling: a move back to one is a round. */
  visited: z.optional(z.array(z.string()).check(z.maxLength(100))),
  /** The entry the work was sent back into, and the profile whose deliverable says why. */
  sentBack: z.optional(z.object({ entry: count, by: z.string() })),
  /** A move decided before a review, applied when the review passes. */
  pendingMove: z.optional(z.string()),
  stages: z.array(stageRecordSchema),
  waiting: z.optional(waitingSchema),
  continuation: z.optional(continuationSchema),
  owed: z.optional(owedSchema),
  /** Set when the pipeline stopped on purpose (budget, escalation) or could not go on. */
  halted: z.optional(z.string()),
  /**
   * What halted it, where that is not a stop: `effects`, the decision's effects failed and are
   * owed, and the run that carries them out lifts the halt.
   */
  haltedOn: z.optional(z.literal('effects')),
  /** Restarts of the stopped pipeline, newest last (the trail before each stays on the branch). */
  restarts: z.optional(z.array(restartSchema).check(z.maxLength(MAX_RESTARTS))),
  /** The person whose event started the pipeline (their latest move into a state). */
  startedBy: z.optional(z.string().check(z.maxLength(100))),
  /** The approval gate of an entry: waiting while `by` is unset (see approval.ts). */
  approval: z.optional(
    z.object({
      state: z.string(),
      entry: count,
      by: z.optional(z.string().check(z.maxLength(100))),
      /** Why the last approval given was not accepted. */
      refused: z.optional(z.string().check(z.maxLength(500)))
    })
  ),
  /** Why new stages are held by the stop switch (see pause.ts); unset once one starts. */
  paused: z.optional(z.string().check(z.maxLength(500))),
  /** The pull request whose closing by a person holds new stages (see pause.ts). */
  pausedByClosedPull: z.optional(count),
  /**
   * Where the issue branch left its base, as first seen (and moved on while the branch takes in
   * the base): once a person merges the branch, the trail is read from here (git/merged-work.ts).
   */
  fork: z.optional(z.string().check(z.regex(/^[0-9a-f]{40,64}$/))),
  /** The issue's pull request, once known: saves a lookup. */
  pullRequest: z.optional(count),
  /** Its GraphQL node id, which marking it ready for review needs. */
  pullRequestNode: z.optional(z.string().check(z.maxLength(100)))
})
export type IssueRecord = z.infer<typeof issueRecordSchema>

/** Whether the pipeline halted because its decision's effects failed (they are owed). */
export function haltedOnEffects(record: IssueRecord): boolean {
  return record.halted !== undefined && record.haltedOn === 'effects'
}

/** The record once the decision's effects failed: halted, saying why, and still owing them. */
export function haltOnEffects(record: IssueRecord, why: string): IssueRecord {
  return { ...record, halted: why, haltedOn: 'effects' }
}

/** The record with no halt. */
export function unhalted(record: IssueRecord): IssueRecord {
  const out = { ...record }
  delete out.halted
  delete out.haltedOn
  return out
}

// Records written before 0.2 said a halt on effects only by its sentence's opening words.
const OLD_HALTED_ON_EFFECTS = 'the next step ('

/** The record in `value`, or null when it is not shaped like one. Never throws. */
export function parseRecord(value: unknown): IssueRecord | null {
  const parsed = issueRecordSchema.safeParse(value, PARSE_ONCE)
  if (!parsed.success) return null
  const r = parsed.data
  return r.haltedOn === undefined && r.halted?.startsWith(OLD_HALTED_ON_EFFECTS)
    ? { ...r, haltedOn: 'effects' }
    : r
}

export function emptyRecord(): IssueRecord {
  return { v: 1, state: null, entry: 0, transitions: 0, round: 0, stages: [] }
}

/** Most stage records kept; older ones stay in the branch's commit trailers. */
const MAX_STAGE_RECORDS = 50

/** The record once a job has decided to run a stage for `state`. */
export function recordStart(
  record: IssueRecord,
  state: string,
  plan: { entry: number; newEntry: boolean; reply?: unknown }
): IssueRecord {
  const next = { ...record }
  if (plan.newEntry) {
    // Nothing of ours moved the issue here: a person did, and the review rounds start again.
    Object.assign(next, { state, entry: plan.entry, round: 0, visited: [state] })
    delete next.sentBack
    delete next.pendingMove
    delete next.halted
    delete next.haltedOn
    delete next.waiting
    delete next.continuation
    delete next.approval
    // Who started the earlier entry did not start this one (hold.ts records who did).
    delete next.startedBy
  }
  if (plan.reply) delete next.waiting
  return next
}

/** Adds a finished stage, keeping only the newest MAX_STAGE_RECORDS. */
export function recordStage(record: IssueRecord, stage: StageRecord): IssueRecord {
  return { ...record, stages: [...record.stages, stage].slice(-MAX_STAGE_RECORDS) }
}
