// What a failed GitHub API call was, and the one-line error it becomes. A wrong token or a
// missing workflow permission is the user's to fix (UserError); GitHub being down, GitHub's rate
// limits outlasting the retries, and a write whose answer was lost each have their own class, so
// callers can tell them apart (`faultKind`); anything else is a plain GitHubApiError.
import { UserError } from '../errors.js'
import { clip } from '../pipeline/untrusted-text.js'
import { NoAnswer } from './timed-fetch.js'

/** What a GitHub failure means for the caller; see the error classes below. */
export type FaultKind = 'user' | 'unavailable' | 'answer-lost' | 'rate-limited' | 'api' | 'internal'

/** A GitHub API call failed for a reason the user did not cause. */
export class GitHubApiError extends Error {
  readonly kind: FaultKind = 'api'
  constructor(
    message: string,
    /** The HTTP status GitHub answered; 0 when no answer came. */
    readonly status: number
  ) {
    super(message)
    this.name = 'GitHubApiError'
  }
}

/**
 * GitHub did not serve the request: 5xx answers, timeouts or failed connections, for as long as
 * the retries lasted. Nothing was done; trying later is the remedy.
 */
export class GitHubUnavailableError extends GitHubApiError {
  override readonly kind: FaultKind = 'unavailable'
  constructor(message: string, status: number) {
    super(message, status)
    this.name = 'GitHubUnavailableError'
  }
}

/**
 * A write (POST) whose answer was lost: it timed out or its connection broke after it was sent,
 * or GitHub answered 5xx, which it has been seen to do after applying the write. It may have
 * been done; sending it again blindly could do it twice (two comments, two dispatches), so the
 * caller checks first.
 */
export class GitHubAnswerLostError extends GitHubUnavailableError {
  override readonly kind: FaultKind = 'answer-lost'
  constructor(message: string, status: number) {
    super(message, status)
    this.name = 'GitHubAnswerLostError'
  }
}

/** GitHub's rate limits outlasted the retries, or asked for a longer wait than allowed. */
export class GitHubRateLimitedError extends GitHubApiError {
  override readonly kind: FaultKind = 'rate-limited'
  constructor(
    message: string,
    status: number,
    /** How long GitHub asked to wait, when it said. */
    readonly retryAfterSeconds?: number
  ) {
    super(message, status)
    this.name = 'GitHubRateLimitedError'
  }
}

/** What an Octokit request error carries; matched by shape so no Octokit type leaks out. */
export interface HttpFailure {
  status: number
  message: string
  response?: { data?: unknown; headers?: Record<string, unknown> }
  request?: { method?: string; request?: { idempotent?: unknown } }
  cause?: unknown
}

/**
 * GitHub answered with a redirect, which the client never follows: what the request named has
 * moved (an issue transferred to another repository, a repository renamed), and whatever the
 * redirect points at is not what was asked for.
 */
export class RedirectedError extends Error {
  override name = 'RedirectedError'
  constructor(
    readonly status: number,
    /** Where GitHub says it is now; empty when it did not say. */
    readonly location: string,
    readonly request: { method?: string }
  ) {
    super(`GitHub answered ${status}, a redirect${location ? ` to ${location}` : ''}`)
  }
}

export function isHttpFailure(e: unknown): e is HttpFailure {
  return e instanceof Error && typeof (e as { status?: unknown }).status === 'number'
}

/** How a failed request failed, as far as retrying it goes. */
export type Failure =
  /** A rate limit; `retryAfter` (seconds) when GitHub said how long to wait. */
  | { kind: 'rate-limit'; what: string; retryAfter?: number }
  | { kind: 'server'; retryAfter?: number }
  | { kind: 'no-answer'; sent: boolean; why: string }
  /** Any other answer: retrying it would get the same. */
  | { kind: 'answered' }

const SECONDARY_LIMIT = /secondary rate limit|abuse detection mechanism/i

export function classifyFailure(e: HttpFailure): Failure {
  const noAnswer = e instanceof NoAnswer ? e : e.cause instanceof NoAnswer ? e.cause : undefined
  if (noAnswer) return { kind: 'no-answer', sent: noAnswer.sent, why: noAnswer.message }
  const headers = e.response?.headers ?? {}
  const header = (name: string): number | undefined => {
    const value = headers[name]
    const n = typeof value === 'number' ? value : Number(value)
    return value === undefined || value === '' || !Number.isFinite(n) ? undefined : n
  }
  const retryAfter = header('retry-after')
  if (e.status === 403 || e.status === 429) {
    // The legacy "abuse detection" 403 is a secondary limit under its old name.
    if (SECONDARY_LIMIT.test(apiMessage(e))) {
      return { kind: 'rate-limit', what: 'secondary rate limit', retryAfter }
    }
    if (header('x-ratelimit-remaining') === 0) {
      const reset = header('x-ratelimit-reset')
      // GitHub's advice: retry only after the reset time, so one second past it.
      const wait = reset === undefined ? undefined : Math.max(reset - Date.now() / 1000, 0) + 1
      return { kind: 'rate-limit', what: 'rate limit', retryAfter: wait && Math.ceil(wait) }
    }
    if (e.status === 429) return { kind: 'rate-limit', what: 'too many requests', retryAfter }
  }
  if (e.status >= 500 && e.status <= 599) return { kind: 'server', retryAfter }
  return { kind: 'answered' }
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE'])

/**
 * Whether sending the request twice does no more than sending it once: every method but POST,
 * and a POST the caller marked `request: { idempotent: true }`.
 */
export function isRepeatable(e: HttpFailure): boolean {
  const method = (e.request?.method ?? 'GET').toUpperCase()
  return IDEMPOTENT.has(method) || e.request?.request?.idempotent === true
}

const attempts = new WeakMap<object, number>()

/** Records how many times the request was sent before it failed for good. */
export function noteAttempts(e: unknown, n: number): void {
  if (typeof e === 'object' && e !== null) attempts.set(e, n)
}

/** GitHub's own message (without the documentation link Octokit appends), on one line. */
export function apiMessage(e: HttpFailure): string {
  const data = e.response?.data as { message?: unknown; errors?: unknown[] } | string | undefined
  if (typeof data === 'string' && data.trim()) return shortLine(data.replace(/<[^>]*>/g, ' '))
  const body = typeof data === 'object' ? data : undefined
  const base = typeof body?.message === 'string' ? body.message : e.message
  const details = (body?.errors ?? [])
    .map((x) =>
      typeof x === 'string'
        ? x
        : ((x as { message?: string; code?: string }).message ?? (x as { code?: string }).code)
    )
    .filter((x): x is string => typeof x === 'string')
  return shortLine([base, ...details].join(': '))
}

/** One line, short enough to read: an HTML error page must not become the message. */
function shortLine(text: string): string {
  return clip(text.replace(/\s+/g, ' ').trim(), 300)
}

/**
 * The error a failed call becomes, in one line.
 * @param doing what was being done, e.g. `create a pull request for itervox/42`
 * @param permission the job permission that allows it, e.g. `pull-requests: write`
 */
export function explainFailure(e: unknown, doing: string, permission: string): Error {
  if (e instanceof GitHubApiError || e instanceof UserError) return e
  if (e instanceof RedirectedError) {
    return new UserError(
      `GitHub redirects the request to ${doing} (${e.status}${e.location ? ` to ${clip(e.location, 120)}` : ''}): it moved, as a transferred issue or a renamed repository does; nothing was done there`
    )
  }
  if (!isHttpFailure(e)) return e instanceof Error ? e : new Error(String(e))
  const failure = classifyFailure(e)
  const tries = attempts.get(e) ?? 1
  const gaveUp = tries > 1 ? ` (gave up after ${tries} attempts)` : ''
  const answer = failure.kind === 'no-answer' ? failure.why : `${e.status} ${apiMessage(e)}`
  const status = failure.kind === 'no-answer' ? 0 : e.status

  if (failure.kind === 'rate-limit') {
    const asked =
      failure.retryAfter === undefined ? '' : `; it asks to wait ${failure.retryAfter} s`
    return new GitHubRateLimitedError(
      `GitHub is rate limiting this token: ${doing}: ${answer}${asked}${gaveUp}`,
      status,
      failure.retryAfter
    )
  }
  if (failure.kind === 'server' || failure.kind === 'no-answer') {
    if (!isRepeatable(e) && (failure.kind === 'server' || failure.sent)) {
      const why =
        failure.kind === 'server' ? 'GitHub can answer so after doing it' : 'the answer was lost'
      return new GitHubAnswerLostError(
        `GitHub is unavailable: ${doing}: ${answer}; ${why}, so it may have been done`,
        status
      )
    }
    return new GitHubUnavailableError(`GitHub is unavailable: ${doing}: ${answer}${gaveUp}`, status)
  }
  const message = apiMessage(e)
  if (e.status === 401) {
    return new UserError(
      `GitHub rejected the token (401 ${message}) when trying to ${doing}; check the github-token input`
    )
  }
  if (e.status === 403 && /resource not accessible by/i.test(message)) {
    return new UserError(
      `the token may not ${doing} (403 ${message}); give the job \`permissions: ${permission}\``
    )
  }
  if (e.status === 403 && /not permitted to create or approve pull requests/i.test(message)) {
    return new UserError(
      `GitHub Actions may not ${doing} (403 ${message}); enable "Allow GitHub Actions to create and ` +
        'approve pull requests" in the repository or organization settings, or use an App token'
    )
  }
  return new GitHubApiError(`GitHub API failed to ${doing}: ${answer}`, status)
}

/** What kind of failure `err` is, for callers that act on it (retry later, check, report). */
export function faultKind(err: unknown): FaultKind {
  if (err instanceof GitHubApiError) return err.kind
  if (err instanceof UserError) return 'user'
  if (isHttpFailure(err)) return faultKind(explainFailure(err, 'call GitHub', 'none'))
  return 'internal'
}
