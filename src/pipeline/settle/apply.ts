import { sameState } from '../../config/lookup.js'
import type { Issue, Tracker, Workspace } from '../ports.js'
import { hasFlag, withFlag } from '../decision/flags.js'
import type { Effect } from '../record/record.js'
import { readRequests } from '../decision/requests.js'
import { agentMarkdown } from '../untrusted-text.js'

export interface CarryOutInput {
  tracker: Tracker
  workspace: Workspace
  issue: Issue
  effects: readonly Effect[]
  /**
   * Whether owed wake-ups are sent again. A wake-up cannot be seen once sent (its job may be
   * waiting in the queue), so only a re-run of the run that owed it, or a run that knows it
   * failed, sends it again; a duplicate is harmless, a missing one would stop the pipeline.
   */
  resendWakes: boolean
  /** The wake-up that started this job (state, entry, step): this job is its delivery. */
  served?: { state: string; entry: number; step?: string }
  /** The cap on a deliverable re-read for an agent's comment. */
  maxFileBytes: number
}

export interface CarriedOut {
  /** Effects this call performed (the rest were done already or no longer apply). */
  performed: number
  /** The issue's state afterwards, as far as this job knows. */
  state: string | null
}

/**
 * Carries out a decision's effects in order, skipping each one already done: a move whose
 * target the issue is in, a wake-up this job is, a comment whose key exists (the tracker
 * checks), a flag already set. Stops at the first failure, which is thrown.
 */
export async function carryOut(o: CarryOutInput): Promise<CarriedOut> {
  let state = o.issue.state
  let labels = o.issue.labels
  let performed = 0
  const issue = (): Issue => ({ ...o.issue, state, labels })
  for (const e of o.effects) {
    switch (e.kind) {
      case 'move': {
        if (state !== null && sameState(state, e.to)) break
        // Someone moved the issue elsewhere meanwhile: their move stands.
        if (state === null || !sameState(state, e.from)) break
        state = (await o.tracker.moveState(issue(), e.from, e.to)).current
        performed++
        break
      }
      case 'wake': {
        if (!o.resendWakes) break
        if (state === null || !sameState(state, e.state)) break
        const s = o.served
        if (s && sameState(s.state, e.state) && s.entry === e.entry && s.step === e.step) break
        await o.tracker.wake(issue(), { state: e.state, entry: e.entry, step: e.step || undefined })
        performed++
        break
      }
      case 'flag': {
        if (hasFlag(labels, e.flag) === e.on) break
        await o.tracker.setFlag(issue(), e.flag, e.on)
        labels = withFlag(labels, e.flag, e.on)
        performed++
        break
      }
      case 'ready': {
        // A person who moved the issue on meanwhile decides what the pull request is.
        if (state === null || !sameState(state, e.state)) break
        await o.tracker.readyForReview(issue(), {
          number: e.pullRequest,
          node: e.node || undefined
        })
        performed++
        break
      }
      case 'comment':
        await o.tracker.comment(issue(), { key: e.key, body: e.body })
        performed++
        break
      case 'agent-comment': {
        const body = await agentWords(o, e)
        if (body === null) break
        await o.tracker.comment(issue(), {
          key: e.key,
          body,
          agent: e.profile,
          pullRequest: e.pullRequest
        })
        performed++
        break
      }
    }
  }
  return { performed, state }
}

/** The comment the agent asked for, read again from its committed deliverable. */
async function agentWords(
  o: CarryOutInput,
  e: Extract<Effect, { kind: 'agent-comment' }>
): Promise<string | null> {
  const text = await o.workspace.readCommitted(e.commit, e.path, o.maxFileBytes)
  if (text === null) return null
  const { requests } = readRequests(text)
  const words = e.pullRequest === undefined ? requests.comment : requests.commentPr
  return words ? agentMarkdown(words) : null
}
