// The few GitHub REST calls the CLI makes from a person's machine (`labels`), with plain HTTP:
// the action's Octokit, with its retries and write queue, is for the runner.
import { UserError } from '../errors.js'
import { timedFetch } from '../tracker/github-fetch.js'
import { httpFetch, type Answer } from '../tracker/http-fetch.js'

export interface Rest {
  /** owner/name */
  repo: string
  call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<RestAnswer>
}

interface RestAnswer {
  status: number
  data: unknown
}

const send = timedFetch(httpFetch, 30_000)

/**
 * A client for `repo` at the API root `apiUrl` (`GITHUB_API_URL`, else api.github.com); with no
 * token, it reads what GitHub shows anyone.
 */
export function restClient(
  apiUrl: string,
  token: string | undefined,
  repo: string,
  command: string
): Rest {
  const root = apiUrl.replace(/\/+$/, '')
  return {
    repo,
    async call(method, path, body) {
      let res: Answer
      try {
        res = await send(`${root}/repos/${repo}${path}`, {
          method,
          headers: {
            accept: 'application/vnd.github+json',
            ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
            'x-github-api-version': '2022-11-28',
            'user-agent': 'itervox-handoff',
            ...(body === undefined ? {} : { 'content-type': 'application/json' })
          },
          body: body === undefined ? undefined : JSON.stringify(body)
        })
      } catch (e) {
        throw new UserError(
          `${command}: cannot reach the GitHub API at ${root}: ${(e as Error).message}; check your connection, or GITHUB_API_URL`
        )
      }
      const text = await res.text()
      let data: unknown
      try {
        data = text ? JSON.parse(text) : null
      } catch {
        data = text
      }
      if (res.status === 401) {
        const refused = token === undefined ? 'asks for a token' : 'refused the token'
        throw new UserError(
          `${command}: GitHub ${refused} (401 ${messageOf(data)}); set GITHUB_TOKEN or GH_TOKEN to a valid token`
        )
      }
      return { status: res.status, data }
    }
  }
}

/** GitHub's `message` in an error answer, or the status text. */
export function messageOf(data: unknown): string {
  const message = (data as { message?: unknown } | null)?.message
  return typeof message === 'string' ? message : 'no message'
}
