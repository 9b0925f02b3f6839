import { sameState } from '../config/lookup.js'
import type { ProfileConfig } from '../config/types.js'
import type { LandedStage } from '../git/trailers.js'
import { cannotRunAs } from '../isolation/sandbox.js'
import type { Admitted } from './admit.js'
import { stopOverBudget } from './stage/budget-stop.js'
import {
  commandUnavailable,
  modelKeyUnavailable,
  type CommandUnavailableError
} from './stage/command-check.js'
import { checkBudget, type BudgetCheck } from './stage/cost-budget.js'
import { hasFlag } from './decision/flags.js'
import type { Ending, Job, Stop } from './job-values.js'
import { noticeAbandoned, noticeCannotStart } from './notices.js'
import type { QueuedStage } from './ports.js'
import { recordStart, type IssueRecord } from './record/record.js'
import { stageRun, type StageRun } from './stage-run.js'

/** The stage about to run: its run, the record before it, and its commit if one landed. */
export interface Prepared {
  stage: StageRun
  record: IssueRecord
  /** The commit an earlier run of exactly this stage landed: the agent does not run again. */
  landed: LandedStage | null
}

/** The visible mark of an issue whose stage waits for an agent slot. */
const QUEUED = 'itervox-queued'

/**
 * The second phase: the issue branch, a commit an earlier run of this stage landed, whether the
 * agent's command can run, the cost budget, an agent slot, and the claim on the stage, last, so
 * a job that loses it writes nothing.
 */
export async function prepare(job: Job, a: Admitted): Promise<Prepared | Stop> {
  const { issue, plan, state } = a
  const recorded = a.record.fork ? { fork: a.record.fork, issue: issue.id } : undefined
  const branch = await job.workspace.prepare(a.branch, recorded)
  const record = { ...a.record, fork: branch.forkSha }
  let stage = stageRun({ ...job, ...a, branch })
  // A dry run only shows the prompt: finishing a landed stage would report (and act on) a
  // deliverable it never wrote.
  const landed = job.dryRun ? null : await job.workspace.findLanded(branch, stage.key)
  const runsAgent = !landed && !job.dryRun
  // A stand-in stage (the loop's tests) runs no command.
  if (runsAgent && !job.stage) {
    const unavailable = await checkCommand(job, stage.profile, branch.repo)
    if (unavailable) {
      // Nothing of the stage happened: no commit, no move, no retry counted. The issue says why.
      if (a.owedRecord) await job.tracker.saveRecord(issue, a.owedRecord)
      await noticeCannotStart(job, issue, { state, profile: plan.profile }, unavailable.format())
      throw unavailable
    }
  }
  const budget = runsAgent ? await budgetFor(job, stage) : null
  if (budget && !budget.ok) {
    const halted = await stopOverBudget({
      ...{ tracker: job.tracker, issue, record, state, plan, why: budget.why },
      ...{ figures: budget.figures, branch: branch.branch },
      commentKey: `itervox:over-budget:${plan.entry}:${plan.profile}:${plan.attempt}`
    })
    const why = budget.why
    const next = { kind: 'escalate', why } as const
    const end = {
      reason: `over budget: ${why}`,
      next,
      summary: `escalated: ${why}`,
      record: halted
    }
    return { stop: { ...skipped(a, branch.branch, end.reason), ...end } }
  }
  if (budget?.remainingUsd !== undefined) stage = { ...stage, maxBudgetUsd: budget.remainingUsd }
  if (job.slots && runsAgent) {
    const wasQueued = hasFlag(issue.labels, QUEUED)
    if (!(await job.slots.claim(issue, queuedStage(a, record, stage), wasQueued))) {
      // The wake-up that starts it later names this entry, so the record must hold it.
      if (plan.newEntry || a.changed) {
        await job.tracker.saveRecord(
          issue,
          recordStart(record, state, { entry: plan.entry, newEntry: plan.newEntry })
        )
      }
      if (!wasQueued) await job.tracker.setFlag(issue, QUEUED, true)
      const why = `${job.slots.describe()}; the ${plan.profile} stage is queued (label ${QUEUED}) and starts when one frees`
      return { stop: skipped(a, branch.branch, why) }
    }
    job.slotHeld = true
    if (wasQueued) await job.tracker.setFlag(issue, QUEUED, false)
  }
  // Last before the agent: a job that loses writes nothing, as the holder writes the same.
  const claim = job.claims && runsAgent ? await job.claims.take(stage.key) : { won: true as const }
  if (!claim.won) {
    // A holder the record shows finishing (a question asked, say) left nothing undone; the
    // record is read again, as the holder may have saved it since this job read it.
    const now = claim.ended ? await job.tracker.loadRecord(issue) : record
    const finished = (now ?? record).stages.some(
      (s) => s.run === claim.holder && s.entry === stage.key.entry
    )
    const abandoned = claim.ended && !finished
    if (abandoned) await noticeAbandoned(job, issue, stage.key, claim.holder)
    const why = `run ${claim.holder} holds the ${plan.profile} stage of this entry${abandoned ? ' but ended without finishing it; the issue says so' : ''}; a stage runs once`
    return { stop: skipped(a, branch.branch, why) }
  }
  job.onStart?.(stage, landed !== null)
  return { stage, record, landed }
}

/** The stage was planned but runs no agent in this job: nothing of it is written here. */
function skipped(a: Admitted, branch: string, reason: string): Ending {
  const { issue, state, plan } = a
  return { outcome: 'skipped', reason, issue, state, plan, branch, stateAfter: issue.state }
}

/** The cost budget, when WORKFLOW.md sets one: the spend read from the branch's provenance. */
async function budgetFor(job: Job, stage: StageRun): Promise<BudgetCheck | null> {
  const { config } = job
  if (config.agent.maxCostUsd === undefined && stage.profile.maxCostUsd === undefined) return null
  const spent = await job.workspace.provenance(stage.branch, stage.issue.id)
  return checkBudget(config, stage.profile, stage.key.state, spent)
}

/** What the wake-up of a queued stage names: the entry, and the owed step it is for. */
function queuedStage(a: Admitted, record: IssueRecord, stage: StageRun): QueuedStage {
  const { plan } = stage
  const state = stage.key.state
  const c = record.continuation
  const forStep =
    c &&
    c.entry === plan.entry &&
    sameState(c.state, state) &&
    c.kind === plan.kind &&
    c.attempt === plan.attempt
  return { state, entry: plan.entry, step: a.trigger.wake?.step ?? (forStep ? c.step : undefined) }
}

/** Why the profile's agent could not start here (its command, its model key), or null when it can. */
async function checkCommand(
  job: Job,
  profile: ProfileConfig,
  cwd: string
): Promise<CommandUnavailableError | null> {
  // An isolated agent's user must be able to run the file: that needs the user.
  const isolation = job.isolate ? await job.isolate() : undefined
  const uid = isolation?.user.uid
  return (
    commandUnavailable({
      profile,
      configFile: job.config.file,
      cwd,
      pathVar: job.parentEnv.PATH,
      cannotRun: uid === undefined ? undefined : (file: string) => cannotRunAs(file, uid)
    }) ??
    // An isolated agent gets a HOME of its own: a login saved in the user's does not reach it.
    modelKeyUnavailable(
      profile,
      job.config.file,
      job.parentEnv,
      isolation ? undefined : job.parentEnv.HOME
    )
  )
}
