import { findAutomation, knownStates } from '../config/load.js'
import type { AutomationConfig, WorkflowConfig } from '../config/types.js'
import { continuationFor } from '../pipeline/advance.js'
import type { StagePlan } from '../pipeline/plan.js'
import type { IssueRecord } from '../pipeline/record.js'
import type { AgentRequests } from '../pipeline/requests.js'
import { settleStage } from '../pipeline/settle.js'
import type { FinalisedStage } from '../pipeline/stage.js'
import { pipelineDiagram, renderStatusComment, stageTable } from '../pipeline/status-view.js'
import type { Next } from '../pipeline/transitions.js'
import type { GitHubTracker, LivingComment } from '../tracker/github.js'
import { DISPATCH_TYPE, NEEDS_ATTENTION_LABEL, NEEDS_INPUT_LABEL } from '../pipeline/names.js'
import type { Settings } from './inputs.js'
import { cellText, fenced } from '../pipeline/untrusted-text.js'

/** The first line of the one living status comment per issue. */
export const STATUS_MARKER = 'itervox:status'

export interface Advanced {
  nextState?: string
  summary: string
  status: string
  refused: string[]
}

/**
 * After the stage's work is pushed: carry out what the agent asked for and its profile
 * permits, decide the pipeline's next step, act on it (move, dispatch, escalate, ask), and
 * update the issue's living status comment. The record of this stage is written even when an
 * action fails, so the pipeline never stops without saying why.
 */
export async function advance(o: {
  s: Settings
  tracker: GitHubTracker
  config: WorkflowConfig
  issue: number
  state: string
  automation: AutomationConfig
  plan: StagePlan
  result: FinalisedStage
  commit?: string
  pullRequest?: number
  record: IssueRecord
  living: LivingComment | null
  startedAt: Date
  /** The run's timestamp: a stage that waits for input resumes on the same handoff path. */
  timestamp: string
}): Promise<Advanced> {
  const { s, tracker, config, plan, result } = o
  const { next, record, staged, requests, refused } = await settleStage({
    repo: s.workspace,
    config,
    automation: o.automation,
    state: o.state,
    plan,
    record: o.record,
    result,
    commit: o.commit ?? null,
    run: `${s.runId}/${s.runAttempt}`,
    runUrl: s.runUrl,
    startedAt: o.startedAt,
    timestamp: o.timestamp
  })
  const current = {
    kind: plan.kind,
    profile: plan.profile,
    reviewed: plan.reviewed,
    round: plan.round
  }

  let nextState: string | undefined
  let summary = describe(next)
  let stored = record
  try {
    if (result.outcome === 'succeeded') await agentComments(o, requests)
    if (plan.reply) await tracker.removeLabel(o.issue, NEEDS_INPUT_LABEL)
    const moved = await act(o, next, record, current)
    nextState = moved.nextState
    if (moved.note) summary += `; ${moved.note}`
  } catch (err) {
    // The decision was not carried out: the record keeps the stage, says the pipeline halted,
    // and a person is asked to look; the job then fails with the error.
    stored = { ...staged, halted: `the next step (${summary}) failed: ${(err as Error).message}` }
    await tracker.addLabels(o.issue, [NEEDS_ATTENTION_LABEL]).catch(() => undefined)
    throw err
  } finally {
    const status = renderStatusComment({
      config,
      record: stored,
      issueRef: `#${o.issue}`,
      marker: STATUS_MARKER,
      blobUrl: (path) =>
        `${s.serverUrl}/${s.repository.owner}/${s.repository.repo}/blob/${o.commit ?? 'HEAD'}/${path}`
    })
    // The marker line is added by the tracker.
    await tracker.upsertComment(
      o.issue,
      STATUS_MARKER,
      status.split('\n').slice(1).join('\n'),
      o.living
    )
  }
  const status = `### Pipeline\n\n\`\`\`mermaid\n${pipelineDiagram(config, record.state)}\n\`\`\`\n\n${stageTable(record)}`
  return { nextState, summary, status, refused }
}

async function act(
  o: Parameters<typeof advance>[0],
  next: Next,
  record: IssueRecord,
  current: Parameters<typeof continuationFor>[2]
): Promise<{ nextState?: string; note?: string }> {
  const { s, tracker, config } = o
  const dispatch = async () => {
    const payload = continuationFor(next, record, current)
    if (!payload || s.chain === 'none') return 'chain is none: start the next stage by hand'
    // With chain: label the label event starts the next state's stage; same-state steps
    // (retries, reviews) have no label change, so they are always dispatched.
    if (next.kind === 'move' && s.chain === 'label') return undefined
    if (next.kind === 'move' && !findAutomation(config, next.to)) return undefined
    await tracker.dispatch(DISPATCH_TYPE, { issue: String(o.issue), ...payload })
    return undefined
  }
  switch (next.kind) {
    case 'move': {
      // Dispatch first: if it fails, the label has not moved and a re-run can try again. The
      // dispatched job waits behind this one in the issue's concurrency group, so it finds the
      // label moved.
      const note = await dispatch()
      const moved = await tracker.moveState(o.issue, o.state, next.to, knownStates(config))
      if (!moved.moved && moved.current !== next.to) {
        return { note: `the issue was moved to "${moved.current}" meanwhile; left it there` }
      }
      return { nextState: next.to, note }
    }
    case 'review':
    case 'rework':
    case 'retry':
      return { note: await dispatch() }
    case 'escalate': {
      if (next.to) await tracker.moveState(o.issue, o.state, next.to, knownStates(config))
      else await tracker.addLabels(o.issue, [NEEDS_ATTENTION_LABEL])
      await tracker.comment(
        o.issue,
        `**The itervox pipeline stopped.** ${cellText(next.why, 2000)}.\n\n${runLine(s)}`
      )
      return { nextState: next.to }
    }
    case 'wait': {
      await tracker.addLabels(o.issue, [NEEDS_INPUT_LABEL])
      await tracker.comment(
        o.issue,
        `**The ${o.plan.profile} agent needs input.** Reply in a comment (people with write access only); the stage resumes with your answer.\n\n${fenced(next.question, '~')}\n\n${runLine(s)}`
      )
      return {}
    }
    case 'stop':
      return {}
  }
}

/** Comments the agent asked for, marked as the agent's words. */
async function agentComments(o: Parameters<typeof advance>[0], r: AgentRequests): Promise<void> {
  const who = `**${o.plan.profile} (agent):**\n\n`
  // An agent's words may be Markdown, but may not ping people or teams.
  const quiet = (text: string) => text.replace(/@/g, '@\u2060')
  if (r.comment) await o.tracker.comment(o.issue, who + quiet(r.comment))
  if (r.commentPr && o.pullRequest) {
    await o.tracker.comment(o.pullRequest, who + quiet(r.commentPr))
  }
}

function describe(next: Next): string {
  switch (next.kind) {
    case 'move':
      return `move to "${next.to}" (${next.why})`
    case 'review':
      return `review by ${next.reviewer}`
    case 'rework':
      return `back to ${next.profile} with the review's findings (round ${next.round})`
    case 'retry':
      return `retry, attempt ${next.attempt + 1}${next.recheck ? ' with the refusal in the prompt' : ''}`
    case 'escalate':
      return `escalated: ${next.why}`
    case 'wait':
      return 'waiting for a reply to the agent'
    case 'stop':
      return `stop: ${next.why}`
  }
}

function runLine(s: Settings): string {
  return `[Run ${s.runId}](${s.runUrl})`
}
