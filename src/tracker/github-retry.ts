// Which failed GitHub requests are sent again, and after how long. Rate limits wait as long as
// GitHub asks (within a bound); 5xx answers and requests that got no answer back off
// exponentially, but only when sending again cannot do a write twice.
import { setTimeout as sleep } from 'node:timers/promises'
import { classifyFailure, isHttpFailure, isRepeatable, noteAttempts } from './github-errors.js'

export interface RetryPolicy {
  /** The most retries of one request. */
  retries: number
  /** How long one second of waiting lasts, in ms (tests pass 1). */
  secondMs: number
  /** A rate limit that asks to wait longer than this many seconds fails at once. */
  maxRetryAfter: number
  log: (message: string) => void
}

/** GitHub's advice when a secondary limit names no wait: at least a minute. */
const SECONDARY_FALLBACK_SECONDS = 60

/** An Octokit `request` hook that sends a request again while the policy allows it. */
export function retrying(
  policy: RetryPolicy
): <O, R>(request: (options: O) => R | Promise<R>, options: O) => Promise<R> {
  return async (request, options) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await request(options)
      } catch (e) {
        const wait = waitBeforeRetry(e, attempt, policy)
        if (wait === undefined) {
          noteAttempts(e, attempt)
          throw e
        }
        await sleep(wait * policy.secondMs)
      }
    }
  }
}

/** Seconds to wait before sending the request again; undefined: fail now. */
function waitBeforeRetry(e: unknown, attempt: number, p: RetryPolicy): number | undefined {
  if (!isHttpFailure(e)) return undefined
  const failure = classifyFailure(e)
  if (failure.kind === 'answered') return undefined
  let what: string
  let wait: number
  if (failure.kind === 'rate-limit') {
    what = `GitHub ${failure.what}`
    wait =
      failure.retryAfter ??
      (failure.what === 'secondary rate limit' ? SECONDARY_FALLBACK_SECONDS : backoff(attempt))
  } else {
    // A rate limit refuses a request before GitHub acts on it; a 5xx or a lost answer may come
    // after it acted, so only a request that is safe to repeat is sent again.
    if (!isRepeatable(e) && (failure.kind === 'server' || failure.sent)) return undefined
    what = failure.kind === 'server' ? `GitHub ${e.status}` : 'no answer from GitHub'
    wait = (failure.kind === 'server' ? failure.retryAfter : undefined) ?? backoff(attempt)
  }
  const again = attempt <= p.retries && wait <= p.maxRetryAfter
  const request = e.request as { method?: string; url?: string } | undefined
  p.log(
    `${what} on ${request?.method} ${request?.url}: ` +
      (again ? `retrying in ${round(wait)}s (retry ${attempt} of ${p.retries})` : 'giving up')
  )
  return again ? wait : undefined
}

/** 1, 2, 4… seconds, each shortened by up to half at random so retries do not bunch up. */
function backoff(attempt: number): number {
  return 2 ** (attempt - 1) * (0.5 + Math.random() / 2)
}

function round(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1)
}
