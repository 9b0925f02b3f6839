// Linear's GraphQL API over plain HTTP (no SDK: it is megabytes and a new major every week).
// Each answer is checked with zod before use, errors[] is read even on HTTP 200, a spent rate
// limit is waited out (bounded) and retried, and a request Linear does not answer in time is
// given up on. A mistake the user can fix (a refused key, a missing issue) is a UserError.
import * as z from '../zod.js'
import { UserError } from '../errors.js'
import { NoAnswer, timedFetch } from './timed-fetch.js'
import * as doc from './linear-documents.js'
import { PARSE_ONCE } from '../parse-once.js'

export const DEFAULT_LINEAR_URL = 'https://api.linear.app/graphql'

/** Where requests go: `LINEAR_API_URL` (tests, proxies) or Linear's own endpoint. */
export function linearEndpoint(env: Record<string, string | undefined>): string {
  return env.LINEAR_API_URL || DEFAULT_LINEAR_URL
}

export interface LinearApiOptions {
  apiKey: string
  url: string
  timeoutMs?: number
  /** Rate-limited answers waited out and retried before giving up. */
  rateLimitRetries?: number
  /** The longest a rate limit is waited out; a longer reset fails at once. */
  maxWaitMs?: number
}

/** Linear could not be reached or failed; not the user's doing, nothing to change. */
export class LinearUnavailableError extends Error {
  override name = 'LinearUnavailableError'
}

/** The rate limit stayed spent past what a job waits. */
export class LinearRateLimitError extends Error {
  override name = 'LinearRateLimitError'
}

const GraphqlError = z.object({
  message: z.string(),
  extensions: z.optional(
    z.looseObject({
      code: z.optional(z.string()),
      type: z.optional(z.string()),
      userPresentableMessage: z.optional(z.string())
    })
  )
})
const Envelope = z.object({
  data: z.optional(z.unknown()),
  errors: z.optional(z.array(GraphqlError))
})

const State = z.object({ id: z.string(), name: z.string(), type: z.string() })
const Team = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  states: z.object({ nodes: z.array(z.extend(State, { position: z.number() })) })
})
const Issue = z.object({
  id: z.string(),
  identifier: z.string(),
  title: z.string(),
  description: z.nullable(z.string()),
  url: z.string(),
  branchName: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  state: State,
  labels: z.object({ nodes: z.array(z.object({ id: z.string(), name: z.string() })) }),
  team: z.object({ id: z.string(), key: z.string() })
})
const Comment = z.object({
  id: z.string(),
  body: z.string(),
  createdAt: z.string(),
  user: z.nullable(z.object({ id: z.string(), name: z.string() }))
})
const Success = z.object({ success: z.boolean() })

export type LinearTeam = z.infer<typeof Team>
export type LinearIssue = z.infer<typeof Issue>
export type LinearComment = z.infer<typeof Comment>

/** A comment listing reads at most this many pages (100 comments each). */
const COMMENT_PAGES = 10

/** An issue listing reads at most this many pages (50 issues each). */
const ISSUE_PAGES = 20

export class LinearApi {
  private sent = 0
  private readonly fetch: typeof fetch

  constructor(private readonly o: LinearApiOptions) {
    this.fetch = timedFetch(o.timeoutMs ?? 30_000)
  }

  /** HTTP requests sent so far, retries included. */
  get requestCount(): number {
    return this.sent
  }

  async viewer(): Promise<{ id: string; name: string }> {
    const data = await this.request(
      doc.VIEWER,
      {},
      z.object({ viewer: z.object({ id: z.string(), name: z.string() }) })
    )
    return data.viewer
  }

  /** The team with this key (`ENG`), with its workflow states; null when the key sees none. */
  async team(key: string): Promise<LinearTeam | null> {
    const data = await this.request(
      doc.TEAM,
      { key },
      z.object({ teams: z.object({ nodes: z.array(Team) }) })
    )
    return data.teams.nodes[0] ?? null
  }

  /** The issue by key (`ENG-123`) or id; null when there is none the key can see. */
  async issue(id: string): Promise<LinearIssue | null> {
    try {
      return (await this.request(doc.ISSUE, { id }, z.object({ issue: Issue }))).issue
    } catch (e) {
      if (e instanceof LinearRefused && e.notFound) return null
      throw e
    }
  }

  /** The issues that block `id` by Linear's `blocks` relations, each with its state's type. */
  async blockers(id: string): Promise<Array<{ identifier: string; stateType: string }>> {
    const Relation = z.object({
      type: z.string(),
      issue: z.object({ identifier: z.string(), state: z.object({ type: z.string() }) })
    })
    const data = await this.request(
      doc.BLOCKERS,
      { id },
      z.object({ issue: z.object({ inverseRelations: z.object({ nodes: z.array(Relation) }) }) })
    )
    return data.issue.inverseRelations.nodes
      .filter((r) => r.type === 'blocks')
      .map((r) => ({ identifier: r.issue.identifier, stateType: r.issue.state.type }))
  }

  /**
   * The team's issues in any of these states (by state id), at most ISSUE_PAGES pages;
   * `truncated` when there were more.
   */
  async issuesIn(
    teamId: string,
    stateIds: string[]
  ): Promise<{ issues: LinearIssue[]; truncated: boolean }> {
    const issues: LinearIssue[] = []
    let after: string | null = null
    for (let page = 0; page < ISSUE_PAGES; page++) {
      const data: { issues: { nodes: LinearIssue[]; pageInfo: PageInfo } } = await this.request(
        doc.ISSUES,
        { team: teamId, states: stateIds, after },
        z.object({ issues: z.object({ nodes: z.array(Issue), pageInfo: PageInfo }) })
      )
      issues.push(...data.issues.nodes)
      const info = data.issues.pageInfo
      if (!info.hasNextPage || !info.endCursor) return { issues, truncated: false }
      after = info.endCursor
    }
    return { issues, truncated: true }
  }

  /**
   * When the issue last entered the state `stateId`, from its latest history entries; null when
   * they show no such move (it was created there, or moved there long ago).
   */
  async enteredAt(issueId: string, stateId: string): Promise<string | null> {
    const data = await this.request(
      doc.STATE_HISTORY,
      { id: issueId },
      z.object({
        issue: z.object({
          history: z.object({
            nodes: z.array(
              z.object({
                createdAt: z.string(),
                toState: z.nullable(z.object({ id: z.string() }))
              })
            )
          })
        })
      })
    )
    const times = data.issue.history.nodes
      .filter((h) => h.toState?.id === stateId)
      .map((h) => h.createdAt)
    // The latest by time, whatever order the page came in.
    return times.sort().at(-1) ?? null
  }

  /** The issue's comments, oldest first. */
  async comments(issueId: string): Promise<LinearComment[]> {
    const out: LinearComment[] = []
    let after: string | null = null
    for (let page = 0; page < COMMENT_PAGES; page++) {
      const data: { issue: { comments: { nodes: LinearComment[]; pageInfo: PageInfo } } } =
        await this.request(
          doc.COMMENTS,
          { id: issueId, after },
          z.object({
            issue: z.object({ comments: z.object({ nodes: z.array(Comment), pageInfo: PageInfo }) })
          })
        )
      out.push(...data.issue.comments.nodes)
      const info = data.issue.comments.pageInfo
      if (!info.hasNextPage || !info.endCursor) break
      after = info.endCursor
    }
    return out
  }

  async isMember(teamId: string, userId: string): Promise<boolean> {
    const data = await this.request(
      doc.MEMBER,
      { team: teamId, user: userId },
      z.object({
        team: z.object({ members: z.object({ nodes: z.array(z.object({ id: z.string() })) }) })
      })
    )
    return data.team.members.nodes.some((m) => m.id === userId)
  }

  /** Sets the issue's state by the state's id; returns the state's name afterwards. */
  async moveIssue(issueId: string, stateId: string): Promise<string | null> {
    const data = await this.request(
      doc.MOVE,
      { id: issueId, stateId },
      z.object({
        issueUpdate: z.extend(Success, {
          issue: z.nullable(z.object({ state: z.object({ id: z.string(), name: z.string() }) }))
        })
      })
    )
    return data.issueUpdate.issue?.state.name ?? null
  }

  async createComment(issueId: string, body: string): Promise<{ id: string; url: string }> {
    const data = await this.request(
      doc.COMMENT,
      { issueId, body },
      z.object({
        commentCreate: z.extend(Success, { comment: z.object({ id: z.string(), url: z.string() }) })
      })
    )
    return data.commentCreate.comment
  }

  /** Labels of this name (any case), with the team each belongs to (null: the workspace's). */
  async labelsNamed(name: string): Promise<{ id: string; team: { id: string } | null }[]> {
    const data = await this.request(
      doc.FIND_LABEL,
      { name },
      z.object({
        issueLabels: z.object({
          nodes: z.array(
            z.object({ id: z.string(), team: z.nullable(z.object({ id: z.string() })) })
          )
        })
      })
    )
    return data.issueLabels.nodes
  }

  async createLabel(name: string, teamId: string): Promise<string> {
    const data = await this.request(
      doc.CREATE_LABEL,
      { name, teamId },
      z.object({
        issueLabelCreate: z.extend(Success, { issueLabel: z.object({ id: z.string() }) })
      })
    )
    return data.issueLabelCreate.issueLabel.id
  }

  async setLabel(issueId: string, labelId: string, on: boolean): Promise<void> {
    await this.request(
      on ? doc.ADD_LABEL : doc.REMOVE_LABEL,
      { id: issueId, labelId },
      z.object({ [on ? 'issueAddLabel' : 'issueRemoveLabel']: Success })
    )
  }

  /** Links the pull request on the issue (Linear keeps one attachment per URL). */
  async linkPullRequest(issueId: string, url: string, title: string): Promise<void> {
    await this.request(
      doc.LINK_PR,
      { issueId, url, title },
      z.object({ attachmentLinkGitHubPR: Success })
    )
  }

  /**
   * One document; its data checked against `shape`. Generic in zod's core schema type: tsc
   * relating each classic schema to a `z.ZodType<T>` took a quarter of a second per call.
   */
  private async request<S extends z.core.$ZodType>(
    document: string,
    variables: Record<string, unknown>,
    shape: S
  ): Promise<z.output<S>> {
    const operation = /^\s*(query|mutation)\s+(\w+)/.exec(document)
    const name = operation?.[2] ?? 'request'
    const isQuery = operation?.[1] === 'query'
    const retries = this.o.rateLimitRetries ?? 2
    for (let attempt = 0; ; attempt++) {
      let res: Response
      try {
        this.sent++
        res = await this.fetch(this.o.url, {
          method: 'POST',
          headers: {
            // A personal API key goes as it is; Linear refuses it with `Bearer`.
            authorization: this.o.apiKey,
            'content-type': 'application/json',
            'user-agent': 'itervox-handoff'
          },
          body: JSON.stringify({ query: document, variables, operationName: name })
        })
      } catch (e) {
        // A query changes nothing and a request never sent did nothing: both are safe again.
        if (e instanceof NoAnswer && attempt === 0 && (isQuery || !e.sent)) continue
        throw new LinearUnavailableError(`Linear is unreachable (${name}): ${(e as Error).message}`)
      }
      const text = await res.text()
      const envelope = Envelope.safeParse(safeJson(text), PARSE_ONCE)
      const errors = envelope.success ? (envelope.data.errors ?? []) : []
      const kinds = errors.map((e) => e.extensions?.code ?? e.extensions?.type ?? '')
      if (res.status === 429 || kinds.some((k) => /^ratelimited$/i.test(k))) {
        const wait = rateLimitWait(res.headers)
        if (attempt < retries && wait <= (this.o.maxWaitMs ?? 60_000)) {
          await new Promise((r) => setTimeout(r, wait))
          continue
        }
        throw new LinearRateLimitError(
          `Linear's rate limit for this API key is spent (${name}); it resets in ${Math.ceil(wait / 1000)} s. Run fewer jobs at once or wait.`
        )
      }
      if (kinds.some((k) => /^(AUTHENTICATION_ERROR|authentication error)$/i.test(k))) {
        throw new UserError(
          'LINEAR_API_KEY was refused by Linear; create a personal API key in Linear (Settings → Security & access) and store it as the LINEAR_API_KEY secret'
        )
      }
      if (kinds.some((k) => /^(FORBIDDEN|forbidden)$/i.test(k)) || res.status === 403) {
        throw new UserError(
          `LINEAR_API_KEY may not do this (${name}): ${errors[0]?.message ?? 'forbidden'}; use a key of a member of the team`
        )
      }
      if (res.status >= 500 || !envelope.success) {
        if (isQuery && attempt === 0) continue
        throw new LinearUnavailableError(`Linear failed (${name}): HTTP ${res.status}`)
      }
      if (errors.length) {
        const first = errors[0]!
        const message = first.extensions?.userPresentableMessage ?? first.message
        throw new LinearRefused(
          `Linear refused ${name}: ${message}`,
          /not found/i.test(first.message)
        )
      }
      const data = z.safeParse(shape, envelope.data.data, PARSE_ONCE)
      if (!data.success) {
        throw new LinearUnavailableError(
          `Linear's answer to ${name} is not what it should be: ${data.error.issues[0]?.message ?? ''}`
        )
      }
      return data.data
    }
  }
}

const PageInfo = z.object({ hasNextPage: z.boolean(), endCursor: z.nullable(z.string()) })
type PageInfo = z.infer<typeof PageInfo>

/** Linear answered with errors[] for this document. */
export class LinearRefused extends Error {
  override name = 'LinearRefused'
  constructor(
    message: string,
    readonly notFound: boolean
  ) {
    super(message)
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * How long until the spent budget is back: `retry-after` seconds, else the reset (epoch ms) of
 * whichever budget, requests or complexity, has nothing left.
 */
function rateLimitWait(headers: Headers): number {
  const after = Number(headers.get('retry-after'))
  if (after > 0) return after * 1000
  const budgets = ['requests', 'complexity'].map((b) => ({
    spent: headers.get(`x-ratelimit-${b}-remaining`) === '0',
    reset: Number(headers.get(`x-ratelimit-${b}-reset`))
  }))
  const spent = budgets.filter((b) => b.spent && b.reset > 0)
  const reset = Math.max(0, ...(spent.length ? spent : budgets).map((b) => b.reset || 0))
  return Math.max(0, reset - Date.now())
}
