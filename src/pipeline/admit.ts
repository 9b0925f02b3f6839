import type { AutomationConfig } from '../config/types.js'
import { sameState } from '../config/lookup.js'
import type { Issue, JobTrigger } from './ports.js'
import { isBot } from './decision/actor.js'
import { approvalOf, asApproval, botApproval } from './decision/approval.js'
import { carryOut } from './settle/apply.js'
import { decideStage } from './decision/decide.js'
import { answerOf } from './triggers/auto-resume.js'
import { automationRun } from './triggers/run.js'
import { hasFlag, withFlag } from './decision/flags.js'
import { holdStage, resumed } from './decision/hold.js'
import type { Job, Stop } from './job-values.js'
import { NEEDS_ATTENTION_LABEL } from './names.js'
import { automationPlan, planStage, type StagePlan } from './decision/plan.js'
import { emptyRecord, haltedOnEffects, unhalted, type IssueRecord } from './record/record.js'
import { restartStopped } from './decision/restart.js'
import { escalateVanished, vanishedState, vanishedWhy } from './decision/vanished-state.js'

/** The stage this job may run, on which branch, and the record as admitting left it. */
export interface Admitted {
  issue: Issue
  record: IssueRecord
  /** The trigger as this job understands it (a reply, an approval, a resume). */
  trigger: JobTrigger
  state: string
  automation: AutomationConfig
  plan: StagePlan
  branch: string
  /** The record differs from the one read (owed steps done, an entry started, a hold). */
  changed: boolean
  /**
   * The record after the owed steps, when they changed it: a stage that cannot start saves only
   * that (its new entry, and who started it, are planned again when it can).
   */
  owedRecord: IssueRecord | null
}

/**
 * The first phase: who caused the job, what an earlier run still owes, a reply or approval, the
 * event's decision (which automation runs), the plan, and what may hold it. A job that runs no
 * stage ends here, saving only what it finished.
 */
export async function admit(job: Job): Promise<Admitted | Stop> {
  const { tracker, config } = job
  const authorization = await tracker.authorize(job.trigger)
  if (!authorization.allowed) return { stop: { outcome: 'denied', reason: authorization.reason } }

  let issue = await tracker.getIssue(job.trigger.issue)
  const owed = await finishOwed(job, issue, (await tracker.loadRecord(issue)) ?? emptyRecord())
  issue = owed.issue
  let record = owed.record
  job.finishedOwed = owed.performed
  let changed = owed.changed
  // What the record owed before the gate: a stage that cannot start saves only that.
  const owedRecord = owed.changed ? owed.record : null
  // After what was owed (the move into the failed state among it), or that move would undo this.
  if (job.trigger.restart) {
    const { state: to, by } = job.trigger.restart
    ;({ issue, record } = await restartStopped({ tracker, issue, record, to, by, at: new Date() }))
  }
  const quiet = async (outcome: 'skipped' | 'denied', reason: string): Promise<Stop> => {
    if (changed) await tracker.saveRecord(issue, record)
    const done = job.finishedOwed
      ? `; finished ${job.finishedOwed} step(s) an earlier run owed`
      : ''
    return {
      stop: {
        outcome,
        reason: reason + done,
        issue,
        state: issue.state ?? undefined,
        stateAfter: issue.state
      }
    }
  }

  let t = job.trigger
  if (t.resume) {
    const wake = resumed(config, t, issue, record)
    if ('skip' in wake) return quiet('skipped', wake.skip)
    t = wake
  }
  const answer =
    (await answerOf(
      { trigger: t, workspace: job.workspace },
      issue,
      record,
      config.handoff.maxFileBytes
    )) ?? (await replyOf(job, issue, record))
  if (answer && 'skip' in answer) return quiet('skipped', answer.skip)
  if (answer) {
    job.log?.(`${issue.identifier}: ${answer.author}'s reply answers the waiting stage`)
    t = {
      ...t,
      source: 'comment',
      actor: { login: answer.author, type: 'User' },
      reply: answer
    }
  }
  const approval = approvalOf(t)
  if (approval) {
    const bot = botApproval(t)
    if (bot) return quiet('skipped', bot)
    t = asApproval(t)
  }
  // An automation's event (a comment, a pull request, a failed stage) plans its own run.
  const helper = automationRun(config, t, issue, record, new Date())
  if (helper && 'skip' in helper) return quiet('skipped', helper.skip)
  const decision = helper ?? decideStage(config, t, issue)
  if ('skip' in decision) {
    const gone = vanishedState(config, issue, record)
    if (gone === undefined) return quiet('skipped', decision.skip)
    record = await escalateVanished(tracker, issue, record, gone, config)
    return quiet('skipped', `${vanishedWhy(gone)}; the issue says so (${NEEDS_ATTENTION_LABEL})`)
  }
  const { state, automation } = decision
  const planned = helper
    ? automationPlan(record, helper)
    : planStage({
        config,
        record,
        state,
        automation,
        trigger: { ...t, actorIsBot: isBot(t.actor.login, t.actor.type) },
        runId: job.run.id,
        chain: tracker.wakes
      })
  if ('skip' in planned) return quiet('skipped', planned.skip)
  const held = await holdStage({
    ...{ config, tracker, issue, record, state, automation },
    ...{ plan: planned, trigger: t, approval, paused: job.paused === true }
  })
  changed ||= held.changed
  record = held.record
  if ('skip' in held) return quiet('skipped', held.skip)

  const where = await tracker.branchFor(issue)
  if ('deny' in where) return quiet('denied', where.deny)
  return {
    issue,
    record,
    trigger: t,
    state,
    automation,
    plan: held.plan,
    branch: where.branch,
    changed,
    owedRecord
  }
}

/**
 * A wake-up for the entry whose stage waits for input, where the tracker sends no comment events:
 * the reply the tracker finds (the reconcile sent the wake-up on seeing it).
 */
async function replyOf(
  job: Job,
  issue: Issue,
  record: IssueRecord
): Promise<{ body: string; author: string } | null> {
  const w = record.waiting
  const t = job.trigger
  if (!job.tracker.findReply || t.source !== 'wake' || !w || t.wake?.entry !== w.entry) return null
  if (w.entry !== record.entry || !issue.state || !sameState(w.state, issue.state)) return null
  return job.tracker.findReply(issue, w)
}

/** Carries out what an earlier run's decision still owes; the record afterwards owes nothing. */
async function finishOwed(
  job: Job,
  issue: Issue,
  record: IssueRecord
): Promise<{ issue: Issue; record: IssueRecord; performed: number; changed: boolean }> {
  if (!record.owed) return { issue, record, performed: 0, changed: false }
  const t = job.trigger
  const wasHalted = haltedOnEffects(record)
  const carried = await carryOut({
    tracker: job.tracker,
    workspace: job.workspace,
    issue,
    effects: record.owed.effects,
    resendWakes: record.owed.run.split('/')[0] === job.run.id || wasHalted,
    // The reconcile sends an owed wake-up itself; the job it starts is that wake-up's.
    served: t.source === 'wake' && t.wake && t.state ? { state: t.state, ...t.wake } : undefined,
    maxFileBytes: job.config.handoff.maxFileBytes
  })
  const after: IssueRecord = wasHalted ? unhalted(record) : { ...record }
  delete after.owed
  if (carried.performed > 0) {
    job.log?.(`carried out ${carried.performed} step(s) that run ${record.owed.run} owed`)
  }
  let labels = issue.labels
  if (wasHalted && hasFlag(labels, NEEDS_ATTENTION_LABEL)) {
    await job.tracker.setFlag(issue, NEEDS_ATTENTION_LABEL, false)
    labels = withFlag(labels, NEEDS_ATTENTION_LABEL, false)
  }
  return {
    issue: { ...issue, state: carried.state, labels },
    record: after,
    performed: carried.performed,
    changed: carried.performed > 0 || wasHalted
  }
}
