import { BUDGET_SPENT } from '../../agent/classify.js'
import { sendsBack } from '../decision/move-scope.js'
import type { Next, StageFacts } from '../record/next.js'
import { afterBlocking, afterFailure } from './recovery.js'
import { chainStep } from '../record/review-chain.js'
import { afterAutomation } from '../triggers/after.js'

/** State moves one issue may make before the pipeline stops, so two stages cannot loop forever. */
export const TRANSITION_BUDGET = 30

/** The deliverable checks failing is a `failed` whose reason starts with this. */
const DELIVERABLE_PROBLEM = 'the deliverable is not acceptable: '

/** Decides the next step of the pipeline from how a stage ended. Pure. */
export function decideNext(f: StageFacts): Next {
  const { config } = f
  const failedState = config.tracker.failedState
  const escalate = (why: string): Next => ({ kind: 'escalate', why, to: failedState })
  const where = f.handoffPath ? `; its work is in ${f.handoffPath}` : ''
  if (f.kind === 'automation') return afterAutomation(f)

  switch (f.outcome) {
    case 'skipped':
    case 'denied':
      return { kind: 'stop', why: f.reason }
    case 'cancelled':
      return {
        kind: 'stop',
        why: `the run was cancelled${where}; move the issue back into its state to run it again`
      }
    case 'input_required':
      return { kind: 'wait', question: f.question ?? 'The agent asked for input.' }
    case 'succeeded':
      return afterSuccess(f, escalate)
    case 'failed':
    case 'stalled':
    case 'timed_out':
    case 'rate_limited':
      return afterFailure(f, escalate, () => {
        if (f.reason.startsWith(DELIVERABLE_PROBLEM)) {
          const problem = f.reason.slice(DELIVERABLE_PROBLEM.length)
          if (!f.recheckSpent) {
            return { kind: 'retry', attempt: f.attempt + 1, why: f.reason, recheck: problem }
          }
          return `the ${f.profile} deliverable failed its checks twice (${problem})${where}`
        }
        // Its budget is spent: a retry would not start (see cost-budget.ts), only its fallback,
        // which has a budget of its own, may.
        if (f.reason.startsWith(BUDGET_SPENT)) {
          return `the ${f.profile} stage stopped at its cost budget (${f.reason.slice(BUDGET_SPENT.length)}); no retry${where}`
        }
        if (f.attempt < config.agent.maxRetries) {
          return { kind: 'retry', attempt: f.attempt + 1, why: `${f.outcome}: ${f.reason}` }
        }
        const runs = f.attempt + 1
        return `${f.profile} ${f.outcome} ${runs} time${runs === 1 ? '' : 's'}, retries spent (last: ${f.reason})${where}`
      })
  }
}

function afterSuccess(f: StageFacts, escalate: (why: string) => Next): Next {
  const { config } = f
  const blocked = afterBlocking(f, escalate)
  if (blocked) return blocked
  const moveTo = f.requests.moveState ?? f.automation.moveToState
  if (f.kind === 'review') {
    if (!f.requests.verdict) {
      if (!f.recheckSpent) {
        return {
          kind: 'retry',
          attempt: f.attempt + 1,
          why: 'the review has no verdict',
          recheck:
            'a review deliverable must start with front matter holding `verdict: PASS` or `verdict: FAIL`'
        }
      }
      return escalate('the reviewer twice gave no verdict')
    }
    const latest = {
      profile: f.profile,
      verdict: f.requests.verdict,
      ...(f.handoffPath ? { handoffPath: f.handoffPath } : {})
    }
    const step = chainStep(config, f.profile, latest, f.verdicts ?? [])
    if (step.kind === 'next') {
      return {
        kind: 'review',
        reviewer: step.reviewer,
        ...(f.pendingMove ? { pendingMove: f.pendingMove } : {})
      }
    }
    if (step.kind === 'pass') {
      const to = f.pendingMove
      return to ? move(f, to, 'the review passed') : { kind: 'stop', why: 'the review passed' }
    }
    if (f.round + 1 >= config.agent.maxReviewRounds) {
      return escalate(
        `the review failed ${f.round + 1} times (agent.max_review_rounds: ${config.agent.maxReviewRounds}; last: ${step.why}); a person needs to look at it, then move the issue into a state to start again`
      )
    }
    return {
      kind: 'rework',
      profile: f.reviewed ?? f.automation.profile,
      round: f.round + 1,
      findings: step.findings ?? f.handoffPath ?? undefined
    }
  }
  const reviewer = config.agent.reviewers[0]
  if (config.agent.autoReview && reviewer && !config.agent.reviewers.includes(f.profile)) {
    return { kind: 'review', reviewer, pendingMove: moveTo }
  }
  if (!moveTo) {
    const done = config.tracker.completionState
    return {
      kind: 'stop',
      why: done ? `the pipeline reached its end` : `no move follows the ${f.profile} stage`
    }
  }
  return move(
    f,
    moveTo,
    f.requests.moveState ? `${f.profile} asked for it` : `automation ${f.automation.id}`
  )
}

/**
 * A move, unless it is spent: a move that sends the work back to a state the issue was already
 * in starts a new review round, and the one that would pass agent.max_review_rounds escalates.
 */
function move(f: StageFacts, to: string, why: string): Next {
  if (!sendsBack(f.config, f.state, to, f.visited)) return budgeted(f, { kind: 'move', to, why })
  const max = f.config.agent.maxReviewRounds
  if (f.round + 1 >= max) {
    const where = f.handoffPath ? `; its reasons are in ${f.handoffPath}` : ''
    return {
      kind: 'escalate',
      why: `${f.profile} sent the work back to "${to}" after ${max} review round${max === 1 ? '' : 's'} (agent.max_review_rounds: ${max})${where}; a person needs to look at it, then move the issue into a state to start again`,
      to: f.config.tracker.failedState
    }
  }
  return budgeted(f, {
    kind: 'move',
    to,
    why: `${why}; review round ${f.round + 2}`,
    round: f.round + 1
  })
}

function budgeted(f: StageFacts, next: Next): Next {
  if (f.transitions + 1 > TRANSITION_BUDGET) {
    return {
      kind: 'escalate',
      why: `the issue has moved ${f.transitions} times; the pipeline stops here so stages cannot loop forever`,
      to: f.config.tracker.failedState
    }
  }
  return next
}
