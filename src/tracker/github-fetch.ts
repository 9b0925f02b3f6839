// The fetch every GitHub API request goes through: it gives up on a request GitHub does not
// answer in time (one hung request once held a stage for 309 s), and it turns a request that got
// no HTTP answer into a NoAnswer that says whether the request may have reached GitHub.
import { Answer, AnswerHeaders, NotConnected, type Fetch, type FetchInit } from './http-fetch.js'

/** The request got no HTTP answer: it timed out, or the connection failed. */
export class NoAnswer extends Error {
  constructor(
    message: string,
    /** False only when the connection was never made, so GitHub cannot have acted on it. */
    readonly sent: boolean
  ) {
    super(message)
    this.name = 'NoAnswer'
  }
}

/** Failures of the connection itself: the request never left this machine. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_CONNECT_TIMEOUT'
])

/** Null-body statuses: fetch gives these no body to read. */
const NO_BODY = new Set([101, 204, 205, 304])

/** What timedFetch can wrap: httpFetch, or a fetch (the runner's proxy fetch). */
export type BaseFetch = (url: string, init: FetchInit) => Promise<Answer | Response>

/**
 * `base` under a timeout for the answer and its body. Its answers are whole: httpFetch's already,
 * and a fetch Response (the runner's proxy fetch) is read here, under the same timeout, since
 * Octokit reads it later and takes a body that broke off halfway for an empty one.
 */
export function timedFetch(base: BaseFetch, timeoutMs: number): Fetch {
  return async (url, init) => {
    const timer = new AbortController()
    const timeout = setTimeout(() => timer.abort(), timeoutMs)
    const signal = init?.signal ? AbortSignal.any([init.signal, timer.signal]) : timer.signal
    try {
      const res = await base(url, { ...init, signal })
      if (res instanceof Answer) return res
      const body = NO_BODY.has(res.status)
        ? new Uint8Array()
        : new Uint8Array(await res.arrayBuffer())
      return new Answer(res.status, res.statusText, res.url, new AnswerHeaders(res.headers), body)
    } catch (e) {
      const connected = !(e instanceof NotConnected)
      if (timer.signal.aborted) {
        const what = connected ? 'answer' : 'connection'
        throw new NoAnswer(`no ${what} within ${formatSeconds(timeoutMs)}`, connected)
      }
      if (init?.signal?.aborted) throw e instanceof NotConnected ? e.cause : e
      const code = errorCode(e)
      throw new NoAnswer(
        describe(code, e),
        connected && (code === undefined || !NOT_SENT.has(code))
      )
    } finally {
      clearTimeout(timeout)
    }
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}

/** The system or undici error code of a failed fetch, found under its `cause`s. */
function errorCode(e: unknown): string | undefined {
  for (let at: unknown = e, depth = 0; at && depth < 4; depth++) {
    const code = (at as { code?: unknown }).code
    if (typeof code === 'string') return code
    at = (at as { cause?: unknown }).cause
  }
  return undefined
}

function describe(code: string | undefined, e: unknown): string {
  switch (code) {
    case 'ECONNRESET':
      return 'the connection was reset (ECONNRESET)'
    case 'UND_ERR_SOCKET':
      return 'the connection closed before GitHub answered'
    case 'ECONNREFUSED':
      return 'the connection was refused (ECONNREFUSED)'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name did not resolve (${code})`
    // No code, or one with no words of its own: what the error says.
    case undefined:
    default: {
      const cause = (e as { cause?: { message?: unknown } }).cause?.message
      const message = typeof cause === 'string' ? cause : (e as Error).message
      return `the request failed: ${message}${code ? ` (${code})` : ''}`
    }
  }
}
