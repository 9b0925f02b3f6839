// The one Octokit the GitHub adapter uses: @octokit/core with pagination, the runner's proxy and
// user agent as @actions/github sets them, with a timeout on every request, the retries
// github-retry.ts allows, writes sent one at a time, and a count of every HTTP request it sends.
import { Octokit as Core } from '@octokit/core'
import { paginateRest } from '@octokit/plugin-paginate-rest'
import { timedFetch, type BaseFetch } from './github-fetch.js'
import { httpFetch, type Fetch } from './http-fetch.js'
import { RedirectedError } from './github-errors.js'
import { retrying } from './github-retry.js'

// Requests name their route ('GET /repos/{owner}/{repo}'): the REST methods plugin would add a
// table of every endpoint (~100 KB) that each step loads and builds before its first request.
const GitHub = Core.plugin(paginateRest)
export type Octokit = InstanceType<typeof GitHub>

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

const PROXY_VARS = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY']
let proxyFetch: Promise<typeof fetch> | undefined

/**
 * httpFetch, unless the runner names a proxy: then @actions/github's own fetch, which sends
 * through that proxy unless NO_PROXY (or a loopback API) says not to. That one runs on undici,
 * which like Node's fetch costs over 200 ms of CPU to load and send a first request, so it is
 * loaded only when a proxy is set: the bundles keep undici in a file of its own (dist/undici, see
 * undici-on-demand.cts), and this module's code in theirs ("eager", no chunk file).
 */
function runnerFetch(): BaseFetch {
  if (!PROXY_VARS.some((name) => process.env[name])) return httpFetch
  proxyFetch ??= import(/* webpackMode: "eager" */ '@actions/github/lib/utils').then(
    ({ defaults }) => defaults.request?.fetch ?? globalThis.fetch
  )
  const loaded = proxyFetch
  return async (url, init) => (await loaded)(url, init as RequestInit)
}

/** @actions/github's user agent: the job's orchestration id is appended when the runner sets one. */
function withOrchestrationId(userAgent: string): string {
  const id = process.env.ACTIONS_ORCHESTRATION_ID?.trim()
  if (!id) return userAgent
  const tag = `actions_orchestration_id/${id.replace(/[^a-z0-9_.-]/gi, '_')}`
  return userAgent.includes(tag) ? userAgent : `${userAgent} ${tag}`
}

export function createGitHubClient(opts: GitHubClientOptions): GitHubClient {
  let sent = 0
  const baseFetch = runnerFetch()
  const fetchOnce = timedFetch(baseFetch, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  const countingFetch: Fetch = (url, init) => {
    sent++
    // A redirect is never followed: GitHub answers one for an issue transferred to another
    // repository, and what it points at (another issue, another number) is not what was asked.
    return fetchOnce(url, { ...init, redirect: 'manual' })
  }

  const octokit = new GitHub({
    auth: `token ${opts.token}`,
    baseUrl: opts.apiUrl.replace(/\/+$/, ''),
    userAgent: withOrchestrationId(opts.userAgent ?? 'itervox-handoff-action'),
    request: { fetch: countingFetch }
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
    // A read the caller can do without (see GitHubTracker.readAhead) asks for no retry.
    if ((options.request as { retries?: number } | undefined)?.retries === 0)
      return request(options)
    if (options.method === 'GET' || options.method === 'HEAD') return send(request, options)
    const turn = writes.then(() => send(request, options))
    writes = turn.catch(() => undefined)
    return turn
  })
  return { octokit, requests: () => sent }
}
