import type { PricedRun } from '../agent/prices.js'
import { AGENT_OUTCOMES, type AgentActivity, type AgentStats } from '../agent/types.js'
import { findAutomation } from '../config/load.js'
import { sameState } from '../config/lookup.js'
import type { ProfileConfig, WorkflowConfig } from '../config/types.js'
import { messageOf } from '../errors.js'
import type { LandedStage, StageKey } from '../git/trailers.js'
import type { Identity } from '../git/commit.js'
import { runTimestamp } from '../handoff/index.js'
import type { Issue } from '../tracker/types.js'
import { carryOut } from './apply.js'
import { decideStage } from './decide.js'
import { describe, effectsOf } from './effects.js'
import { isBot } from './actor.js'
import { hasFlag, withFlag } from './flags.js'
import { approvalOf, asApproval, botApproval } from './approval.js'
import { holdStage, resumed } from './hold.js'
import type { StageOutcome } from './outcome.js'
import { moveScope } from './move-scope.js'
import { noticeMovedMeanwhile } from './moved-meanwhile.js'
import { planStage, type StagePlan } from './plan.js'
import type {
  JobTrigger,
  PreparedBranch,
  Published,
  PullRequestRef,
  QueuedStage,
  Slots,
  StageClaims,
  Tracker,
  Workspace
} from './ports.js'
import { stopOverBudget } from './budget-stop.js'
import { checkBudget, type BudgetCheck } from './cost-budget.js'
import { handoffReason } from './provenance.js'
import { emptyRecord, HALTED_ON_EFFECTS, recordStart, type IssueRecord } from './record.js'
import type { AgentRequests } from './requests.js'
import { pipelineSections } from './sections.js'
import { restartStopped } from './restart.js'
import { settleStage } from './settle.js'
import { loadStageContext, saveStageContext } from './stage-context.js'
import type { PromptFigures } from './stage-prompt.js'
import { cannotRunAs, type Isolation } from '../isolation/sandbox.js'
import { redactNoting, type SecretScanner } from '../secrets/scanner.js'
import {
  commandUnavailable,
  modelKeyUnavailable,
  type CommandUnavailableError
} from './command-check.js'
import { guardedTracker } from './guarded-tracker.js'
import { runStage, type FinalisedStage, type StageInput } from './stage.js'
import type { Next } from './transitions.js'
import { NEEDS_ATTENTION_LABEL } from './names.js'
import { escalateVanished, vanishedState, vanishedWhy } from './vanished-state.js'
import { clip, fenced, oneLine } from './untrusted-text.js'

export interface JobInput {
  trigger: JobTrigger
  config: WorkflowConfig
  tracker: Tracker
  workspace: Workspace
  /** The job's run: `id` is stable across re-runs, `attempt` is not. */
  run: { id: string; attempt: string; url?: string }
  /** A private folder outside the worktree: prompt file, agent log, stage context. */
  workDir: string
  /** Repo-relative WORKFLOW.md, never committed by a stage. */
  workflowPath: string
  /** The commit WORKFLOW.md was read from: the agent gets its agent configuration. */
  trustedCommit: string
  parentEnv: Record<string, string | undefined>
  /** The job's secrets: none reaches a commit, a comment or the record. */
  secrets: SecretScanner
  /** Run the agent as a second Unix user; absent for isolation: none. */
  isolate?: () => Promise<Isolation>
  signal?: AbortSignal
  killGraceMs?: number
  dryRun?: boolean
  /** Who each stage's commit is by, and who made it; the default token's bot when absent. */
  author?: Identity
  committer?: Identity
  onActivity?: (e: AgentActivity) => void
  /** Told once the stage to run is known, before the agent starts. */
  onStart?: (s: JobStart) => void
  /** The stop switch for every issue (the action's `paused` input, from ITERVOX_PAUSED). */
  paused?: boolean
  /** agent.max_concurrent_agents across jobs; absent: no limit (and no request for one). */
  slots?: Slots
  /** Claims each stage's one agent run across jobs; absent where one process runs them all. */
  claims?: StageClaims
  /** The stage runner; tests of the loop pass a stand-in. */
  stage?: (input: StageInput) => ReturnType<typeof runStage>
  log?: (line: string) => void
}

interface JobStart {
  issue: Issue
  state: string
  plan: StagePlan
  branch: string
  recovered: boolean
}

/** How one job ended: everything the action's outputs and the CLI's lines are made from. */
export interface JobResult {
  outcome: StageOutcome
  reason: string
  issue?: Issue
  state?: string
  plan?: StagePlan
  branch?: string
  commit?: string
  handoffPath?: string
  rescuedTo?: string
  pullRequest?: PullRequestRef
  next?: Next
  /** What the pipeline does next, in a sentence. */
  summary?: string
  /** The issue's state once the job is done. */
  stateAfter?: string | null
  record?: IssueRecord
  requests?: AgentRequests
  refused: string[]
  /** Secrets kept from a commit, a comment or the record: where, and which kind. */
  withheld: string[]
  warnings: string[]
  figures?: PromptFigures
  prompt?: string
  agentStats?: AgentStats
  /** What the run cost and where the figure came from (the CLI, or a price table). */
  cost?: PricedRun
  /** The agent's final text (capped; secrets redacted). */
  resultText?: string
  /** The job must fail, whatever the stage's outcome: the pipeline cannot go on by itself. */
  failure?: string
  /** A deliverable that could be pushed nowhere: its text, for the job summary. */
  unsaved?: { path: string; text: string }
  /** Effects an earlier run owed that this job carried out. */
  finishedOwed: number
  durationMs: number
}

// Shown on the issue when a deliverable could not be pushed anywhere; the summary has it all.
const UNSAVED_IN_COMMENT = 3000

/**
 * The one job loop, for every tracker and adapter: trigger → decide → plan → branch → stage →
 * settle → the decision's effects → the record. The record of intent is written before any
 * effect, and every run first finishes what the last one left owed, so no failure after the
 * agent leaves the pipeline stopped without saying so. When the agent's command cannot be run,
 * the stage does not start: the job says so on the issue and throws CommandUnavailableError.
 */
export async function runJob(input: JobInput): Promise<JobResult> {
  const slot = { held: false }
  try {
    return await runHolding(input, slot)
  } finally {
    // Whatever ended the job; a release that fails leaves the slot to the dead-run reclaim.
    if (slot.held) {
      await input.slots?.release().catch((e: unknown) => {
        input.log?.(`could not give the agent slot back: ${oneLine(messageOf(e))}`)
      })
    }
  }
}

async function runHolding(input: JobInput, slot: { held: boolean }): Promise<JobResult> {
  const started = Date.now()
  const withheld: string[] = []
  const j: JobInput = {
    ...input,
    tracker: guardedTracker(input.tracker, input.secrets, (line) => withheld.push(line))
  }
  const result = (r: Partial<JobResult> & Pick<JobResult, 'outcome' | 'reason'>): JobResult => ({
    refused: [],
    warnings: [],
    finishedOwed: 0,
    durationMs: Date.now() - started,
    ...r,
    withheld: [...withheld]
  })

  const authorization = await j.tracker.authorize(j.trigger)
  if (!authorization.allowed) return result({ outcome: 'denied', reason: authorization.reason })

  let issue = await j.tracker.getIssue(j.trigger.issue)
  let record = (await j.tracker.loadRecord(issue)) ?? emptyRecord()
  const owed = await finishOwed(j, issue, record)
  issue = owed.issue
  record = owed.record
  const finishedOwed = owed.performed
  // After what was owed (the move into the failed state among it), or that move would undo this.
  if (j.trigger.restart) {
    const { state: to, by } = j.trigger.restart
    ;({ issue, record } = await restartStopped({
      tracker: j.tracker,
      issue,
      record,
      to,
      by,
      at: new Date()
    }))
  }
  const quietEnd = async (outcome: 'skipped' | 'denied', reason: string) => {
    if (owed.changed) await j.tracker.saveRecord(issue, record)
    const done = finishedOwed ? `; finished ${finishedOwed} step(s) an earlier run owed` : ''
    return result({
      outcome,
      reason: reason + done,
      issue,
      state: issue.state ?? undefined,
      finishedOwed,
      stateAfter: issue.state
    })
  }

  let t = j.trigger
  if (t.resume) {
    const wake = resumed(j.config, t, issue, record)
    if ('skip' in wake) return quietEnd('skipped', wake.skip)
    t = wake
  }
  const answer = await replyOf(j, issue, record)
  if (answer) {
    j.log?.(`${issue.identifier}: ${answer.author}'s reply answers the waiting stage`)
    t = {
      ...t,
      source: 'comment',
      actor: { login: answer.author, type: 'User' },
      reply: { body: answer.body, author: answer.author }
    }
  }
  const approval = approvalOf(t)
  if (approval) {
    const bot = botApproval(t)
    if (bot) return quietEnd('skipped', bot)
    t = asApproval(t)
  }
  const decision = decideStage(j.config, t, issue)
  if ('skip' in decision) {
    const gone = vanishedState(j.config, issue, record)
    if (gone === undefined) return quietEnd('skipped', decision.skip)
    record = await escalateVanished(j.tracker, issue, record, gone, j.config)
    return quietEnd('skipped', `${vanishedWhy(gone)}; the issue says so (${NEEDS_ATTENTION_LABEL})`)
  }
  const { state, automation } = decision
  const planned = planStage({
    config: j.config,
    record,
    state,
    automation,
    trigger: {
      source: t.source,
      actorIsBot: isBot(t.actor.login, t.actor.type),
      ...(t.at ? { at: t.at } : {}),
      ...(t.wake ? { wake: t.wake } : {}),
      ...(t.reply ? { reply: t.reply } : {})
    },
    runId: j.run.id,
    chain: j.tracker.wakes
  })
  if ('skip' in planned) return quietEnd('skipped', planned.skip)
  const held = await holdStage({
    ...{ config: j.config, tracker: j.tracker, issue, record, state, automation },
    ...{ plan: planned, trigger: t, approval, paused: j.paused === true }
  })
  // What the record owed before the gate: a stage that cannot start saves only that (its new
  // entry, and who started it, are planned again when it can).
  const owedBeforeHold = owed.changed
  if (held.changed) owed.changed = true
  record = held.record
  if ('skip' in held) return quietEnd('skipped', held.skip)
  const plan = held.plan

  const where = await j.tracker.branchFor(issue)
  if ('deny' in where) return quietEnd('denied', where.deny)
  const recorded = record.fork ? { fork: record.fork, issue: issue.id } : undefined
  const prepared = await j.workspace.prepare(where.branch, recorded)
  record = { ...record, fork: prepared.forkSha }
  const key: StageKey = {
    issue: issue.id,
    state,
    entry: plan.entry,
    kind: plan.kind,
    profile: plan.profile,
    attempt: plan.attempt,
    round: plan.round,
    resume: plan.resume
  }
  // A dry run only shows the prompt: finishing a landed stage would report (and act on) a
  // deliverable it never wrote.
  const landed = j.dryRun ? null : await j.workspace.findLanded(prepared, key)
  const profile = j.config.agent.profiles[plan.profile]!
  // A stand-in stage (the loop's tests) runs no command.
  if (!landed && !j.dryRun && !j.stage) {
    const unavailable = await checkCommand(j, profile, prepared.repo)
    if (unavailable) {
      // Nothing of the stage happened: no commit, no move, no retry counted. The issue says why.
      if (owedBeforeHold) await j.tracker.saveRecord(issue, owed.record)
      await noticeCannotStart(j, issue, { state, profile: plan.profile }, unavailable.format())
      throw unavailable
    }
  }
  const budget = landed || j.dryRun ? null : await budgetFor(j, prepared, issue, profile, state)
  if (budget && !budget.ok) {
    const halted = await stopOverBudget({
      tracker: j.tracker,
      issue,
      record,
      state,
      plan,
      why: budget.why,
      figures: budget.figures,
      branch: prepared.branch,
      commentKey: `itervox:over-budget:${plan.entry}:${plan.profile}:${plan.attempt}`
    })
    return result({
      outcome: 'skipped',
      reason: `over budget: ${budget.why}`,
      issue,
      state,
      plan,
      branch: prepared.branch,
      finishedOwed,
      next: { kind: 'escalate', why: budget.why },
      summary: `escalated: ${budget.why}`,
      record: halted,
      stateAfter: issue.state
    })
  }
  // The stage was planned but runs no agent in this job: nothing of it is written here.
  const skippedStage = (reason: string) =>
    result({
      outcome: 'skipped',
      reason,
      issue,
      state,
      plan,
      branch: prepared.branch,
      finishedOwed,
      stateAfter: issue.state
    })
  if (j.slots && !landed && !j.dryRun) {
    const wasQueued = hasFlag(issue.labels, QUEUED)
    if (!(await j.slots.claim(issue, queuedStage(t, record, state, plan), wasQueued))) {
      // The wake-up that starts it later names this entry, so the record must hold it.
      if (plan.newEntry || owed.changed) {
        await j.tracker.saveRecord(
          issue,
          recordStart(record, state, { entry: plan.entry, newEntry: plan.newEntry })
        )
      }
      if (!wasQueued) await j.tracker.setFlag(issue, QUEUED, true)
      return skippedStage(
        `${j.slots.describe()}; the ${plan.profile} stage is queued (label ${QUEUED}) and starts when one frees`
      )
    }
    slot.held = true
    if (wasQueued) await j.tracker.setFlag(issue, QUEUED, false)
  }
  // Last before the agent: a job that loses writes nothing, as the holder writes the same.
  const claim = j.claims && !landed && !j.dryRun ? await j.claims.take(key) : { won: true as const }
  if (!claim.won) {
    // A holder the record shows finishing (a question asked, say) left nothing undone; the
    // record is read again, as the holder may have saved it since this job read it.
    const now = claim.ended ? await j.tracker.loadRecord(issue) : record
    const finished = (now ?? record).stages.some(
      (s) => s.run === claim.holder && s.entry === key.entry
    )
    const abandoned = claim.ended && !finished
    if (abandoned) await noticeAbandoned(j, issue, key, claim.holder)
    return skippedStage(
      `run ${claim.holder} holds the ${plan.profile} stage of this entry${abandoned ? ' but ended without finishing it; the issue says so' : ''}; a stage runs once`
    )
  }
  j.onStart?.({ issue, state, plan, branch: prepared.branch, recovered: landed !== null })
  const startedAt = new Date()
  const timestamp = plan.timestamp ?? runTimestamp(startedAt)
  const run = `${j.run.id}/${j.run.attempt}`
  const common = {
    issue,
    state,
    plan,
    branch: prepared.branch,
    finishedOwed
  }

  let stage: FinalisedStage
  let contextPath: string | undefined
  let published: Published | null = null
  let figures: PromptFigures | undefined
  if (landed) {
    j.log?.(
      `${prepared.branch} already holds this stage's commit ${landed.sha.slice(0, 12)}; not running the agent again`
    )
    stage = recoveredStage(landed)
    published = { commit: landed.sha }
  } else {
    const staged = await j.workspace.around(prepared, () =>
      (j.stage ?? runStage)({
        key,
        config: j.config,
        profile,
        automation,
        issue,
        attempt: plan.attempt > 0 ? plan.attempt : null,
        repo: prepared.repo,
        branch: prepared.branch,
        baseSha: prepared.baseSha,
        forkSha: prepared.forkSha,
        trustedCommit: j.trustedCommit,
        created: prepared.created,
        runId: run,
        timestamp,
        workflowPath: j.workflowPath,
        workDir: j.workDir,
        parentEnv: j.parentEnv,
        secrets: j.secrets,
        ...(j.isolate ? { isolate: j.isolate } : {}),
        sections: pipelineSections(
          plan,
          profile.allowedActions,
          moveScope(j.config, state, profile)
        ),
        ...(j.signal ? { signal: j.signal } : {}),
        ...(j.killGraceMs !== undefined ? { killGraceMs: j.killGraceMs } : {}),
        ...(j.onActivity ? { onActivity: j.onActivity } : {}),
        ...(j.dryRun ? { dryRun: true } : {}),
        ...(j.author ? { author: j.author } : {}),
        ...(j.committer ? { committer: j.committer } : {}),
        handoffReason: handoffReason({
          kind: plan.kind,
          attempt: plan.attempt,
          resume: plan.resume,
          escalated: hasFlag(issue.labels, 'needs-attention')
        }),
        ...(j.run.url ? { runUrl: j.run.url } : {}),
        ...(budget?.ok && budget.remainingUsd !== undefined
          ? { maxBudgetUsd: budget.remainingUsd }
          : {})
      })
    )
    figures = staged.figures
    if (staged.dryRun) {
      return result({
        ...common,
        outcome: 'skipped',
        reason: 'dry run: the prompt is below; no agent ran',
        prompt: staged.prompt,
        figures,
        warnings: staged.warnings
      })
    }
    stage = withoutSecrets(staged, j.secrets)
    withheld.push(...stage.withheld)
    if (stage.commit.sha) {
      j.log?.(
        `the stage ended ${stage.outcome}; publishing ${stage.commit.sha.slice(0, 12)} to ${prepared.branch}`
      )
      published = await j.workspace.publish(
        prepared,
        stage.commit.sha,
        `${prepared.branch}-rescue-${j.run.id}-${j.run.attempt}`.replace(/[^A-Za-z0-9/._-]/g, '-')
      )
    }
    contextPath = staged.contextPath
    markPhase(contextPath, 'published')
  }

  const commit = published && 'commit' in published ? published.commit : undefined
  const rescuedTo = published && 'commit' in published ? published.rescuedTo : undefined
  const unpublished = unpublishedReason(published, prepared, plan.profile)
  const unsaved =
    published && 'failed' in published && stage.handoffPath && stage.commit.sha
      ? await unsavedText(j, stage.commit.sha, stage.handoffPath)
      : undefined

  const warnings = [...stage.warnings]
  if (published && 'notice' in published && published.notice) {
    j.log?.(published.notice)
    warnings.push(published.notice)
  }
  let pullRequest: JobResult['pullRequest']
  if (commit && !rescuedTo && !issue.isPullRequest) {
    const pr = await j.tracker.publish(issue, {
      branch: prepared.branch,
      baseBranch: prepared.baseBranch,
      commit,
      created: prepared.created,
      ...(record.pullRequest !== undefined ? { known: record.pullRequest } : {})
    })
    pullRequest = pr.pullRequest
    if (pullRequest && !pullRequest.node && pullRequest.number === record.pullRequest) {
      const node = record.pullRequestNode
      if (node) pullRequest = { ...pullRequest, node }
    }
    if (pr.problem) warnings.push(`no pull request: ${pr.problem}`)
  }

  const settled = await settleStage({
    readCommitted: (c, p, max) => j.workspace.readCommitted(c, p, max),
    config: j.config,
    automation,
    state,
    plan,
    record,
    result: stage,
    commit: commit ?? null,
    run,
    ...(j.run.url ? { runUrl: j.run.url } : {}),
    startedAt,
    timestamp,
    ...(unpublished ? { unpublished } : {}),
    ...(rescuedTo ? { rescuedTo } : {})
  })
  const { next } = settled
  const effects = effectsOf({
    next,
    state,
    entry: settled.record.entry,
    ...(settled.record.continuation?.step ? { step: settled.record.continuation.step } : {}),
    profile: plan.profile,
    run,
    wakes: j.tracker.wakes,
    startsStage: (s) => findAutomation(j.config, s) !== undefined,
    ...(stage.outcome === 'succeeded' && commit && stage.handoffPath && !unpublished
      ? { requests: settled.requests, deliverable: { commit, path: stage.handoffPath } }
      : {}),
    ...(pullRequest ? { pullRequest } : {}),
    ...(j.config.tracker.completionState
      ? { completionState: j.config.tracker.completionState }
      : {}),
    replied: plan.reply !== undefined,
    runLine: j.tracker.runLine(prepared.branch) + unsavedBlock(unsaved),
    replyHint: j.tracker.replyHint(issue)
  })
  const intent: IssueRecord = {
    ...settled.record,
    owed: { run, effects },
    ...(pullRequest ? { pullRequest: pullRequest.number } : {}),
    ...(pullRequest?.node ? { pullRequestNode: pullRequest.node } : {})
  }
  let summary = describe(next)
  const done = {
    ...common,
    outcome: stage.outcome,
    reason: stage.reason,
    ...(commit ? { commit } : {}),
    ...(stage.handoffPath ? { handoffPath: stage.handoffPath } : {}),
    ...(rescuedTo ? { rescuedTo } : {}),
    ...(pullRequest ? { pullRequest } : {}),
    ...(figures ? { figures } : {}),
    ...(stage.agent?.stats ? { agentStats: stage.agent.stats } : {}),
    ...(stage.cost ? { cost: stage.cost } : {}),
    ...(stage.agent?.resultText ? { resultText: stage.agent.resultText } : {}),
    ...(unsaved ? { unsaved } : {}),
    next,
    requests: settled.requests,
    refused: settled.refused,
    warnings
  }

  // Intent before effects: if the record cannot be written, nothing is carried out (a re-run
  // finds the stage's commit and decides again), and the issue says so.
  try {
    await j.tracker.saveRecord(issue, intent)
  } catch (err) {
    const why = oneLine(messageOf(err))
    const notice = await noticeUnrecorded(j, issue, why, prepared.branch)
    markPhase(contextPath, 'done')
    return result({
      ...done,
      summary: `${summary}; not carried out, because the record could not be written`,
      record: settled.record,
      stateAfter: issue.state,
      failure: `the pipeline's record could not be written (${why}); ${notice}re-run the job to continue`
    })
  }

  try {
    const carried = await carryOut({
      tracker: j.tracker,
      workspace: j.workspace,
      issue,
      effects,
      resendWakes: true,
      maxFileBytes: j.config.handoff.maxFileBytes
    })
    if (next.kind === 'move' && carried.state !== next.to) {
      const moved = { profile: plan.profile, entry: plan.entry, to: next.to, now: carried.state }
      summary += await noticeMovedMeanwhile(j.tracker, issue, moved)
    }
    markPhase(contextPath, 'done')
    return result({
      ...done,
      summary,
      record: intent,
      stateAfter: carried.state,
      ...(unpublished ? { failure: unpublished } : {})
    })
  } catch (err) {
    const why = oneLine(messageOf(err))
    const halted = `${HALTED_ON_EFFECTS}${summary}) failed: ${why}`
    // The record still says what is owed; a re-run or the next event carries it out.
    await j.tracker.setFlag(issue, 'needs-attention', true).catch(() => undefined)
    await j.tracker.saveRecord(issue, { ...intent, halted }).catch(() => undefined)
    markPhase(contextPath, 'done')
    return result({
      ...done,
      summary: `${summary}; halted`,
      record: { ...intent, halted },
      stateAfter: issue.state,
      failure: `${halted}; re-run the job to finish it`
    })
  }
}

/**
 * A wake-up for the entry whose stage waits for input, where the tracker sends no comment events:
 * the reply the tracker finds (the reconcile sent the wake-up on seeing it).
 */
async function replyOf(
  j: JobInput,
  issue: Issue,
  record: IssueRecord
): Promise<{ body: string; author: string } | null> {
  const w = record.waiting
  const t = j.trigger
  if (!j.tracker.findReply || t.source !== 'wake' || !w || t.wake?.entry !== w.entry) return null
  if (w.entry !== record.entry || !issue.state || !sameState(w.state, issue.state)) return null
  return j.tracker.findReply(issue, w)
}

/** The cost budget, when WORKFLOW.md sets one: the spend read from the branch's provenance. */
async function budgetFor(
  j: JobInput,
  prepared: PreparedBranch,
  issue: Issue,
  profile: ProfileConfig,
  state: string
): Promise<BudgetCheck | null> {
  if (j.config.agent.maxCostUsd === undefined && profile.maxCostUsd === undefined) return null
  return checkBudget(j.config, profile, state, await j.workspace.provenance(prepared, issue.id))
}

/** The visible mark of an issue whose stage waits for an agent slot. */
const QUEUED = 'itervox-queued'

/** What the wake-up of a queued stage names: the entry, and the owed step it is for. */
function queuedStage(
  t: JobTrigger,
  record: IssueRecord,
  state: string,
  plan: StagePlan
): QueuedStage {
  const c = record.continuation
  const forStep =
    c &&
    c.entry === plan.entry &&
    sameState(c.state, state) &&
    c.kind === plan.kind &&
    c.attempt === plan.attempt
  const step = t.wake?.step ?? (forStep ? c.step : undefined)
  return { state, entry: plan.entry, ...(step !== undefined ? { step } : {}) }
}

/** Carries out what an earlier run's decision still owes; the record afterwards owes nothing. */
async function finishOwed(
  j: JobInput,
  issue: Issue,
  record: IssueRecord
): Promise<{ issue: Issue; record: IssueRecord; performed: number; changed: boolean }> {
  if (!record.owed) return { issue, record, performed: 0, changed: false }
  const carried = await carryOut({
    tracker: j.tracker,
    workspace: j.workspace,
    issue,
    effects: record.owed.effects,
    resendWakes:
      record.owed.run.split('/')[0] === j.run.id ||
      (record.halted?.startsWith(HALTED_ON_EFFECTS) ?? false),
    // The reconcile sends an owed wake-up itself; the job it starts is that wake-up's.
    ...(j.trigger.source === 'wake' && j.trigger.wake && j.trigger.state
      ? { served: { state: j.trigger.state, ...j.trigger.wake } }
      : {}),
    maxFileBytes: j.config.handoff.maxFileBytes
  })
  const after: IssueRecord = { ...record }
  delete after.owed
  const wasHalted = after.halted?.startsWith(HALTED_ON_EFFECTS) ?? false
  if (wasHalted) delete after.halted
  if (carried.performed > 0) {
    j.log?.(`carried out ${carried.performed} step(s) that run ${record.owed.run} owed`)
  }
  let labels = issue.labels
  if (wasHalted && hasFlag(labels, 'needs-attention')) {
    await j.tracker.setFlag(issue, 'needs-attention', false)
    labels = withFlag(labels, 'needs-attention', false)
  }
  return {
    issue: { ...issue, state: carried.state, labels },
    record: after,
    performed: carried.performed,
    changed: carried.performed > 0 || wasHalted
  }
}

/** A stage whose commit an earlier run already landed: judged as that run judged it. */
function recoveredStage(landed: LandedStage): FinalisedStage {
  // A landed commit is an agent run's; its trailer is text anyone could have written.
  const found = AGENT_OUTCOMES.find((o) => o === landed.outcome) ?? 'failed'
  return {
    // A cancelled stage found here is one whose job was killed before it decided anything (its
    // post step saved the partial): the attempt failed, and the retry policy says what follows.
    outcome: found === 'cancelled' ? 'failed' : found,
    reason: landed.reason || `recovered from commit ${landed.sha.slice(0, 12)}`,
    handoffPath: landed.handoffPath,
    commit: {
      sha: landed.sha,
      committed: landed.handoffPath ? [landed.handoffPath] : [],
      dropped: []
    },
    gitDir: null,
    withheld: [],
    warnings: [`recovered from ${landed.sha.slice(0, 12)}, which run ${landed.run} pushed`]
  }
}

/**
 * The agent's own words that travel on (its question goes into a comment and the record, its
 * final text into the log) with every secret redacted, each finding added to `withheld`.
 */
function withoutSecrets(stage: FinalisedStage, secrets: SecretScanner): FinalisedStage {
  const agent = stage.agent
  if (!agent) return stage
  const lines: string[] = []
  const clean = (where: string, text: string | undefined): string | undefined =>
    text === undefined ? undefined : redactNoting(secrets, where, text, (l) => lines.push(l))
  const question = clean("the agent's question", agent.question)
  const resultText = clean("the agent's final text", agent.resultText)
  return {
    ...stage,
    agent: {
      ...agent,
      reason: secrets.redact(agent.reason).text,
      ...(question !== undefined ? { question } : {}),
      ...(resultText !== undefined ? { resultText } : {})
    },
    withheld: [...stage.withheld, ...lines]
  }
}

function unpublishedReason(
  published: Published | null,
  prepared: PreparedBranch,
  profile: string
): string | undefined {
  if (!published) return undefined
  if ('failed' in published) {
    return `the ${profile} stage's work could not be pushed anywhere (${published.failed}); its deliverable is in the job summary`
  }
  if (published.rescuedTo) {
    return `${prepared.branch} refused the push (${published.refusal ?? 'refused'}); the ${profile} stage's work is on branch ${published.rescuedTo}`
  }
  return undefined
}

async function unsavedText(
  j: JobInput,
  commit: string,
  path: string
): Promise<{ path: string; text: string } | undefined> {
  const text = await j.workspace.readCommitted(commit, path, j.config.handoff.maxFileBytes)
  return text === null ? undefined : { path, text }
}

function unsavedBlock(unsaved: { path: string; text: string } | undefined): string {
  if (!unsaved) return ''
  return `\n\n<details><summary>${unsaved.path}</summary>\n\n${fenced(clip(unsaved.text, UNSAVED_IN_COMMENT), '~', 'markdown')}\n\n</details>`
}

/** Tells whoever finishes an interrupted job (the post step) how far this one got. */
function markPhase(contextPath: string | undefined, phase: 'published' | 'done'): void {
  const ctx = contextPath ? loadStageContext(contextPath) : null
  if (contextPath && ctx) saveStageContext(contextPath, { ...ctx, phase })
}

/** Why the profile's agent could not start here (its command, its model key), or null when it can. */
async function checkCommand(
  j: JobInput,
  profile: ProfileConfig,
  cwd: string
): Promise<CommandUnavailableError | null> {
  // An isolated agent's user must be able to run the file: that needs the user.
  const isolation = j.isolate ? await j.isolate() : undefined
  return (
    commandUnavailable({
      profile,
      configFile: j.config.file,
      cwd,
      pathVar: j.parentEnv.PATH,
      ...(isolation ? { cannotRun: (file: string) => cannotRunAs(file, isolation.user.uid) } : {})
    }) ??
    // An isolated agent gets a HOME of its own: a login saved in the user's does not reach it.
    modelKeyUnavailable(
      profile,
      j.config.file,
      j.parentEnv,
      isolation ? undefined : j.parentEnv.HOME
    )
  )
}

async function noticeCannotStart(
  j: JobInput,
  issue: Issue,
  stage: { state: string; profile: string },
  line: string
): Promise<void> {
  const body = [
    `**The ${stage.profile} stage could not start**, so the issue stays in "${oneLine(stage.state)}" and nothing was committed:`,
    fenced(line),
    'Fix that, then start the stage again.',
    j.tracker.runLine(null)
  ]
    .filter(Boolean)
    .join('\n\n')
  await j.tracker
    .comment(issue, { key: `itervox:cannot-start:${j.run.id}.${j.run.attempt}`, body })
    .catch(() => undefined)
}

/** A stage claimed by a run that ended without finishing it: only a person can judge it. */
async function noticeAbandoned(
  j: JobInput,
  issue: Issue,
  key: StageKey,
  holder: string
): Promise<void> {
  const body = `**The ${key.profile} stage was claimed by run ${oneLine(holder)}, which ended without finishing it**, so it was not started again. Re-run that run's job to run the stage.\n\n${j.tracker.runLine(null)}`
  await j.tracker.setFlag(issue, NEEDS_ATTENTION_LABEL, true)
  await j.tracker.comment(issue, {
    key: `itervox:abandoned:${key.entry}-${key.kind}-${key.attempt}-${key.round}-${key.resume}-${key.profile}`,
    body
  })
}

/** Says on the issue that the record could not be written; returns what it managed, as words. */
async function noticeUnrecorded(
  j: JobInput,
  issue: Issue,
  why: string,
  branch: string
): Promise<string> {
  const body = `**The itervox pipeline could not save its record** (${why}), so it did not go on. The stage's work is on \`${branch}\`; re-run the job to continue.\n\n${j.tracker.runLine(branch)}`
  const said = await j.tracker
    .comment(issue, { key: `itervox:unrecorded:${j.run.id}.${j.run.attempt}`, body })
    .then(() => true)
    .catch(() => false)
  const flagged = await j.tracker
    .setFlag(issue, 'needs-attention', true)
    .then(() => true)
    .catch(() => false)
  return said || flagged ? 'the issue says so; ' : ''
}
