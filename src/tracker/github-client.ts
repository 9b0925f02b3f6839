// The one Octokit the GitHub adapter uses: @actions/github's client (runner proxy, user agent),
// with retries for transient failures and GitHub's rate-limit rules applied, and a count of
// every HTTP request it sends.
import { getOctokit } from '@actions/github'
import { defaults } from '@actions/github/lib/utils'
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
import Bottleneck from 'bottleneck/light.js'

export type Octokit = ReturnType<typeof getOctokit>

export interface GitHubClientOptions {
  token: string
  /** The REST API root, e.g. `https://api.github.com` or `GITHUB_API_URL`. */
  apiUrl: string
  userAgent?: string
  /** Retry 5xx, 429, network errors and rate limits. Default true. */
  retry?: boolean
  /** The most retries of one request. Default 3. */
  retries?: number
  /**
   * How long one second of waiting lasts, in ms: backoff, `retry-after`, and the spacing
   * between mutations (1 s, 3 s for ones that notify). Default 1000; tests pass 1.
   */
  secondMs?: number
  /** A rate limit that asks to wait longer than this many seconds fails instead. Default 60. */
  maxRetryAfter?: number
  /** Told about each retry, e.g. `core.info`. */
  log?: (message: string) => void
}

export interface GitHubClient {
  octokit: Octokit
  /** HTTP requests sent so far, retries included. */
  requests(): number
}

export function createGitHubClient(opts: GitHubClientOptions): GitHubClient {
  const retrying = opts.retry ?? true
  const retries = opts.retries ?? 3
  const secondMs = opts.secondMs ?? 1000
  const maxRetryAfter = opts.maxRetryAfter ?? 60
  const log = opts.log ?? (() => undefined)
  let sent = 0

  const baseFetch = defaults.request?.fetch ?? globalThis.fetch
  const countingFetch: typeof fetch = (input, init) => {
    sent++
    return baseFetch(input, init)
  }

  const onLimit =
    (kind: string) =>
    (retryAfter: number, options: { method: string; url: string }, _o: unknown, count: number) => {
      const again = retrying && count < retries && retryAfter <= maxRetryAfter
      log(
        `GitHub ${kind} on ${options.method} ${options.url}: ` +
          (again ? `retrying in ${retryAfter}s (retry ${count + 1} of ${retries})` : 'giving up')
      )
      return again
    }

  const octokit = getOctokit(
    opts.token,
    {
      baseUrl: opts.apiUrl.replace(/\/+$/, ''),
      userAgent: opts.userAgent ?? 'itervox-handoff-action',
      request: { ...defaults.request, fetch: countingFetch },
      retry: { enabled: retrying, retries, retryAfterBaseValue: secondMs },
      throttle: {
        retryAfterBaseValue: secondMs,
        fallbackSecondaryRateRetryAfter: 60,
        // GitHub asks for mutations to be serialised and spaced (content-creation limits).
        write: new Bottleneck.Group({ maxConcurrent: 1, minTime: secondMs }),
        notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: 3 * secondMs }),
        onRateLimit: onLimit('rate limit'),
        onSecondaryRateLimit: onLimit('secondary rate limit')
      }
    },
    retry,
    throttling
  )
  return { octokit, requests: () => sent }
}
