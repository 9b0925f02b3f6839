// The one Octokit the GitHub adapter and the CLI use: @actions/github's (the runner's proxy and
// user agent), with a timeout on every request, the retries github-retry.ts allows, writes sent
// one at a time, no redirect followed, and a count of every HTTP request it sends.
import { getOctokit } from '@actions/github'
import { defaults, GitHub } from '@actions/github/lib/utils'
import { RedirectedError } from './github-errors.js'
import { retrying } from './github-retry.js'
import { timedFetch } from './timed-fetch.js'

export type Octokit = ReturnType<typeof getOctokit>

export interface GitHubClientOptions {
  /** Without one (the CLI, for a public repository), it reads what GitHub shows anyone. */
  token: string | undefined
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
  // @actions/github's fetch sends through the runner's proxy unless NO_PROXY says not to.
  const fetchOnce = timedFetch(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, defaults.request?.fetch)
  const options = {
    baseUrl: opts.apiUrl.replace(/\/+$/, ''),
    userAgent: opts.userAgent ?? 'itervox-handoff-action',
    request: {
      ...defaults.request,
      fetch: (url: string, init: RequestInit) => (sent++, fetchOnce(url, init)),
      // A redirect is never followed: GitHub answers one for an issue transferred to another
      // repository, and what it points at (another issue, another number) is not what was asked.
      redirect: 'manual' as const
    }
  }
  const octokit = opts.token ? getOctokit(opts.token, options) : new GitHub(options)
  const send = retrying({
    retries: (opts.retry ?? true) ? (opts.retries ?? 3) : 0,
    secondMs: opts.secondMs ?? 1000,
    maxRetryAfter: opts.maxRetryAfter ?? 60,
    log: opts.log ?? (() => undefined)
  })
  // GitHub asks for writes from one token to be made one at a time (its secondary limits);
  // a write waits for the one before it, retries included, but not for any fixed spacing.
  let writes: Promise<unknown> = Promise.resolve()
  octokit.hook.wrap('request', (sendOnce, options) => {
    // Octokit takes a 3xx for a success; here it fails, and is never sent again.
    const request = async (o: typeof options) => {
      const response = await sendOnce(o)
      if (response.status < 300 || response.status > 399) return response
      const location = response.headers.location
      throw new RedirectedError(response.status, typeof location === 'string' ? location : '', {
        method: o.method
      })
    }
    if (options.method === 'GET' || options.method === 'HEAD') return send(request, options)
    const turn = writes.then(() => send(request, options))
    writes = turn.catch(() => undefined)
    return turn
  })
  return { octokit, requests: () => sent }
}
