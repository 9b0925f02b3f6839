import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { didYouMean } from '../config/did-you-mean.js'
import { findAutomation, knownStates } from '../config/load.js'
import { sameState } from '../config/lookup.js'
import type { AutomationConfig, WorkflowConfig } from '../config/types.js'
import { UserError } from '../errors.js'
import { runTimestamp } from '../handoff/index.js'
import { continuationFor } from '../pipeline/advance.js'
import type { StageOutcome } from '../pipeline/outcome.js'
import { planStage, type PlanInput, type StagePlan } from '../pipeline/plan.js'
import type { IssueRecord, StageKind } from '../pipeline/record.js'
import type { AgentRequests } from '../pipeline/requests.js'
import { pipelineSections } from '../pipeline/sections.js'
import { settleStage } from '../pipeline/settle.js'
import { runStage, type FinalisedStage } from '../pipeline/stage.js'
import type { Next } from '../pipeline/transitions.js'
import { appendLocalComment, readLocalIssue, setLocalIssueState } from '../tracker/local.js'
import { recoverIssueFile, withIssueFileSetAside } from './issue-guard.js'
import { assertCleanWorktree, checkoutIssueBranch, currentBranch } from './local-branch.js'
import { readLocalRun, writeLocalRun, type LocalContinuation } from './local-record.js'

/** Who the local runner signs its own comments on the issue file as. */
const RUNNER_AUTHOR = 'itervox-handoff'

export interface LocalPipelineOptions {
  /** The repository root. */
  root: string
  config: WorkflowConfig
  /** WORKFLOW.md, repository-relative (a stage never commits it). */
  workflowPath: string
  issueId: string
  parentEnv: Record<string, string | undefined>
  /** Follow the pipeline until it stops, waits or escalates. */
  untilIdle: boolean
  /** A person's answer to the question a waiting stage asked. */
  reply?: { body: string; author: string }
  signal?: AbortSignal
  onStageStart?: (stage: StageStart) => void
  onStageEnd?: (stage: LocalStage) => void
}

export interface StageStart {
  issue: string
  state: string
  profile: string
  kind: StageKind
  attempt: number
  branch: string
}

/** One stage as the local runner ran it, and what the pipeline did next. */
export interface LocalStage extends StageStart {
  outcome: StageOutcome
  reason: string
  durationMs: number
  /** The committed deliverable or partial, repository-relative. */
  handoffPath: string | null
  commit: string | null
  next: Next
  /** What the pipeline did after the stage, in words. */
  summary: string
  /** The state the issue is in afterwards. */
  stateAfter: string
  requests: AgentRequests
  /** Paths and requests that were refused, one line each. */
  refused: string[]
  warnings: string[]
  /** The agent's log, kept when the stage did not succeed. */
  logPath?: string
}

/** Why the pipeline is not running a stage (any more). */
export interface Idle {
  reason: string
  /** The question a waiting stage asked. */
  question?: string
}

export interface LocalPipelineResult {
  issue: string
  stages: LocalStage[]
  state: string | null
  branch: string | null
  /** Set when the pipeline has nothing more to run now (unset after a single stage). */
  idle?: Idle
  /** Notices about the run as a whole (stages carry their own). */
  warnings: string[]
}

// Outcomes after which `--until-idle` goes on to the stage the pipeline asks for.
const CONTINUES: ReadonlySet<Next['kind']> = new Set(['move', 'retry', 'review', 'rework'])

/**
 * Runs the stage the local issue's state asks for, as the action would for a GitHub issue (the
 * same plan, prompt, checks and decision), and with `untilIdle` every stage after it.
 */
export async function runLocalPipeline(o: LocalPipelineOptions): Promise<LocalPipelineResult> {
  const warnings = recoverIssueFile(o.root, o.issueId)
    ? [`put back .itervox/issues/${o.issueId}.md, which an interrupted run had set aside`]
    : []
  const stages: LocalStage[] = []
  let reply = o.reply
  for (;;) {
    const step = await runLocalStep({ ...o, reply })
    reply = undefined
    if ('idle' in step) {
      return {
        issue: o.issueId,
        stages,
        state: step.state,
        branch: step.branch,
        idle: step.idle,
        warnings
      }
    }
    stages.push(step.stage)
    o.onStageEnd?.(step.stage)
    const { next } = step.stage
    const going = o.untilIdle && CONTINUES.has(next.kind) && !o.signal?.aborted
    if (!going) {
      return {
        issue: o.issueId,
        stages,
        state: step.stage.stateAfter,
        branch: step.stage.branch,
        ...(CONTINUES.has(next.kind) ? {} : { idle: idleAfter(next) }),
        warnings
      }
    }
  }
}

type Step = { stage: LocalStage } | { idle: Idle; state: string | null; branch: string | null }

async function runLocalStep(o: LocalPipelineOptions): Promise<Step> {
  const { root, config, issueId: id } = o
  let issue = readLocalIssue(root, id)
  const state = checkedState(config, id, issue.state)
  const automation = findAutomation(config, state)
  if (!automation) {
    const end = sameState(state, config.tracker.completionState ?? '')
      ? ': the pipeline is done'
      : ''
    return idleStep(o, `"${state}" starts no automation${end}`, state)
  }
  const run = readLocalRun(root, id)
  const waiting = run.record.waiting
  if (!o.reply && waiting && sameState(waiting.state, state)) {
    return idleStep(
      o,
      `the ${waiting.profile} stage waits for an answer: run itervox-handoff run --issue ${id} --reply "..."`,
      state,
      waiting.question
    )
  }
  if (!config.agent.profiles[automation.profile]?.enabled) {
    return idleStep(o, `profile ${automation.profile} is disabled`, state)
  }

  const startedAt = new Date()
  const runId = `local-${runTimestamp(startedAt)}`
  const plan = planStage({
    config,
    record: run.record,
    state,
    automation,
    trigger: triggerFor(o.reply, run.continuation, state),
    runId,
    chain: 'dispatch'
  })
  if ('skip' in plan) return idleStep(o, plan.skip, state)

  await assertCleanWorktree(root)
  const branch = await checkoutIssueBranch(root, id, config.workspace.baseBranch)
  if (plan.reply) {
    appendLocalComment(root, id, { author: plan.reply.author, body: plan.reply.body })
    issue = readLocalIssue(root, id)
  }
  const profile = config.agent.profiles[plan.profile]!
  const start: StageStart = {
    issue: id,
    state,
    profile: profile.name,
    kind: plan.kind,
    attempt: plan.attempt,
    branch: branch.branch
  }
  o.onStageStart?.(start)

  const workDir = mkdtempSync(join(tmpdir(), `itervox-handoff-${id}-`))
  const timestamp = plan.timestamp ?? runTimestamp(startedAt)
  const staged = await withIssueFileSetAside(root, id, branch.baseSha, () =>
    runStage({
      config,
      profile,
      automation,
      issue,
      attempt: plan.attempt > 0 ? plan.attempt : null,
      repo: root,
      branch: branch.branch,
      baseSha: branch.baseSha,
      created: branch.created,
      runId,
      timestamp,
      workflowPath: o.workflowPath,
      workDir,
      parentEnv: o.parentEnv,
      sections: pipelineSections(plan, profile.allowedActions),
      signal: o.signal
    })
  )
  if (staged.dryRun) throw new Error('a local stage never runs dry')
  const settled = await settle({
    o,
    state,
    plan,
    automation,
    record: run.record,
    result: staged,
    startedAt,
    runId,
    timestamp,
    branch: branch.branch
  })
  const succeeded = staged.outcome === 'succeeded'
  if (succeeded) rmSync(workDir, { recursive: true, force: true })
  return {
    stage: {
      ...start,
      outcome: staged.outcome,
      reason: staged.reason,
      durationMs: Date.now() - startedAt.getTime(),
      handoffPath: staged.handoffPath,
      commit: staged.commit.sha,
      ...settled,
      warnings: staged.warnings,
      ...(succeeded ? {} : { logPath: join(workDir, 'agent.log') })
    }
  }
}

/**
 * After the stage's commit, as the action does after its push: the requests the profile
 * permits, the decision, the record; then the decision carried out on the issue file.
 */
async function settle(s: {
  o: LocalPipelineOptions
  state: string
  plan: StagePlan
  automation: AutomationConfig
  record: IssueRecord
  result: FinalisedStage
  startedAt: Date
  runId: string
  timestamp: string
  branch: string
}): Promise<Pick<LocalStage, 'next' | 'summary' | 'stateAfter' | 'requests' | 'refused'>> {
  const { o, plan, result } = s
  const { root, config, issueId: id } = o
  const { next, record, requests, refused } = await settleStage({
    repo: root,
    config,
    automation: s.automation,
    state: s.state,
    plan,
    record: s.record,
    result,
    commit: result.commit.sha,
    run: s.runId,
    startedAt: s.startedAt,
    timestamp: s.timestamp
  })

  const notes =
    result.outcome === 'succeeded' ? agentComments(root, id, plan.profile, requests) : []
  const stateAfter = act(root, id, next, plan.profile, s.branch) ?? s.state
  writeLocalRun(root, id, { record, continuation: continuationOf(next, record, plan) })
  return { next, summary: [describe(next), ...notes].join('; '), stateAfter, requests, refused }
}

async function idleStep(
  o: LocalPipelineOptions,
  reason: string,
  state: string,
  question?: string
): Promise<Step> {
  // A reply is for a waiting stage; with no stage to resume it is a mistake, not a no-op.
  if (o.reply) throw new UserError(`--reply: ${reason}`)
  return {
    idle: question === undefined ? { reason } : { reason, question },
    state,
    branch: await currentBranch(o.root)
  }
}

function checkedState(config: WorkflowConfig, id: string, state: string | null): string {
  const states = knownStates(config)
  if (!state) {
    throw new UserError(
      `${id} has no state; add "state: ${states[0] ?? 'Todo'}" to the front matter of its issue file`
    )
  }
  const known = states.find((s) => sameState(s, state))
  if (!known) {
    const hint = didYouMean(state, states) || `; the states are ${states.join(', ')}`
    throw new UserError(`${id} is in "${state}", which is not a state of ${config.file}${hint}`)
  }
  return known
}

/** What starts this stage, in the terms the action's planner knows. */
function triggerFor(
  reply: LocalPipelineOptions['reply'],
  continuation: LocalContinuation | undefined,
  state: string
): PlanInput['trigger'] {
  if (reply) return { source: 'comment', actorIsBot: false, reply }
  if (continuation && sameState(continuation.state, state)) {
    return { source: 'repository_dispatch', actorIsBot: false, continuation: continuation.step }
  }
  return { source: 'cli', actorIsBot: false }
}

/** The same-state step the next run takes; a move needs none (the new state's stage starts). */
function continuationOf(
  next: Next,
  record: IssueRecord,
  plan: StagePlan
): LocalContinuation | undefined {
  const payload = continuationFor(next, record, {
    kind: plan.kind,
    profile: plan.profile,
    reviewed: plan.reviewed,
    round: plan.round
  })
  if (!payload || payload.kind === undefined) return undefined
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined)
  const count = (v: unknown) => (typeof v === 'number' ? v : 0)
  const step: LocalContinuation['step'] = {
    entry: count(payload.entry),
    kind: payload.kind === 'review' ? 'review' : 'work',
    attempt: count(payload.attempt),
    round: count(payload.round)
  }
  for (const key of ['profile', 'recheck', 'reviewed'] as const) {
    const value = text(payload[key])
    if (value !== undefined) step[key] = value
  }
  return { state: String(payload.state), step }
}

/** Comments the agent asked for, added to the issue file as its words. */
function agentComments(root: string, id: string, profile: string, r: AgentRequests): string[] {
  const notes: string[] = []
  if (r.comment) {
    appendLocalComment(root, id, { author: `${profile} (agent)`, body: r.comment })
    notes.push('commented on the issue')
  }
  if (r.commentPr) notes.push('comment_pr not posted: a local run has no pull request')
  return notes
}

/** Carries out the decision on the issue file; returns the state the issue moved to, if any. */
function act(
  root: string,
  id: string,
  next: Next,
  profile: string,
  branch: string
): string | undefined {
  switch (next.kind) {
    case 'move':
      setLocalIssueState(root, id, next.to)
      return next.to
    case 'escalate':
      if (next.to) setLocalIssueState(root, id, next.to)
      appendLocalComment(root, id, {
        author: RUNNER_AUTHOR,
        body: `**The itervox pipeline stopped.** ${next.why}. The stages' commits are on branch ${branch}.`
      })
      return next.to
    case 'wait':
      appendLocalComment(root, id, {
        author: `${profile} (agent)`,
        body: `**The ${profile} agent needs input.**\n\n${next.question}\n\nAnswer with: itervox-handoff run --issue ${id} --reply "..."`
      })
      return undefined
    default:
      return undefined
  }
}

function idleAfter(next: Next): Idle {
  switch (next.kind) {
    case 'wait':
      return { reason: 'the stage waits for an answer', question: next.question }
    case 'escalate':
      return { reason: `escalated: ${next.why}` }
    case 'stop':
      return { reason: next.why }
    default:
      return { reason: describe(next) }
  }
}

/** The decision in words, for the progress line. */
function describe(next: Next): string {
  switch (next.kind) {
    case 'move':
      return `moved to "${next.to}" (${next.why})`
    case 'review':
      return `review by ${next.reviewer} next`
    case 'rework':
      return `back to ${next.profile} with the review's findings (round ${next.round})`
    case 'retry':
      return `retry next (attempt ${next.attempt + 1}${next.recheck ? ', with the refusal in the prompt' : ''})`
    case 'escalate':
      return `escalated${next.to ? ` to "${next.to}"` : ''}: ${next.why}`
    case 'wait':
      return 'waiting for an answer'
    case 'stop':
      return `stopped: ${next.why}`
  }
}
