import type { Next, StageFacts } from '../record/next.js'
import { clip } from '../untrusted-text.js'
import { VERIFY_PROBLEM } from '../stage/verify.js'
import { rateLimitSwitch } from '../triggers/rate-limited.js'

// What a recovery's prompt is told of the failure; the record keeps it until the run.
const MAX_DETAIL = 3000

/**
 * What a failed stage does before the pipeline gives up: a run whose verify commands failed
 * runs once more with their output; when `ordinary` (the retries and rechecks) gives up, the
 * profile's fallback runs once. A fallback run is the last: whatever it ends with escalates.
 */
export function afterFailure(
  f: StageFacts,
  escalate: (why: string) => Next,
  ordinary: () => Next | string
): Next {
  const where = f.handoffPath ? `; its work is in ${f.handoffPath}` : ''
  const handoff = f.handoffPath ? { handoff: f.handoffPath } : {}
  if (f.recovery?.kind === 'fallback') {
    return escalate(
      `${f.recovery.from ?? 'a profile'} failed and its fallback ${f.profile} ended ${f.outcome} too (${f.reason})${where}`
    )
  }
  if (f.reason.startsWith(VERIFY_PROBLEM)) {
    const problem = f.reason.slice(VERIFY_PROBLEM.length)
    if ((f.recovered ?? []).includes('verify')) {
      return escalate(`the ${f.profile} work failed its verify commands twice (${problem})${where}`)
    }
    return {
      kind: 'retry',
      attempt: f.attempt + 1,
      why: f.reason,
      recovery: {
        kind: 'verify',
        detail: clip(`${problem}\n\n${f.verifyTail ?? ''}`.trim(), MAX_DETAIL),
        ...handoff
      }
    }
  }
  const spent = (f.recovered ?? []).includes('fallback')
  // A rate_limited automation switches at once: a retry would meet the same limit.
  const switched =
    f.outcome === 'rate_limited' && !spent
      ? rateLimitSwitch(f.config, f.profile, f.state)
      : undefined
  const step = switched ? `${f.profile} was rate limited` : ordinary()
  if (typeof step !== 'string') return step
  const fallback = switched ?? f.config.agent.profiles[f.profile]?.fallbackProfile
  if (!fallback || spent) return escalate(step)
  return {
    kind: 'retry',
    attempt: 0,
    why: `${step}; ${switched ? 'the rate_limited automation switches to' : 'its fallback'} ${fallback}${switched ? '' : ' runs once'}`,
    profile: fallback,
    recovery: {
      kind: 'fallback',
      from: f.profile,
      detail: clip(`${f.outcome}: ${f.reason}`, MAX_DETAIL),
      ...handoff
    }
  }
}

/**
 * A work deliverable that names blocking failures (coordinate-handoffs.txt): the stage runs
 * once more with them in its prompt; named again, the pipeline stops rather than go on past
 * them. Null when there are none.
 */
export function afterBlocking(f: StageFacts, escalate: (why: string) => Next): Next | null {
  if (f.kind !== 'work' || !f.blocking) return null
  const where = f.handoffPath ? ` (${f.handoffPath})` : ''
  if ((f.recovered ?? []).includes('blocking') || f.recovery?.kind === 'fallback') {
    return escalate(
      `the ${f.profile} deliverable${where} still reports blocking failures after a run with them in its prompt; a person needs to look at them`
    )
  }
  return {
    kind: 'retry',
    attempt: f.attempt + 1,
    why: `the ${f.profile} deliverable reports blocking failures`,
    recovery: {
      kind: 'blocking',
      detail: clip(f.blocking, MAX_DETAIL),
      handoff: f.handoffPath || undefined
    }
  }
}
