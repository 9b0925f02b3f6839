import { findAutomation, knownStates } from '../config/load.js'
import type { AutomationConfig, WorkflowConfig } from '../config/types.js'
import { GitObjects } from '../git/objects.js'
import { continuationFor, recordAfter } from '../pipeline/advance.js'
import type { StagePlan } from '../pipeline/plan.js'
import { recordStage, recordStart, type IssueRecord } from '../pipeline/record.js'
import { permittedRequests, readRequests, type AgentRequests } from '../pipeline/requests.js'
import type { FinalisedStage } from '../pipeline/stage.js'
import { pipelineDiagram, renderStatusComment, stageTable } from '../pipeline/status-view.js'
import { decideNext, type Next } from '../pipeline/transitions.js'
import type { GitHubTracker, LivingComment } from '../tracker/github.js'
import { DISPATCH_TYPE } from './event.js'
import type { Settings } from './inputs.js'

/** The first line of the one living status comment per issue. */
export const STATUS_MARKER = 'itervox:status'
export const NEEDS_INPUT_LABEL = 'needs-input'
export const NEEDS_ATTENTION_LABEL = 'needs-attention'

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
  const refused: string[] = []
  const profile = config.agent.profiles[plan.profile]!

  let requests: AgentRequests = {}
  if (result.outcome === 'succeeded' && result.handoffPath && o.commit) {
    const text = await readCommitted(
      s.workspace,
      o.commit,
      result.handoffPath,
      config.handoff.maxFileBytes
    )
    const read = readRequests(text ?? '')
    const allowed = permittedRequests(read.requests, profile.allowedActions, knownStates(config))
    requests = allowed.permitted
    refused.push(...[...read.problems, ...allowed.refused].map((r) => `request refused: ${r}`))
  }

  const next = decideNext({
    config,
    automation: o.automation,
    kind: plan.kind,
    profile: plan.profile,
    outcome: result.outcome,
    reason: result.reason,
    attempt: plan.attempt,
    recheckSpent: Boolean(plan.recheck),
    round: plan.round,
    transitions: o.record.transitions,
    requests,
    pendingMove: o.record.pendingMove,
    reviewed: plan.reviewed,
    question: result.agent?.question,
    handoffPath: result.handoffPath
  })

  let record = recordStage(recordStart(o.record, o.state, plan), {
    entry: plan.entry,
    state: o.state,
    profile: plan.profile,
    kind: plan.kind,
    attempt: plan.attempt,
    round: plan.round,
    outcome: result.outcome,
    reason: result.reason.slice(0, 300),
    run: `${s.runId}/${s.runAttempt}`,
    runUrl: s.runUrl,
    startedAt: o.startedAt.toISOString(),
    durationMs: Date.now() - o.startedAt.getTime(),
    handoffPath: result.handoffPath ?? undefined
  })
  const current = {
    kind: plan.kind,
    profile: plan.profile,
    reviewed: plan.reviewed,
    round: plan.round
  }
  record = recordAfter(record, next, {
    entry: plan.entry,
    state: o.state,
    profile: plan.profile,
    kind: plan.kind,
    attempt: plan.attempt,
    timestamp: o.timestamp
  })

  let nextState: string | undefined
  let summary = describe(next)
  try {
    if (result.outcome === 'succeeded') await agentComments(o, requests)
    if (plan.reply) await tracker.removeLabel(o.issue, NEEDS_INPUT_LABEL)
    const moved = await act(o, next, record, current)
    nextState = moved.nextState
    if (moved.note) summary += `; ${moved.note}`
  } finally {
    const status = renderStatusComment({
      config,
      record,
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
      const moved = await tracker.moveState(o.issue, o.state, next.to, knownStates(config))
      if (!moved.moved && moved.current !== next.to) {
        return { note: `the issue was moved to "${moved.current}" meanwhile; left it there` }
      }
      return { nextState: next.to, note: await dispatch() }
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
        `**The itervox pipeline stopped.** ${next.why}.\n\n${runLine(s)}`
      )
      return { nextState: next.to }
    }
    case 'wait': {
      await tracker.addLabels(o.issue, [NEEDS_INPUT_LABEL])
      const fence = '~'.repeat(Math.max(4, longestTildes(next.question) + 1))
      await tracker.comment(
        o.issue,
        `**The ${o.plan.profile} agent needs input.** Reply in a comment (people with write access only); the stage resumes with your answer.\n\n${fence}text\n${next.question}\n${fence}\n\n${runLine(s)}`
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
  if (r.comment) await o.tracker.comment(o.issue, who + r.comment)
  if (r.commentPr && o.pullRequest) await o.tracker.comment(o.pullRequest, who + r.commentPr)
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

function longestTildes(text: string): number {
  return Math.max(0, ...[...text.matchAll(/~+/g)].map((m) => m[0].length))
}

async function readCommitted(
  repo: string,
  commit: string,
  path: string,
  maxBytes: number
): Promise<string | null> {
  const objects = new GitObjects(repo)
  try {
    const slash = path.lastIndexOf('/')
    const listing = await objects.listTree(commit, path.slice(0, slash))
    const entry = listing.entries.find((e) => e.name === path.slice(slash + 1))
    // Only a regular file within the cap: the deliverable checks passed on exactly that.
    if (!entry || (entry.mode !== '100644' && entry.mode !== '100755')) return null
    const size = (await objects.blobSizes([entry.oid])).get(entry.oid)
    if (size === undefined || size > maxBytes) return null
    const blob = (await objects.readBlobs([entry.oid])).get(entry.oid)
    return blob ? blob.toString('utf8') : null
  } finally {
    await objects.close()
  }
}
