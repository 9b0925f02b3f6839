// The one Octokit the GitHub adapter uses: @actions/github's client (runner proxy, user agent),
// with a timeout on every request, the retries github-retry.ts allows, writes sent one at a
// time, and a count of every HTTP request it sends.
import { getOctokit } from '@actions/github'
import { defaults } from '@actions/github/lib/utils'
import { timedFetch } from './github-fetch.js'
import { retrying } from './github-retry.js'

export type Octokit = ReturnType<typeof getOctokit>

export interface GitHubClientOptions {
  token: string
  /** The REST API root, e.g. `https://api.github.com` or `GITHUB_API_URL`. */
  apiUrl: string
  userAgent?: string
  /** Retry rate limits, 5xx answers and requests that got no answer. Default true. */
  retry?: boolean
  /** The most retries of one request. Default 3. */
  retries?: number
  /** How long one second of waiting (backoff, `retry-after`) lasts, in ms. Default 1000; tests pass 1. */
  secondMs?: number
  /** A rate limit that asks to wait longer than this many seconds fails instead. Default 60. */
  maxRetryAfter?: number
  /** How long one request (answer and body) may take, in ms. Default 30000. */
  timeoutMs?: number
  /** Told about each retry, e.g. `core.info`. */
  log?: (message: string) => void
}

export interface GitHubClient {
  octokit: Octokit
  /** HTTP requests sent so far, retries included. */
  requests(): number
}

const DEFAULT_TIMEOUT_MS = 30_000

export function createGitHubClient(opts: GitHubClientOptions): GitHubClient {
  let sent = 0
  const baseFetch = defaults.request?.fetch ?? globalThis.fetch
  const fetchOnce = timedFetch(baseFetch, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  const countingFetch: typeof fetch = (input, init) => {
    sent++
    return fetchOnce(input, init)
  }

  const octokit = getOctokit(opts.token, {
    baseUrl: opts.apiUrl.replace(/\/+$/, ''),
    userAgent: opts.userAgent ?? 'itervox-handoff-action',
    request: { ...defaults.request, fetch: countingFetch }
  })
  const send = retrying({
    retries: (opts.retry ?? true) ? (opts.retries ?? 3) : 0,
    secondMs: opts.secondMs ?? 1000,
    maxRetryAfter: opts.maxRetryAfter ?? 60,
    log: opts.log ?? (() => undefined)
  })
  // GitHub asks for writes from one token to be made one at a time (its secondary limits);
  // a write waits for the one before it, retries included, but not for any fixed spacing.
  let writes: Promise<unknown> = Promise.resolve()
  octokit.hook.wrap('request', (request, options) => {
    if (options.method === 'GET' || options.method === 'HEAD') return send(request, options)
    const turn = writes.then(() => send(request, options))
    writes = turn.catch(() => undefined)
    return turn
  })
  return { octokit, requests: () => sent }
}
