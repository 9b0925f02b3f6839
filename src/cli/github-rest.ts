// The few GitHub REST calls the CLI makes from a person's machine (`labels`), through the
// action's client (github-client.ts), with no retries: a person at the terminal runs it again.
import { UserError } from '../errors.js'
import { createGitHubClient } from '../tracker/github-client.js'
import { isHttpFailure } from '../tracker/github-errors.js'
import { NoAnswer } from '../tracker/timed-fetch.js'

export interface Rest {
  /** owner/name */
  repo: string
  call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<RestAnswer>
}

interface RestAnswer {
  status: number
  data: unknown
}

/**
 * A client for `repo` at the API root `apiUrl` (`GITHUB_API_URL`, else api.github.com); with no
 * token, it reads what GitHub shows anyone. Any answer GitHub gives is returned, whatever its
 * status, but for a refused token.
 */
export function restClient(
  apiUrl: string,
  token: string | undefined,
  repo: string,
  command: string
): Rest {
  const { octokit } = createGitHubClient({
    token,
    apiUrl,
    userAgent: 'itervox-handoff',
    retry: false
  })
  return {
    repo,
    async call(method, path, body) {
      let answer: RestAnswer
      try {
        const r = await octokit.request(`${method} /repos/${repo}${path}`, {
          ...(body === undefined ? {} : { data: body })
        })
        answer = { status: r.status, data: r.data }
      } catch (e) {
        const status = isHttpFailure(e) && !(e.cause instanceof NoAnswer) ? e.status : undefined
        if (status === undefined) {
          throw new UserError(
            `${command}: cannot reach the GitHub API at ${apiUrl.replace(/\/+$/, '')}: ${(e as Error).message}; check your connection, or GITHUB_API_URL`
          )
        }
        answer = { status, data: isHttpFailure(e) ? (e.response?.data ?? null) : null }
      }
      if (answer.status === 401) {
        const refused = token === undefined ? 'asks for a token' : 'refused the token'
        throw new UserError(
          `${command}: GitHub ${refused} (401 ${messageOf(answer.data)}); set GITHUB_TOKEN or GH_TOKEN to a valid token`
        )
      }
      return answer
    }
  }
}

/** GitHub's `message` in an error answer, or the status text. */
export function messageOf(data: unknown): string {
  const message = (data as { message?: unknown } | null)?.message
  return typeof message === 'string' ? message : 'no message'
}
