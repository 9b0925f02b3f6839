import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PricedRun } from '../agent/prices.js'
import { findAutomation } from '../config/load.js'
import { sameState } from '../config/lookup.js'
import type { WorkflowConfig } from '../config/types.js'
import { UserError } from '../errors.js'
import { userIdentity } from '../git/identity.js'
import { runTimestamp } from '../handoff/index.js'
import { CommandUnavailableError } from '../pipeline/stage/command-check.js'
import { describe } from '../pipeline/settle/effects.js'
import { runJob, type JobResult } from '../pipeline/job.js'
import { jobSecrets, secretNamesOf } from '../secrets/job-secrets.js'
import type { StageOutcome } from '../pipeline/record/outcome.js'
import type { StageKind } from '../stage-kind.js'
import type { AgentRequests, Next } from '../pipeline/record/next.js'
import type { AutomationEvent, JobSections } from '../pipeline/ports.js'
import { raisedEvent } from '../pipeline/triggers/automation-wakes.js'
import { FAILED } from '../pipeline/triggers/run-failed.js'
import { appendLocalComment } from '../tracker/local.js'
import { LocalPort } from '../tracker/local-port.js'
import { readLocalRecord } from '../tracker/local-record.js'
import { finishInterruptedStage, markStageOver, markStageRunning } from './interrupted-stage.js'
import { recoverIssueFile } from './issue-guard.js'
import { restartHint, restartState, stoppedLocal } from './local-restart.js'
import { baseBranchOf, baseCommit, currentBranch } from './local-branch.js'
import { LocalWorkspace } from './local-workspace.js'
import { rememberCheckout } from './user-checkout.js'

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
  /**
   * The reply is a comment made with --comment: it answers a waiting stage, or else starts the
   * tracker_comment_added automation whose filter admits it.
   */
  comment?: boolean
  /** Start the stopped pipeline again, in `state` or the one it stopped in (local-restart.ts). */
  restart?: { state?: string; by: string }
  /** An automation's event the last stage raised (a failed stage's run_failed). */
  event?: AutomationEvent
  signal?: AbortSignal
  onStageStart?: (stage: LocalStageStart) => void
  onStageEnd?: (stage: LocalStage) => void
  /** Headings for the job's phases in the output. */
  sections?: JobSections
}

export interface LocalStageStart {
  issue: string
  state: string
  profile: string
  kind: StageKind
  attempt: number
  branch: string
}

/** One stage as the local runner ran it, and what the pipeline did next. */
export interface LocalStage extends LocalStageStart {
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
  /** What the run cost and where the figure came from (the CLI, or a price table). */
  cost?: PricedRun
}

/** Why the pipeline is not running a stage (any more). */
interface Idle {
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
 * Runs the stage the local issue's state asks for, through the same job loop as the action
 * (the same plan, prompt, checks, decision and record), and with `untilIdle` every stage after it.
 */
export async function runLocalPipeline(o: LocalPipelineOptions): Promise<LocalPipelineResult> {
  const warnings = recoverIssueFile(o.root, o.issueId)
    ? [`put back .itervox/issues/${o.issueId}.md, which an interrupted run had set aside`]
    : []
  const recovered = await finishInterruptedStage(o.root, o.issueId)
  if (recovered) warnings.push(recovered)
  // The base branch gives every stage's agent its configuration, whichever branch the user
  // ran from (an issue branch's own copy is what the defence is against).
  const trustedCommit = await baseCommit(
    o.root,
    await baseBranchOf(o.root, o.config.workspace.baseBranch)
  )
  const stages: LocalStage[] = []
  let { reply, restart } = o
  for (;;) {
    const step = await runLocalStep({ ...o, reply, restart }, trustedCommit)
    reply = undefined
    restart = undefined
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
    // Nothing wakes a local run: a stage that failed for good runs its run_failed automation
    // now, as the wake-up would on GitHub. It stays stopped; the helper moves nothing.
    if (step.raised?.type === 'run_failed') {
      const helped = await runLocalStep(
        { ...o, reply: undefined, event: step.raised },
        trustedCommit
      )
      if ('stage' in helped) {
        stages.push(helped.stage)
        o.onStageEnd?.(helped.stage)
      } else warnings.push(`run_failed: ${helped.idle.reason}`)
    }
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

type Step =
  | { stage: LocalStage; raised?: AutomationEvent }
  | { idle: Idle; state: string | null; branch: string | null }

async function runLocalStep(o: LocalPipelineOptions, trustedCommit: string): Promise<Step> {
  const { root, config, issueId: id } = o
  const tracker = new LocalPort(root, config)
  const issue = await tracker.getIssue(id)
  const state = issue.state
  const record = readLocalRecord(root, id)
  const restart = o.restart
    ? { state: restartState(config, id, state, record, o.restart.state), by: o.restart.by }
    : undefined
  // A comment's or an event's automation is a helper run: it runs in whatever state the issue is in.
  const helper = (o.comment === true && o.reply !== undefined) || o.event !== undefined
  const stopped = restart || helper ? null : stoppedLocal(config, record, state)
  if (stopped !== null) {
    return idleStep(o, restartHint(config, id, state, record, stopped), state)
  }
  if (!restart && !helper && !findAutomation(config, state)) {
    const end = sameState(state, config.tracker.completionState ?? '')
      ? ': the pipeline is done'
      : ''
    return idleStep(o, `"${state}" starts no automation${end}`, state)
  }
  const waiting = record.waiting
  if (!restart && !o.reply && waiting && sameState(waiting.state, state)) {
    return idleStep(
      o,
      `the ${waiting.profile} stage waits for an answer: run itervox-handoff run --issue ${id} --reply "..."`,
      state,
      waiting.question
    )
  }

  // A person's answer is a comment on the issue, as it would be on GitHub.
  if (o.reply) appendLocalComment(root, id, { author: o.reply.author, body: o.reply.body })
  const startedAt = new Date()
  const workDir = mkdtempSync(join(tmpdir(), `itervox-handoff-${id}-`))
  let start: LocalStageStart | undefined
  // A stage recovered from a commit already on the branch ran no agent, so it has no log.
  let recovered = false
  markStageRunning(root, id, workDir)
  const workspace = new LocalWorkspace({
    root,
    issueId: id,
    baseBranch: config.workspace.baseBranch
  })
  const was = await rememberCheckout(root)
  // Your commits, as git would make them here; the bot's only when git knows no one.
  const author = await userIdentity(root, o.parentEnv, 'author')
  const committer = (await userIdentity(root, o.parentEnv, 'committer')) ?? author
  let r: JobResult
  try {
    r = await runJob({
      author: author ?? undefined,
      committer: committer ?? undefined,
      trigger: {
        source: o.reply ? 'comment' : o.event ? 'event' : 'cli',
        issue: id,
        actor: { login: o.reply?.author ?? 'local', type: 'User' },
        reply: o.reply,
        // Each local comment is a new one: its time names it. An event the runner raised wins.
        event:
          o.event ??
          (helper && o.reply
            ? {
                type: 'tracker_comment_added',
                comment: startedAt.getTime(),
                body: o.reply.body,
                author: o.reply.author
              }
            : undefined),
        restart
      },
      config,
      tracker,
      workspace,
      run: { id: `local-${runTimestamp(startedAt)}`, attempt: '1' },
      workDir,
      workflowPath: o.workflowPath,
      trustedCommit,
      parentEnv: o.parentEnv,
      secrets: jobSecrets(secretNamesOf(config), o.parentEnv),
      signal: o.signal,
      sections: o.sections,
      onStart: (run, landed) => {
        recovered = landed
        const { plan } = run
        const begun = {
          ...{ issue: id, state: run.key.state, profile: plan.profile, kind: plan.kind },
          ...{ attempt: plan.attempt, branch: run.branch.branch }
        }
        start = begun
        o.onStageStart?.(begun)
      }
    })
  } catch (err) {
    // Its agent could not start: the folder is empty, and nothing is left to recover.
    if (err instanceof CommandUnavailableError) {
      rmSync(workDir, { recursive: true, force: true })
      await workspace.dropUnusedBranch(was)
    }
    throw err
  } finally {
    markStageOver(root, id)
  }
  if (!start || !r.next) {
    rmSync(workDir, { recursive: true, force: true })
    // A state edited back by hand is moved on again by what the record still owes (the
    // escalation's move): the issue is stopped, and --restart is the way on.
    const now = r.stateAfter ?? state
    const after = readLocalRecord(root, id)
    const stoppedNow = stoppedLocal(config, after, now)
    const why = stoppedNow === null ? r.reason : restartHint(config, id, now, after, stoppedNow)
    return idleStep(o, why, now)
  }
  if (r.failure) throw new UserError(r.failure)
  const keepLog = r.outcome !== 'succeeded' && !recovered
  if (!keepLog) rmSync(workDir, { recursive: true, force: true })
  const raised = r.plan
    ? raisedEvent({
        ...{ config, kind: r.plan.kind, next: r.next, entry: r.plan.entry },
        failed: FAILED.includes(r.outcome)
      })
    : undefined
  return {
    ...(raised ? { raised } : {}),
    stage: {
      ...start,
      outcome: r.outcome,
      reason: r.reason,
      durationMs: Date.now() - startedAt.getTime(),
      handoffPath: r.handoffPath ?? null,
      commit: r.commit ?? null,
      next: r.next,
      summary: summaryOf(r),
      stateAfter: r.stateAfter ?? state,
      requests: r.requests ?? {},
      refused: r.refused,
      // Which file or comment had a secret kept out of it, and of which kind.
      warnings: [...r.warnings, ...r.withheld.map((w) => `secret withheld: ${w}`)],
      logPath: keepLog ? join(workDir, 'agent.log') : undefined,
      cost: r.cost
    }
  }
}

function summaryOf(r: JobResult): string {
  const notes: string[] = []
  if (r.requests?.comment && r.outcome === 'succeeded') notes.push('commented on the issue')
  if (r.requests?.commentPr) notes.push('comment_pr not posted: a local run has no pull request')
  return [r.summary ?? '', ...notes].filter(Boolean).join('; ')
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

function idleAfter(next: Next): Idle {
  switch (next.kind) {
    case 'wait':
      return { reason: 'the stage waits for an answer', question: next.question }
    case 'escalate':
      return { reason: `escalated: ${next.why}` }
    case 'stop':
      return { reason: next.why }
    case 'move':
    case 'retry':
    case 'review':
    case 'rework':
      return { reason: describe(next) }
  }
}
