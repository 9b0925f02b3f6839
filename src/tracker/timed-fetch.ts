// The fetch every API request goes through (GitHub's, through Octokit, Linear's and the CLI's):
// it gives up on a request that is not answered in time (one hung request once held a stage for
// 309 s), and it turns a request that got no HTTP answer into a NoAnswer that says whether the
// request may have reached the server.

/** The request got no HTTP answer: it timed out, or the connection failed. */
export class NoAnswer extends Error {
  constructor(
    message: string,
    /** False only when the connection was never made, so the server cannot have acted on it. */
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

/** Null-body statuses: a Response with one of these may have no body. */
const NO_BODY = new Set([204, 205, 304])

/**
 * `base` (Node's fetch, or the runner's proxy-aware one) under a timeout for the answer and its
 * whole body, read here: Octokit reads a body later, and takes one that broke off halfway for
 * an empty one.
 */
export function timedFetch(timeoutMs: number, base: typeof fetch = fetch): typeof fetch {
  return async (url, init) => {
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout
    try {
      const res = await base(url, { ...init, signal })
      const whole = new Response(NO_BODY.has(res.status) ? null : await res.arrayBuffer(), res)
      Object.defineProperty(whole, 'url', { value: res.url })
      return whole
    } catch (e) {
      if (init?.signal?.aborted) throw e
      if (timeout.aborted) throw new NoAnswer(`no answer within ${seconds(timeoutMs)}`, true)
      const code = errorCode(e)
      throw new NoAnswer(describe(code, e), code === undefined || !NOT_SENT.has(code))
    }
  }
}

function seconds(ms: number): string {
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
      return 'the connection closed before the server answered'
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
