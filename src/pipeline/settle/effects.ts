import { sameState } from '../../config/lookup.js'
import type { Tracker } from '../ports.js'
import type { Effect } from '../record/record.js'
import type { AgentRequests, Next } from '../record/next.js'
import { NEEDS_ATTENTION_LABEL } from '../names.js'
import { cellText, clip, fenced } from '../untrusted-text.js'

/** Everything the effects of a decision are made from. */
export interface EffectInput {
  next: Next
  /** The state the stage ran in. */
  state: string
  /** The entry the decision leaves the record in (a move's target entry). */
  entry: number
  /** The continuation's wake-up name, for same-state steps. */
  step?: string
  profile: string
  run: string
  wakes: Tracker['wakes']
  /** Whether the state moved to starts a stage of its own. */
  startsStage: (state: string) => boolean
  /** The agent's permitted requests, when its deliverable landed at `commit`. */
  requests?: AgentRequests
  deliverable?: { commit: string; path: string }
  pullRequest?: { number: number; node?: string }
  /** The state that completes the pipeline: reaching it readies the pull request. */
  completionState?: string
  /** The stage was resumed by a person's reply. */
  replied: boolean
  /** How comments link to the run or say where the work is. */
  runLine: string
  /** How a person answers the agent's question. */
  replyHint: string
}

/**
 * The decision as data: the tracker effects that carry it out, in order. Each is idempotent,
 * so whoever finds them owed (a re-run, the next stage's job) can carry them out again.
 */
export function effectsOf(o: EffectInput): Effect[] {
  const key = (what: string) =>
    `itervox:${what}:${o.entry}:${o.run.replace(/[^A-Za-z0-9._]/g, '.')}`
  const out: Effect[] = []
  if (o.requests && o.deliverable) {
    const at = { commit: o.deliverable.commit, path: o.deliverable.path, profile: o.profile }
    if (o.requests.comment) out.push({ kind: 'agent-comment', key: key('agent'), ...at })
    if (o.requests.commentPr && o.pullRequest) {
      out.push({
        kind: 'agent-comment',
        key: key('agent-pr'),
        ...at,
        pullRequest: o.pullRequest.number
      })
    }
  }
  if (o.replied) out.push({ kind: 'flag', flag: 'needs-input', on: false })
  const next = o.next
  if (next.kind !== 'escalate') out.push({ kind: 'flag', flag: NEEDS_ATTENTION_LABEL, on: false })
  switch (next.kind) {
    case 'move':
      out.push({ kind: 'move', from: o.state, to: next.to })
      if (o.pullRequest && o.completionState && sameState(next.to, o.completionState)) {
        out.push({
          kind: 'ready',
          state: next.to,
          pullRequest: o.pullRequest.number,
          node: o.pullRequest.node || undefined
        })
      }
      // With chain: label the move's own label event starts the next stage.
      if (o.wakes === 'dispatch' && o.startsStage(next.to)) {
        out.push({ kind: 'wake', state: next.to, entry: o.entry })
      }
      break
    case 'review':
    case 'rework':
    case 'retry':
      // Same-state steps change no label, so they are always woken where anything is.
      if (o.wakes !== 'none') {
        out.push({ kind: 'wake', state: o.state, entry: o.entry, step: o.step || undefined })
      }
      break
    case 'escalate':
      if (next.to) out.push({ kind: 'move', from: o.state, to: next.to })
      else out.push({ kind: 'flag', flag: NEEDS_ATTENTION_LABEL, on: true })
      out.push({
        kind: 'comment',
        key: key('stopped'),
        body: `**The itervox pipeline stopped.** ${cellText(next.why, 2000)}.\n\n${o.runLine}`
      })
      break
    case 'wait':
      out.push({ kind: 'flag', flag: 'needs-input', on: true })
      out.push({
        kind: 'comment',
        key: key('question'),
        body: `**The ${cellText(o.profile, 60)} agent needs input.** ${o.replyHint}\n\n${fenced(clip(next.question, 4000), '~')}\n\n${o.runLine}`
      })
      break
    case 'stop':
      break
  }
  return out
}

/** The decision in words, for logs, the summary, the status and the CLI's progress line. */
export function describe(next: Next): string {
  switch (next.kind) {
    case 'move':
      return `moved to "${next.to}" (${next.why})`
    case 'review':
      return `review by ${next.reviewer} next`
    case 'rework':
      return `back to ${next.profile} with the review's findings (round ${next.round})`
    case 'retry':
      if (next.recovery?.kind === 'fallback') return `fallback ${next.profile ?? ''} next, once`
      return `retry next (attempt ${next.attempt + 1}${next.recheck ? ', with the refusal in the prompt' : ''}${next.recovery ? `, with the ${next.recovery.kind === 'verify' ? 'failed verification' : 'blocking failures'} in the prompt` : ''})`
    case 'escalate':
      return `escalated${next.to ? ` to "${next.to}"` : ''}: ${next.why}`
    case 'wait':
      return 'waiting for an answer'
    case 'stop':
      return `stopped: ${next.why}`
  }
}
