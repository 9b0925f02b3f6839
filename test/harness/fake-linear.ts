// A small, stateful Linear GraphQL API on 127.0.0.1 for tests: teams with workflow states and
// members, issues with labels, comments, attachments and state history. Every document is validated, and its
// variables coerced, against the subset of Linear's schema the tracker uses
// (test/fixtures/linear/linear-subset.graphql, made by scripts/extract-linear-graphql.ts); one
// that does not conform is answered as Linear answers it (HTTP 400, errors[] with
// GRAPHQL_VALIDATION_FAILED) and listed in `violations`, which tests assert is empty.
// Error shapes follow @linear/sdk's own parsing (extensions.type, userPresentableMessage, the
// X-RateLimit-Requests-* headers): a refused key or a spent rate limit is HTTP 400 with a typed
// error; a missing entity is HTTP 200 with data null and errors[].
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { buildSchema, execute, GraphQLError } from 'graphql'
import { checkDocument } from './graphql-check.js'

const SCHEMA = buildSchema(
  readFileSync(new URL('../fixtures/linear/linear-subset.graphql', import.meta.url), 'utf8')
)

export interface LinearUser {
  id: string
  name: string
}

export interface FakeState {
  id: string
  name: string
  type: string
  position: number
}

export interface FakeComment {
  id: string
  body: string
  userId: string | null
  createdAt: string
}

export interface FakeIssue {
  id: string
  identifier: string
  title: string
  description: string | null
  teamId: string
  stateId: string
  labelIds: string[]
  comments: FakeComment[]
  attachments: { url: string; title: string | null; linkKind: string | null }[]
  /** Its state changes, oldest first, as Linear's issue history records them. */
  history: { createdAt: string; toStateId: string }[]
  createdAt: string
  updatedAt: string
}

interface FakeTeam {
  id: string
  key: string
  name: string
  states: FakeState[]
  memberIds: Set<string>
  issues: number
}

export type LinearFault =
  /** An outage: this HTTP status with Linear's generic error body. */
  | { status: number }
  /** The request budget is spent: HTTP 400 RATELIMITED, resetting after `resetMs`. */
  | { rateLimited: { resetMs: number } }
  /** Closes the connection before anything is done. */
  | { reset: true }

export interface LinearRequest {
  operation: string | undefined
  variables: Record<string, unknown>
  authorization: string | undefined
  status: number
}

/** The default workflow of a new Linear team, plus the seed pipeline's own states. */
export const SEED_STATES: Omit<FakeState, 'id'>[] = [
  { name: 'Backlog', type: 'backlog', position: 0 },
  { name: 'Todo', type: 'unstarted', position: 1 },
  { name: 'Researching', type: 'started', position: 2 },
  { name: 'Implementing', type: 'started', position: 3 },
  { name: 'Reviewing', type: 'started', position: 4 },
  { name: 'Done', type: 'completed', position: 5 },
  { name: "Won't Do", type: 'canceled', position: 6 }
]

export class FakeLinear {
  readonly apiKey = `lin_api_${randomUUID().replace(/-/g, '')}`
  /** Whom the API key belongs to: comments the tracker writes are by this user. */
  readonly viewer: LinearUser = { id: randomUUID(), name: 'itervox bot' }
  readonly users = new Map<string, LinearUser>([[this.viewer.id, this.viewer]])
  readonly teams = new Map<string, FakeTeam>()
  readonly issues = new Map<string, FakeIssue>()
  /** `blocks` relations, by issue id. */
  private readonly blocks: Array<{ blocked: string; blocker: string }> = []
  readonly labels = new Map<string, { id: string; name: string; teamId: string | null }>()
  readonly requests: LinearRequest[] = []
  readonly violations: string[] = []
  /** Faults for the next requests, first one first. */
  readonly faults: LinearFault[] = []
  /** An outage: every request is answered 503 while set. */
  down = false
  /** Linear goes down (and stays down) at the first request of this operation. */
  downAt: string | undefined
  private server: Server | undefined

  private constructor(private port: number) {}

  static async start(): Promise<FakeLinear> {
    const fake = new FakeLinear(0)
    await fake.listen()
    return fake
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/graphql`
  }

  private listen(): Promise<void> {
    const server = createServer((req, res) => void this.serve(req, res))
    this.server = server
    return new Promise((resolve) =>
      server.listen(this.port, '127.0.0.1', () => {
        this.port = (server.address() as AddressInfo).port
        resolve()
      })
    )
  }

  close(): Promise<void> {
    const server = this.server
    this.server = undefined
    if (!server) return Promise.resolve()
    server.closeAllConnections()
    return new Promise((resolve) => server.close(() => resolve()))
  }

  addTeam(key: string, states = SEED_STATES): FakeTeam {
    const team: FakeTeam = {
      id: randomUUID(),
      key,
      name: `${key} team`,
      states: states.map((s) => ({ ...s, id: randomUUID() })),
      memberIds: new Set([this.viewer.id]),
      issues: 0
    }
    this.teams.set(team.id, team)
    return team
  }

  addUser(name: string, member?: FakeTeam): LinearUser {
    const user = { id: randomUUID(), name }
    this.users.set(user.id, user)
    member?.memberIds.add(user.id)
    return user
  }

  addIssue(team: FakeTeam, o: { title: string; description?: string; state: string }): FakeIssue {
    const now = new Date().toISOString()
    team.issues++
    const issue: FakeIssue = {
      id: randomUUID(),
      identifier: `${team.key}-${team.issues}`,
      title: o.title,
      description: o.description ?? null,
      teamId: team.id,
      stateId: this.stateNamed(team, o.state).id,
      labelIds: [],
      comments: [],
      attachments: [],
      history: [],
      createdAt: now,
      updatedAt: now
    }
    this.issues.set(issue.id, issue)
    return issue
  }

  /** What a person does in Linear's app: comment, or move the issue. */
  addComment(issue: FakeIssue, user: LinearUser | null, body: string): FakeComment {
    const c = {
      id: randomUUID(),
      body,
      userId: user?.id ?? null,
      createdAt: new Date().toISOString()
    }
    issue.comments.push(c)
    return c
  }

  /** Linear's `blocks` relation: `blocker` blocks `blocked`. */
  addBlocker(blocked: FakeIssue, blocker: FakeIssue): void {
    this.blocks.push({ blocked: blocked.id, blocker: blocker.id })
  }

  move(issue: FakeIssue, state: string): void {
    this.setState(issue, this.stateNamed(this.teamOf(issue), state).id)
  }

  private setState(issue: FakeIssue, stateId: string): void {
    const now = new Date().toISOString()
    if (issue.stateId !== stateId) issue.history.push({ createdAt: now, toStateId: stateId })
    issue.stateId = stateId
    issue.updatedAt = now
  }

  stateOf(issue: FakeIssue): string {
    return this.teamOf(issue).states.find((s) => s.id === issue.stateId)?.name ?? '?'
  }

  labelNames(issue: FakeIssue): string[] {
    return issue.labelIds.map((id) => this.labels.get(id)?.name ?? '?')
  }

  private teamOf(issue: FakeIssue): FakeTeam {
    return this.teams.get(issue.teamId) as FakeTeam
  }

  private stateNamed(team: FakeTeam, name: string): FakeState {
    const s = team.states.find((x) => x.name === name)
    if (!s) throw new Error(`team ${team.key} has no state ${name}`)
    return s
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const record: LinearRequest = {
      operation: undefined,
      variables: {},
      authorization: req.headers.authorization,
      status: 0
    }
    this.requests.push(record)
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'x-ratelimit-requests-limit': '5000',
        'x-ratelimit-requests-remaining': String(Math.max(0, 5000 - this.requests.length)),
        'x-ratelimit-requests-reset': String(Date.now() + 3_600_000),
        ...headers
      })
      res.end(JSON.stringify(body))
    }
    if (
      this.downAt &&
      new RegExp(`"operationName":"${this.downAt}"`).test(Buffer.concat(chunks).toString('utf8'))
    ) {
      this.down = true
      this.downAt = undefined
    }
    if (this.down) {
      send(503, { errors: [{ message: 'Service unavailable' }] })
      return
    }
    const fault = this.faults.shift()
    if (fault && 'reset' in fault) {
      req.socket.destroy()
      return
    }
    if (fault && 'status' in fault) {
      send(fault.status, { errors: [{ message: 'Internal server error' }] })
      return
    }
    if (fault && 'rateLimited' in fault) {
      const reset = Date.now() + fault.rateLimited.resetMs
      send(400, linearError('Rate limit exceeded', 'RATELIMITED', 'ratelimited'), {
        'x-ratelimit-requests-remaining': '0',
        'x-ratelimit-requests-reset': String(reset)
      })
      return
    }
    if (req.method !== 'POST' || req.url !== '/graphql') {
      this.violations.push(`${req.method ?? '?'} ${req.url ?? '?'}: Linear serves POST /graphql`)
      send(404, { errors: [{ message: 'Not found' }] })
      return
    }
    let doc: { query?: unknown; variables?: unknown; operationName?: unknown }
    try {
      doc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof doc
    } catch {
      this.violations.push('the body is not JSON')
      send(400, linearError('Body is not valid JSON', 'BAD_REQUEST', 'graphql error'))
      return
    }
    record.variables = (doc.variables ?? {}) as Record<string, unknown>
    // Linear checks the key before the document.
    if (req.headers.authorization !== this.apiKey) {
      if (req.headers.authorization?.startsWith('Bearer ')) {
        this.violations.push('a personal API key is sent without Bearer')
      }
      send(
        400,
        linearError(
          'Authentication required, not authenticated',
          'AUTHENTICATION_ERROR',
          'authentication error',
          'You need to authenticate to access this operation.'
        )
      )
      return
    }
    const checked = checkDocument(SCHEMA, doc.query, record.variables)
    if ('parseError' in checked) {
      this.violations.push(`query: ${checked.parseError}`)
      send(400, linearError(checked.parseError, 'GRAPHQL_PARSE_FAILED', 'graphql error'))
      return
    }
    record.operation = checked.operation?.name?.value
    if ('problems' in checked) {
      this.violations.push(checked.problems.join('; '))
      send(400, {
        errors: checked.problems.map((m) => ({
          message: m,
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED', type: 'graphql error', userError: true }
        }))
      })
      return
    }
    const { document } = checked
    const result = await execute({
      schema: SCHEMA,
      document,
      rootValue: this.root(),
      variableValues: record.variables
    })
    const errors = result.errors?.map((e) => {
      const invalid = e.originalError instanceof InvalidInput
      return {
        message: e.message,
        path: e.path,
        extensions: invalid
          ? { code: 'INPUT_ERROR', type: 'invalid input', userError: true }
          : { code: 'INTERNAL_SERVER_ERROR', type: 'internal error' }
      }
    })
    send(200, { data: result.data ?? null, ...(errors ? { errors } : {}) })
  }

  private root() {
    const issueView = (i: FakeIssue): Record<string, unknown> => {
      const team = this.teamOf(i)
      return {
        ...i,
        url: `https://linear.app/fake/issue/${i.identifier.toLowerCase()}`,
        branchName: `${this.viewer.name.split(' ')[0]}/${i.identifier.toLowerCase()}-${i.title
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .slice(0, 40)}`,
        state: team.states.find((s) => s.id === i.stateId),
        team: teamView(team),
        // Newest first, as Linear lists an issue's history.
        history: ({ first }: { first?: number }) => ({
          nodes: [...i.history]
            .reverse()
            .slice(0, first ?? 50)
            .map((h) => ({
              createdAt: h.createdAt,
              toState: team.states.find((s) => s.id === h.toStateId)
            }))
        }),
        labels: ({ first }: { first?: number }) => ({
          nodes: i.labelIds
            .slice(0, first ?? 50)
            .map((id) =>
              labelView(this.labels.get(id) as { id: string; name: string; teamId: string | null })
            )
        }),
        inverseRelations: ({ first }: { first?: number }) => ({
          nodes: this.blocks
            .filter((b) => b.blocked === i.id)
            .slice(0, first ?? 50)
            .map((b) => ({ type: 'blocks', issue: issueView(this.issues.get(b.blocker)!) }))
        }),
        comments: ({ first, after }: { first?: number; after?: string }) => {
          const start = after ? i.comments.findIndex((c) => c.id === after) + 1 : 0
          const page = i.comments.slice(start, start + (first ?? 50))
          return {
            nodes: page.map((c) => ({
              ...c,
              url: `https://linear.app/fake/issue/${i.identifier.toLowerCase()}#comment-${c.id.slice(0, 8)}`,
              user: c.userId ? this.users.get(c.userId) : null
            })),
            pageInfo: {
              hasNextPage: start + page.length < i.comments.length,
              endCursor: page.at(-1)?.id ?? null
            }
          }
        }
      }
    }
    const teamView = (t: FakeTeam) => ({
      ...t,
      states: ({ first }: { first?: number }) => ({ nodes: t.states.slice(0, first ?? 50) }),
      members: ({ filter }: { filter?: { id?: { eq?: string } } }) => ({
        nodes: [...t.memberIds]
          .filter((id) => filter?.id?.eq === undefined || filter.id.eq === id)
          .map((id) => this.users.get(id))
      })
    })
    const labelView = (l: { id: string; name: string; teamId: string | null }) => ({
      id: l.id,
      name: l.name,
      team: l.teamId ? teamView(this.teams.get(l.teamId) as FakeTeam) : null
    })
    const findIssue = (id: string): FakeIssue => {
      const found = [...this.issues.values()].find(
        (i) => i.id === id || i.identifier.toLowerCase() === id.toLowerCase()
      )
      if (!found) throw new InvalidInput('Entity not found: Issue')
      return found
    }
    const touch = (i: FakeIssue) => (i.updatedAt = new Date().toISOString())
    return {
      viewer: () => this.viewer,
      teams: ({ filter }: { filter?: { key?: { eq?: string } } }) => ({
        nodes: [...this.teams.values()]
          .filter((t) => filter?.key?.eq === undefined || t.key === filter.key.eq)
          .map(teamView)
      }),
      team: ({ id }: { id: string }) => {
        const t = [...this.teams.values()].find((x) => x.id === id || x.key === id)
        if (!t) throw new InvalidInput('Entity not found: Team')
        return teamView(t)
      },
      issue: ({ id }: { id: string }) => issueView(findIssue(id)),
      issues: (a: {
        first?: number
        after?: string
        filter?: { team?: { id?: { eq?: string } }; state?: { id?: { in?: string[] } } }
      }) => {
        const all = [...this.issues.values()].filter(
          (i) =>
            (a.filter?.team?.id?.eq === undefined || i.teamId === a.filter.team.id.eq) &&
            (a.filter?.state?.id?.in === undefined || a.filter.state.id.in.includes(i.stateId))
        )
        const start = a.after ? all.findIndex((i) => i.id === a.after) + 1 : 0
        const page = all.slice(start, start + (a.first ?? 50))
        return {
          nodes: page.map(issueView),
          pageInfo: {
            hasNextPage: start + page.length < all.length,
            endCursor: page.at(-1)?.id ?? null
          }
        }
      },
      issueLabels: ({ filter }: { filter?: { name?: { eqIgnoreCase?: string } } }) => ({
        nodes: [...this.labels.values()]
          .filter((l) => l.name.toLowerCase() === filter?.name?.eqIgnoreCase?.toLowerCase())
          .map(labelView)
      }),
      issueUpdate: ({ id, input }: { id: string; input: { stateId?: string } }) => {
        const i = findIssue(id)
        if (input.stateId !== undefined) {
          if (!this.teamOf(i).states.some((s) => s.id === input.stateId)) {
            throw new InvalidInput('stateId must be a state of the issue team')
          }
          this.setState(i, input.stateId)
        }
        touch(i)
        return { success: true, issue: issueView(i) }
      },
      commentCreate: ({ input }: { input: { issueId?: string; body?: string } }) => {
        if (!input.issueId || !input.body) throw new InvalidInput('issueId and body are required')
        const i = findIssue(input.issueId)
        const c = this.addComment(i, this.viewer, input.body)
        touch(i)
        return {
          success: true,
          comment: { ...c, url: `https://linear.app/fake/comment/${c.id}`, user: this.viewer }
        }
      },
      issueLabelCreate: ({ input }: { input: { name: string; teamId?: string } }) => {
        const label = { id: randomUUID(), name: input.name, teamId: input.teamId ?? null }
        this.labels.set(label.id, label)
        return { success: true, issueLabel: labelView(label) }
      },
      issueAddLabel: ({ id, labelId }: { id: string; labelId: string }) => {
        const i = findIssue(id)
        if (!this.labels.has(labelId)) throw new InvalidInput('Entity not found: IssueLabel')
        if (!i.labelIds.includes(labelId)) i.labelIds.push(labelId)
        return { success: true, issue: issueView(i) }
      },
      issueRemoveLabel: ({ id, labelId }: { id: string; labelId: string }) => {
        const i = findIssue(id)
        i.labelIds = i.labelIds.filter((l) => l !== labelId)
        return { success: true, issue: issueView(i) }
      },
      attachmentLinkGitHubPR: (a: {
        issueId: string
        url: string
        title?: string
        linkKind?: string
      }) => {
        const i = findIssue(a.issueId)
        const known = i.attachments.find((x) => x.url === a.url)
        if (known) known.title = a.title ?? known.title
        else
          i.attachments.push({ url: a.url, title: a.title ?? null, linkKind: a.linkKind ?? null })
        return { success: true }
      }
    }
  }
}

/** An error Linear reports as the caller's (a missing entity, a bad value). */
class InvalidInput extends GraphQLError {}

function linearError(message: string, code: string, type: string, userPresentableMessage?: string) {
  return {
    errors: [
      {
        message,
        extensions: {
          code,
          type,
          userError: true,
          ...(userPresentableMessage ? { userPresentableMessage } : {})
        }
      }
    ]
  }
}
