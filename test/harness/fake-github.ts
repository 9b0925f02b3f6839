// A small, stateful GitHub REST API on 127.0.0.1 for tests: the real client (or the bundled
// action, through GITHUB_API_URL) talks to it over HTTP. Every request is recorded and checked
// against GitHub's OpenAPI description; one that does not conform is answered 422 and listed in
// `violations`, which tests assert is empty. Faults (rate limits, 5xx, permission errors, resets,
// requests never answered or answered too late, writes done but not answered) can be injected
// per operation, for its next N requests or for good.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { GitHubState, type RepoOptions } from './fake-github-state.js'
import { answerGraphql } from './fake-github-graphql.js'
import { gitRoutes } from './fake-github-git.js'
import { errorReply, notFound, routes, type Reply, type Route } from './fake-github-routes.js'
import { GitObjectReader } from './git-object-reader.js'
import { issueJson, type Roots } from './github-objects.js'
import { OpenApiSubset } from './openapi.js'

export interface FakeGitHubOptions extends RepoOptions {
  /** When set, a request without `Authorization: token <this>` (or Bearer) gets 401. */
  token?: string
  /** False makes draft pull requests unsupported, as on a plan without them. Default true. */
  draftPullRequests?: boolean
  /** A bare git repository standing for the remote: pull request heads must exist there. */
  originDir?: string
  /** GitHub's web root for `html_url`s; default https://github.com. */
  htmlUrl?: string
}

export interface RecordedRequest {
  method: string
  path: string
  query: Record<string, string>
  body: unknown
  /** `METHOD /template` of the matched operation; undefined when nothing matched. */
  operation?: string
  userAgent?: string
  /** The status the fake answered; 0 when no answer was sent (reset, hung, answer lost). */
  status: number
  /** How many other requests were being served when this one arrived. */
  inFlight: number
}

export interface Violation {
  method: string
  path: string
  operation?: string
  errors: string[]
}

export type Fault =
  | { status: number; message: string; headers?: Record<string, string> }
  /** Closes the connection before anything is done. */
  | { reset: true }
  /** Accepts the request and never answers (the client's timeout must end it). */
  | { hang: true }
  /** Does what the request asks (a write lands), then closes the connection instead of answering. */
  | { answerLost: true }
  /** Answers normally, this many ms late. */
  | { delayMs: number }

const SECONDARY_LIMIT_MESSAGE =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.'

/** The failures GitHub produces that a client must survive or report well. */
export const FAULTS = {
  serverError: (status = 502): Fault => ({ status, message: 'Server Error' }),
  /** A secondary rate limit; GitHub answers it with 403 or 429 and a `retry-after`. */
  secondaryRateLimit: (retryAfterSeconds = 1, status: 403 | 429 = 403): Fault => ({
    status,
    message: SECONDARY_LIMIT_MESSAGE,
    headers: { 'retry-after': String(retryAfterSeconds) }
  }),
  /** The primary (hourly) limit is spent; it resets after the given seconds. */
  primaryRateLimit: (resetInSeconds = 1): Fault => ({
    status: 403,
    message: 'API rate limit exceeded for installation ID 1.',
    headers: {
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + resetInSeconds)
    }
  }),
  tooManyRequests: (): Fault => ({ status: 429, message: 'Too Many Requests' }),
  notAccessible: (): Fault => ({ status: 403, message: 'Resource not accessible by integration' }),
  badCredentials: (): Fault => ({ status: 401, message: 'Bad credentials' }),
  /** The secondary limit under its legacy name, still sent on content creation. */
  abuseDetection: (retryAfterSeconds = 1): Fault => ({
    status: 403,
    message:
      'You have triggered an abuse detection mechanism and have been temporarily blocked from ' +
      'content creation. Please retry your request again later.',
    headers: { 'retry-after': String(retryAfterSeconds) }
  }),
  connectionReset: (): Fault => ({ reset: true }),
  timeout: (): Fault => ({ hang: true }),
  answerLost: (): Fault => ({ answerLost: true }),
  slow: (delayMs: number): Fault => ({ delayMs })
}

const MAX_BODY_BYTES = 1024 * 1024

/** A reply with its body as sent, when the fake has already serialised it. */
type Answer = Reply & { text?: string }

interface SuccessAnswer {
  method: string
  path: string
  operation: string
  status: number
  text: string | undefined
}

let subset: OpenApiSubset | undefined
/** The description is compiled once per process; every fake shares it. */
export function openApi(): OpenApiSubset {
  subset ??= OpenApiSubset.load()
  return subset
}

export class FakeGitHub extends GitHubState {
  readonly requests: RecordedRequest[] = []
  /** Requests that broke the OpenAPI description; tests assert this stays empty. */
  readonly violations: Violation[] = []
  private readonly checkedResponses: Violation[] = []
  /** Success answers not yet checked against the description: most suites never ask. */
  private readonly uncheckedResponses: SuccessAnswer[] = []
  private readonly api = openApi()
  private readonly faults = new Map<string, Array<{ fault: Fault; left: number }>>()
  private readonly hooks = new Map<string, Array<() => void | Promise<void>>>()
  private readonly pageLinks = new Map<string, 'loop' | 'endless'>()
  private readonly opts: FakeGitHubOptions
  private server?: Server
  private reader?: GitObjectReader
  private routeTable?: Record<string, Route>
  private base = ''
  private open = 0

  constructor(opts: FakeGitHubOptions = {}) {
    super(opts)
    this.opts = opts
  }

  /** The API root to give a client (`GITHUB_API_URL`). */
  get url(): string {
    if (!this.base) throw new Error('the fake GitHub is not started')
    return this.base
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((e: unknown) => {
        this.send(res, errorReply(500, `fake GitHub failed: ${String(e)}`))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    this.server = server
    this.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const roots = this.roots()
    if (this.opts.originDir) this.reader = new GitObjectReader(this.opts.originDir)
    this.routeTable = {
      ...routes(this, roots, {
        draftPullRequests: this.opts.draftPullRequests ?? true,
        originDir: this.opts.originDir
      }),
      ...gitRoutes(this, roots, this.opts.originDir, this.reader, this.runs)
    }
    return this
  }

  private roots(): Roots {
    return { api: this.base, html: this.opts.htmlUrl ?? 'https://github.com' }
  }

  async stop(): Promise<void> {
    const server = this.server
    if (!server) return
    this.server = undefined
    this.reader?.close()
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  /**
   * Answers the next `times` requests to `operation` (`METHOD /template`) with a fault; with
   * `Infinity`, every request from now on, until `heal`. Faults queue up in the order given.
   */
  fail(operation: string, fault: Fault, times = 1): void {
    this.known(operation)
    if (!(times >= 1)) throw new Error(`a fault is for at least one request, not ${times}`)
    this.faults.set(operation, [...(this.faults.get(operation) ?? []), { fault, left: times }])
  }

  /** Drops the faults still waiting for `operation`, or for every operation. */
  heal(operation?: string): void {
    if (operation === undefined) return this.faults.clear()
    this.known(operation)
    this.faults.delete(operation)
  }

  /**
   * Makes the `Link` headers of `operation`'s pages go wrong from now on: `loop` links its last
   * page back to the first, `endless` links every page to one more, past the end.
   */
  linkPages(operation: string, how: 'loop' | 'endless'): void {
    this.known(operation)
    this.pageLinks.set(operation, how)
  }

  /** Runs `fn` just before the next request to `operation` is served (to stage a race). */
  beforeNext(operation: string, fn: () => void | Promise<void>): void {
    this.known(operation)
    this.hooks.set(operation, [...(this.hooks.get(operation) ?? []), fn])
  }

  /** The recorded requests to one operation. */
  requestsTo(operation: string): RecordedRequest[] {
    this.known(operation)
    return this.requests.filter((r) => r.operation === operation)
  }

  /** Success responses of the fake's own that break the description (keeps the fake honest). */
  get responseErrors(): Violation[] {
    for (const a of this.uncheckedResponses.splice(0)) {
      const body = a.text === undefined ? undefined : (JSON.parse(a.text) as unknown)
      const errors = this.api.checkResponse(a.operation, a.status, body)
      if (errors.length) {
        this.checkedResponses.push({
          method: a.method,
          path: a.path,
          operation: a.operation,
          errors
        })
      }
    }
    return this.checkedResponses
  }

  private known(operation: string): void {
    if (!this.api.has(operation)) {
      throw new Error(`the fake GitHub serves no operation "${operation}"`)
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base)
    const method = (req.method ?? 'GET').toUpperCase()
    const raw = await readBody(req)
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: undefined,
      userAgent: req.headers['user-agent'],
      status: 0,
      inFlight: this.open
    }
    this.requests.push(record)
    this.open++
    let served = false
    const done = (): void => {
      if (!served) this.open--
      served = true
    }
    // A hung request is done when its client gives up or the fake stops.
    res.on('close', done)
    const reply = await this.respond(record, url, raw, req.headers.authorization)
    if (reply === 'hang') return
    if (reply === 'reset') {
      req.socket.destroy()
    } else {
      record.status = reply.status
      this.send(res, reply)
    }
    done()
  }

  private async respond(
    record: RecordedRequest,
    url: URL,
    raw: Buffer | 'too large',
    authorization: string | undefined
  ): Promise<Answer | 'reset' | 'hang'> {
    const violation = (errors: string[]): void => {
      this.violations.push({
        method: record.method,
        path: record.path,
        operation: record.operation,
        errors
      })
    }
    if (record.method === 'POST' && url.pathname === '/graphql') {
      record.operation = 'POST /graphql'
      return this.graphql(record, raw)
    }
    // Where a transferred issue's redirect points (an address outside the OpenAPI description).
    const there = /^\/repositories\/(\d+)\/issues\/(\d+)(\/comments)?$/.exec(url.pathname)
    if (there && record.method === 'GET') {
      const moved = this.transferredTo(Number(there[1]), Number(there[2]))
      if (!moved) return notFound()
      if (there[3]) return { status: 200, body: [] }
      const labels = this.issueLabels(moved.issue)
      return { status: 200, body: issueJson(this.roots(), moved.repo, moved.issue, labels, 0) }
    }
    const op = this.api.match(record.method, url.pathname)
    if (!op) {
      violation(['no such operation in the OpenAPI subset the fake serves'])
      return notFound()
    }
    record.operation = op.key
    if (raw === 'too large') return errorReply(413, 'Payload Too Large')
    const bodyPresent = raw.length > 0
    if (bodyPresent) {
      try {
        record.body = JSON.parse(raw.toString('utf8'))
      } catch {
        violation(['body: not JSON'])
        return errorReply(400, 'Problems parsing JSON')
      }
    }
    const errors = this.api.checkRequest(op, record.query, record.body, bodyPresent)
    if (errors.length) {
      violation(errors)
      return errorReply(
        422,
        `Invalid request (fake GitHub, OpenAPI ${op.operationId}): ${errors.join('; ')}`
      )
    }
    if (this.opts.token !== undefined && !authorizedBy(authorization, this.opts.token)) {
      return errorReply(401, 'Bad credentials')
    }
    const { owner = '', repo = '' } = op.params
    if (
      owner.toLowerCase() !== this.owner.toLowerCase() ||
      repo.toLowerCase() !== this.repo.toLowerCase()
    ) {
      return notFound()
    }
    const moved = op.params.issue_number && this.transferOf(Number(op.params.issue_number))
    if (moved) {
      // GitHub's answer for an issue's old address, the issue's own and those under it.
      const under = url.pathname.replace(/^\/repos\/[^/]+\/[^/]+\/issues\/\d+/, '')
      const location = `${this.base}/repositories/${moved.repo.id}/issues/${moved.issue.number}${under}`
      return {
        status: 301,
        headers: { location },
        body: {
          message: 'Moved Permanently',
          url: location,
          documentation_url: 'https://docs.github.com/rest'
        }
      }
    }
    for (const hook of this.takeHooks(op.key)) await hook()
    const fault = this.takeFault(op.key)
    if (fault && 'reset' in fault) return 'reset'
    if (fault && 'hang' in fault) return 'hang'
    if (fault && 'status' in fault) {
      return { ...errorReply(fault.status, fault.message), headers: fault.headers }
    }
    if (fault && 'delayMs' in fault) await sleep(fault.delayMs)
    const route = this.routeTable?.[op.key]
    if (!route) throw new Error(`the fake has no route for ${op.key}`)
    const reply = await route({
      params: op.params,
      query: record.query,
      body: record.body,
      url
    })
    if (reply.status !== op.successStatus) return fault && 'answerLost' in fault ? 'reset' : reply
    const links = this.pageLinks.get(op.key)
    if (links)
      reply.headers = { ...reply.headers, link: wrongLinks(url, reply.headers?.link, links) }
    // Serialised once, for the answer and for the check; a lost answer is checked too.
    const text = reply.body === undefined ? undefined : JSON.stringify(reply.body)
    this.uncheckedResponses.push({
      method: record.method,
      path: record.path,
      operation: op.key,
      status: reply.status,
      text
    })
    return fault && 'answerLost' in fault ? 'reset' : { ...reply, text }
  }

  private async graphql(record: RecordedRequest, raw: Buffer | 'too large'): Promise<Reply> {
    let doc: { query?: unknown; variables?: unknown } | undefined
    try {
      doc = raw === 'too large' ? undefined : (JSON.parse(raw.toString()) as typeof doc)
    } catch {
      doc = undefined
    }
    record.body = doc
    const answer = await answerGraphql(this, doc, this.opts.originDir)
    if (answer.violation) {
      this.violations.push({ method: 'POST', path: '/graphql', errors: [answer.violation] })
    }
    return { status: answer.status, body: answer.body }
  }

  private takeHooks(key: string): Array<() => void | Promise<void>> {
    const hooks = this.hooks.get(key) ?? []
    this.hooks.delete(key)
    return hooks
  }

  private takeFault(key: string): Fault | undefined {
    const queue = this.faults.get(key)
    const next = queue?.[0]
    if (!next) return undefined
    if (--next.left <= 0) queue.shift()
    return next.fault
  }

  private send(res: ServerResponse, reply: Answer): void {
    if (res.headersSent) return
    const headers: Record<string, string> = {
      'x-github-request-id': `FAKE:${this.requests.length}`,
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '4999',
      'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 3600),
      'x-ratelimit-resource': 'core',
      ...reply.headers
    }
    if (reply.body === undefined) {
      res.writeHead(reply.status, headers).end()
      return
    }
    const text = reply.text ?? JSON.stringify(reply.body)
    res
      .writeHead(reply.status, {
        ...headers,
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(text))
      })
      .end(text)
  }
}

/** A page's `Link` header gone wrong: `loop` sends the last page back to the first. */
function wrongLinks(url: URL, link: string | undefined, how: 'loop' | 'endless'): string {
  const page = Number(url.searchParams.get('page') ?? 1)
  const to = (n: number) => {
    const u = new URL(url)
    u.searchParams.set('page', String(n))
    return `<${u.toString()}>; rel="next"`
  }
  if (how === 'endless') return to(page + 1)
  return link?.includes('rel="next"') ? link : [link, to(1)].filter(Boolean).join(', ')
}

function authorizedBy(header: string | undefined, token: string): boolean {
  return header === `token ${token}` || header === `Bearer ${token}`
}

// Events, not `for await`: an async iterator per request cost more than the rest of reading.
function readBody(req: IncomingMessage): Promise<Buffer | 'too large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
    })
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? 'too large' : Buffer.concat(chunks)))
    req.on('error', reject)
    req.on('close', () => reject(new Error('the request closed before its end')))
  })
}

/** Starts a fake GitHub; call `stop()` when done. */
export async function startFakeGitHub(opts: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  return new FakeGitHub(opts).start()
}
