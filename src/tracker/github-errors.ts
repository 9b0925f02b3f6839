// Turns a failed GitHub API call into a one-line error that says what to change: a wrong token
// or a missing workflow permission is the user's to fix (UserError); anything else (an outage,
// rate limits that outlasted the retries) is a GitHubApiError.
import { UserError } from '../errors.js'

/** A GitHub API call failed for a reason the user did not cause. */
export class GitHubApiError extends Error {
  constructor(
    message: string,
    readonly status: number
  ) {
    super(message)
    this.name = 'GitHubApiError'
  }
}

/** What an Octokit request error carries; matched by shape so no Octokit type leaks out. */
export interface HttpFailure {
  status: number
  message: string
  response?: { data?: unknown }
}

export function isHttpFailure(e: unknown): e is HttpFailure {
  return e instanceof Error && typeof (e as { status?: unknown }).status === 'number'
}

/** GitHub's own message (without the documentation link Octokit appends), on one line. */
export function apiMessage(e: HttpFailure): string {
  const data = e.response?.data as { message?: unknown; errors?: unknown[] } | undefined
  const base = typeof data?.message === 'string' ? data.message : e.message
  const details = (data?.errors ?? [])
    .map((x) =>
      typeof x === 'string'
        ? x
        : ((x as { message?: string; code?: string }).message ?? (x as { code?: string }).code)
    )
    .filter((x): x is string => typeof x === 'string')
  return [base, ...details].join(': ').replace(/\s+/g, ' ').trim()
}

/**
 * @param doing what was being done, e.g. `create a pull request for itervox/42`
 * @param permission the job permission that allows it, e.g. `pull-requests: write`
 */
export function explainFailure(e: unknown, doing: string, permission: string): Error {
  if (!isHttpFailure(e)) return e instanceof Error ? e : new Error(String(e))
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
  const status = e.status === 500 && !e.response ? 'network error' : String(e.status)
  return new GitHubApiError(`GitHub API failed to ${doing}: ${status} ${message}`, e.status)
}
