// The fake's GraphQL endpoint: it serves the exact documents the action sends (who the token
// acts as; readying a pull request) and answers anything else as GitHub answers a document it
// cannot parse, listing it as a violation.
import { pullNodeId } from './github-objects.js'
import type { GitHubState } from './fake-github-state.js'

export interface GraphqlAnswer {
  status: number
  body: unknown
  /** Why the request does not conform, when it does not. */
  violation?: string
}

const VIEWER = 'query { viewer { login } }'

const READY =
  'mutation ($id: ID!, $body: String!) { ' +
  'updatePullRequest(input: { pullRequestId: $id, body: $body }) { pullRequest { number } } ' +
  'markPullRequestReadyForReview(input: { pullRequestId: $id }) { pullRequest { isDraft } } }'

const flat = (text: string) => text.replace(/\s+/g, ' ').trim()

export function answerGraphql(state: GitHubState, raw: Buffer | 'too large'): GraphqlAnswer {
  let doc: { query?: unknown; variables?: Record<string, unknown> }
  try {
    doc = raw === 'too large' ? {} : (JSON.parse(raw.toString()) as typeof doc)
  } catch {
    doc = {}
  }
  const query = flat(String(doc.query ?? ''))
  if (query === VIEWER) {
    return { status: 200, body: { data: { viewer: { login: state.tokenUser.login } } } }
  }
  if (query === flat(READY)) {
    const { id, body } = doc.variables ?? {}
    if (typeof id !== 'string' || typeof body !== 'string') {
      return refused(`variables ${JSON.stringify(doc.variables)}: id and body must be strings`)
    }
    const pr = state.pullRecords().find((i) => pullNodeId(i.id) === id)
    if (!pr) {
      return {
        status: 200,
        body: {
          data: { updatePullRequest: null, markPullRequestReadyForReview: null },
          errors: [
            {
              type: 'NOT_FOUND',
              message: `Could not resolve to a node with the global id of '${id}'`
            }
          ]
        }
      }
    }
    pr.body = body
    pr.pull.draft = false
    return {
      status: 200,
      body: {
        data: {
          updatePullRequest: { pullRequest: { number: pr.number } },
          markPullRequestReadyForReview: { pullRequest: { isDraft: false } }
        }
      }
    }
  }
  return refused(`query ${query}`)
}

function refused(violation: string): GraphqlAnswer {
  return { status: 200, body: { errors: [{ message: 'Parse error' }] }, violation }
}
