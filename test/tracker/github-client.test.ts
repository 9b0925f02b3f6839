import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { UserError } from '../../src/errors.js'
import { createGitHubClient, type GitHubClientOptions } from '../../src/tracker/github-client.js'
import {
  explainFailure,
  faultKind,
  GitHubAnswerLostError,
  GitHubRateLimitedError,
  GitHubUnavailableError
} from '../../src/tracker/github-errors.js'
import { FAULTS, type FakeGitHub, startFakeGitHub } from '../harness/fake-github.js'

const OP = {
  repo: 'GET /repos/{owner}/{repo}',
  issue: 'GET /repos/{owner}/{repo}/issues/{issue_number}',
  comment: 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
  setLabels: 'PUT /repos/{owner}/{repo}/issues/{issue_number}/labels',
  editComment: 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
  dispatch: 'POST /repos/{owner}/{repo}/dispatches'
}
const where = { owner: 'octo-org', repo: 'demo' }

let fake: FakeGitHub
let log: string[]

function client(extra: Partial<GitHubClientOptions> = {}) {
  return createGitHubClient({
    token: 't',
    apiUrl: fake.url,
    secondMs: 1,
    log: (m) => log.push(m),
    ...extra
  })
}

/** What a call fails with once the tracker has explained it (its `call` does just this). */
async function failure(doing: string, p: Promise<unknown>): Promise<Error> {
  try {
    await p
  } catch (e) {
    return explainFailure(e, doing, 'issues: write')
  }
  throw new Error('expected the call to fail')
}

beforeEach(async () => {
  fake = await startFakeGitHub()
  log = []
})

afterEach(async () => {
  expect(fake.violations).toEqual([])
  await fake.stop()
})

describe('GitHub client: a timeout on every request', () => {
  it('gives up on a request that is never answered and sends it again', async () => {
    const n = fake.addIssue({ title: 'x' })
    fake.fail(OP.issue, FAULTS.timeout())
    const c = client({ timeoutMs: 1000 })
    const started = Date.now()
    const { data } = await c.octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', {
      ...where,
      issue_number: n
    })
    expect(data.number).toBe(n)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(c.requests()).toBe(2)
    expect(log).toEqual([
      expect.stringMatching(
        /^no answer from GitHub on GET .*\/issues\/1: retrying in .*s \(retry 1 of 3\)$/
      )
    ])
  }, 10_000)

  it('says GitHub is unavailable when no answer comes within the retries', async () => {
    const n = fake.addIssue({ title: 'x' })
    fake.fail(OP.issue, FAULTS.timeout(), Infinity)
    const c = client({ timeoutMs: 100, retries: 2 })
    const e = await failure(
      'read issue #1',
      c.octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', {
        ...where,
        issue_number: n
      })
    )
    expect(e).toBeInstanceOf(GitHubUnavailableError)
    expect(e.message).toBe(
      'GitHub is unavailable: read issue #1: no answer within 100 ms (gave up after 3 attempts)'
    )
    expect(faultKind(e)).toBe('unavailable')
    expect((e as GitHubUnavailableError).status).toBe(0)
  }, 10_000)

  it('times out an answer whose body never ends, rather than taking it for an empty one', async () => {
    const sockets = new Set<import('node:net').Socket>()
    const stalling = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' })
      res.write('{"id": 1,')
    })
    stalling.on('connection', (s) => sockets.add(s))
    await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve))
    try {
      const port = (stalling.address() as AddressInfo).port
      const c = client({ apiUrl: `http://127.0.0.1:${port}`, timeoutMs: 150, retries: 1 })
      const e = await failure(
        'read the repository',
        c.octokit.request('GET /repos/{owner}/{repo}', where)
      )
      expect(e.message).toBe(
        'GitHub is unavailable: read the repository: no answer within 150 ms (gave up after 2 attempts)'
      )
    } finally {
      for (const s of sockets) s.destroy()
      await new Promise((resolve) => stalling.close(resolve))
    }
  }, 10_000)
})

describe('GitHub client: a write whose answer was lost is not sent again', () => {
  it.each([
    ['never answered', FAULTS.timeout(), 0],
    ['answered by a reset connection', FAULTS.connectionReset(), 0],
    ['done, but its connection closed before the answer', FAULTS.answerLost(), 1]
  ])(
    'a comment %s is sent once and reported as lost',
    async (_name, fault, landed) => {
      const n = fake.addIssue({ title: 'x' })
      fake.fail(OP.comment, fault)
      const c = client({ timeoutMs: 200 })
      const e = await failure(
        `comment on #${n}`,
        c.octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
          ...where,
          issue_number: n,
          body: 'hello'
        })
      )
      expect(e).toBeInstanceOf(GitHubAnswerLostError)
      expect(faultKind(e)).toBe('answer-lost')
      expect(e.message).toMatch(
        /^GitHub is unavailable: comment on #1: .*; the answer was lost, so it may have been done$/
      )
      expect(fake.requestsTo(OP.comment)).toHaveLength(1)
      expect(fake.comments(n)).toHaveLength(landed)
    },
    10_000
  )

  it('does not resend a write GitHub answered 5xx, which it can do after doing it', async () => {
    fake.fail(OP.dispatch, FAULTS.serverError(502))
    const c = client()
    const e = await failure(
      'send the repository_dispatch',
      c.octokit.request('POST /repos/{owner}/{repo}/dispatches', { ...where, event_type: 'x' })
    )
    expect(e).toBeInstanceOf(GitHubAnswerLostError)
    expect(e.message).toBe(
      'GitHub is unavailable: send the repository_dispatch: 502 Server Error; GitHub can answer so after doing it, so it may have been done'
    )
    expect((e as GitHubAnswerLostError).status).toBe(502)
    expect(fake.requestsTo(OP.dispatch)).toHaveLength(1)
  })

  it('resends a write the caller marks idempotent', async () => {
    const n = fake.addIssue({ title: 'x' })
    const op = 'POST /repos/{owner}/{repo}/issues/{issue_number}/labels'
    fake.fail(op, FAULTS.answerLost())
    fake.fail(op, FAULTS.serverError(502))
    const c = client()
    const { data } = await c.octokit.request(
      'POST /repos/{owner}/{repo}/issues/{issue_number}/labels',
      {
        ...where,
        issue_number: n,
        labels: ['Plan'],
        request: { idempotent: true }
      }
    )
    expect(data.map((l) => l.name)).toEqual(['Plan'])
    expect(fake.requestsTo(op).map((r) => r.status)).toEqual([0, 502, 200])
  })

  it('resends a write whose connection was never made, which GitHub cannot have seen', async () => {
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const c = client({ apiUrl: `http://127.0.0.1:${port}`, retries: 2 })
    const e = await failure(
      'comment on #1',
      c.octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        ...where,
        issue_number: 1,
        body: 'x'
      })
    )
    expect(e).toBeInstanceOf(GitHubUnavailableError)
    expect(e).not.toBeInstanceOf(GitHubAnswerLostError)
    expect(e.message).toBe(
      'GitHub is unavailable: comment on #1: the connection was refused (ECONNREFUSED) (gave up after 3 attempts)'
    )
    expect(c.requests()).toBe(3)
  })

  it.each([
    ['a secondary rate limit', FAULTS.secondaryRateLimit(1)],
    ['the legacy abuse-detection 403', FAULTS.abuseDetection(1)],
    ['a 429 without retry-after', FAULTS.tooManyRequests()],
    ['the primary rate limit', FAULTS.primaryRateLimit(1)]
  ])('resends a write refused by %s, which GitHub did not act on', async (_name, fault) => {
    const n = fake.addIssue({ title: 'x' })
    fake.fail(OP.comment, fault, 2)
    const c = client()
    await c.octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      ...where,
      issue_number: n,
      body: 'once'
    })
    expect(fake.comments(n).map((c) => c.body)).toEqual(['once'])
    expect(fake.requestsTo(OP.comment)).toHaveLength(3)
  })
})

describe('GitHub client: idempotent requests are retried with backoff', () => {
  it.each([
    ['GET', 'a 503', OP.issue, FAULTS.serverError(503)],
    ['GET', 'a reset connection', OP.issue, FAULTS.connectionReset()],
    ['PUT', 'a lost answer', OP.setLabels, FAULTS.answerLost()],
    ['PATCH', 'a 500', OP.editComment, FAULTS.serverError(500)]
  ])('retries a %s after %s', async (_method, _fault, op, fault) => {
    const n = fake.addIssue({ title: 'x' })
    const id = fake.addComment(n, 'old')
    fake.fail(op, fault, 2)
    const c = client()
    if (op === OP.issue)
      await c.octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', {
        ...where,
        issue_number: n
      })
    if (op === OP.setLabels) {
      await c.octokit.request('PUT /repos/{owner}/{repo}/issues/{issue_number}/labels', {
        ...where,
        issue_number: n,
        labels: ['Plan']
      })
      expect(fake.labels(n)).toEqual(['Plan'])
    }
    if (op === OP.editComment) {
      await c.octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', {
        ...where,
        comment_id: id,
        body: 'new'
      })
      expect(fake.comments(n)[0]?.body).toBe('new')
    }
    expect(fake.requestsTo(op)).toHaveLength(3)
  })

  it('retries the abuse-detection 403 like a secondary limit, after its retry-after', async () => {
    fake.fail(OP.repo, FAULTS.abuseDetection(2))
    await client().octokit.request('GET /repos/{owner}/{repo}', where)
    expect(log).toEqual([
      expect.stringMatching(
        /^GitHub secondary rate limit on GET .*: retrying in 2s \(retry 1 of 3\)$/
      )
    ])
  })
})

describe('GitHub client: failures named for what they are', () => {
  it('says the rate limit outlasted the retries', async () => {
    fake.fail(OP.repo, FAULTS.secondaryRateLimit(1), Infinity)
    const e = await failure(
      'read the repository',
      client({ retries: 2 }).octokit.request('GET /repos/{owner}/{repo}', where)
    )
    expect(e).toBeInstanceOf(GitHubRateLimitedError)
    expect(faultKind(e)).toBe('rate-limited')
    expect(e.message).toBe(
      'GitHub is rate limiting this token: read the repository: 403 You have exceeded a secondary rate limit. Please wait a few minutes before you try again.; it asks to wait 1 s (gave up after 3 attempts)'
    )
    expect(fake.requestsTo(OP.repo)).toHaveLength(3)
  })

  it('fails at once on a primary limit that resets later than it may wait', async () => {
    fake.fail(OP.repo, FAULTS.primaryRateLimit(600))
    const c = client({ maxRetryAfter: 60 })
    const e = await failure(
      'read the repository',
      c.octokit.request('GET /repos/{owner}/{repo}', where)
    )
    expect(e).toBeInstanceOf(GitHubRateLimitedError)
    expect((e as GitHubRateLimitedError).retryAfterSeconds).toBeGreaterThan(60)
    expect(c.requests()).toBe(1)
    expect(log).toEqual([expect.stringMatching(/^GitHub rate limit on GET .*: giving up$/)])
  })

  it('keeps the mistakes a user can fix as UserErrors, and anything else as an API failure', async () => {
    fake.fail(OP.repo, FAULTS.badCredentials())
    fake.fail(OP.repo, FAULTS.notAccessible())
    const c = client()
    const bad = await failure(
      'read the repository',
      c.octokit.request('GET /repos/{owner}/{repo}', where)
    )
    const denied = await failure(
      'read the repository',
      c.octokit.request('GET /repos/{owner}/{repo}', where)
    )
    const missing = await failure(
      'read issue #99',
      c.octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', {
        ...where,
        issue_number: 99
      })
    )
    expect([bad, denied].map((e) => e instanceof UserError)).toEqual([true, true])
    expect(denied.message).toBe(
      'the token may not read the repository (403 Resource not accessible by integration); give the job `permissions: issues: write`'
    )
    expect([bad, denied, missing].map(faultKind)).toEqual(['user', 'user', 'api'])
    expect(missing.message).toBe('GitHub API failed to read issue #99: 404 Not Found')
    expect(faultKind(new Error('a bug'))).toBe('internal')
    expect(c.requests()).toBe(3)
  })

  it('tells a raw Octokit failure apart just as well', async () => {
    fake.fail(OP.comment, FAULTS.answerLost())
    const n = fake.addIssue({ title: 'x' })
    const raw = await client()
      .octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        ...where,
        issue_number: n,
        body: 'x'
      })
      .catch((e: unknown) => e)
    expect(faultKind(raw)).toBe('answer-lost')
  })

  it('keeps an HTML error page out of the one-line message', async () => {
    const page = http.createServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' })
      res.end(`<html><body><h1>Unicorn!</h1>\n<p>${'x'.repeat(1000)}</p></body></html>`)
    })
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve))
    try {
      const port = (page.address() as AddressInfo).port
      const c = client({ apiUrl: `http://127.0.0.1:${port}`, retry: false })
      const e = await failure(
        'read the repository',
        c.octokit.request('GET /repos/{owner}/{repo}', where)
      )
      expect(e.message).toMatch(/^GitHub is unavailable: read the repository: 502 Unicorn! x+…$/)
      expect(e.message.length).toBeLessThan(400)
    } finally {
      await new Promise((resolve) => page.close(resolve))
    }
  })
})

describe('GitHub client: writes are serial, without fixed spacing', () => {
  it('sends six writes, comments included, with no sleep between them', async () => {
    const n = fake.addIssue({ title: 'x' })
    const c = client({ secondMs: 1000 })
    const started = Date.now()
    for (let i = 0; i < 3; i++) {
      await c.octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        ...where,
        issue_number: n,
        body: `c${i}`
      })
      await c.octokit.request('PUT /repos/{owner}/{repo}/issues/{issue_number}/labels', {
        ...where,
        issue_number: n,
        labels: [`l${i}`]
      })
    }
    expect(Date.now() - started).toBeLessThan(1500)
    expect(fake.comments(n)).toHaveLength(3)
  })

  it('sends one write at a time, while reads go alongside', async () => {
    const n = fake.addIssue({ title: 'x' })
    fake.fail(OP.comment, FAULTS.slow(100), 3)
    const c = client()
    let read: Promise<unknown> | undefined
    // The read is sent while the first write is being served.
    fake.beforeNext(OP.comment, () => {
      read = c.octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', {
        ...where,
        issue_number: n
      })
    })
    await Promise.all(
      [1, 2, 3].map((i) =>
        c.octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
          ...where,
          issue_number: n,
          body: `c${i}`
        })
      )
    )
    await read
    expect(fake.requestsTo(OP.comment).map((r) => r.inFlight)).toEqual([0, 0, 0])
    expect(fake.comments(n).map((c) => c.body)).toEqual(['c1', 'c2', 'c3'])
    expect(fake.requestsTo(OP.issue)[0]?.inFlight).toBe(1)
  })

  it('keeps going after a write fails', async () => {
    const n = fake.addIssue({ title: 'x' })
    fake.fail(OP.comment, FAULTS.notAccessible())
    const c = client()
    const [first, second] = await Promise.allSettled([
      c.octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        ...where,
        issue_number: n,
        body: 'a'
      }),
      c.octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        ...where,
        issue_number: n,
        body: 'b'
      })
    ])
    expect([first.status, second.status]).toEqual(['rejected', 'fulfilled'])
    expect(fake.comments(n).map((c) => c.body)).toEqual(['b'])
  })
})

describe('GitHub client: the user agent', () => {
  afterEach(() => {
    delete process.env.ACTIONS_ORCHESTRATION_ID
  })

  it("adds the runner's orchestration id, as @actions/github does, made safe for a header", async () => {
    process.env.ACTIONS_ORCHESTRATION_ID = ' run 7/job:2 '
    await client({ userAgent: 'handoff-test/1.0' }).octokit.request(
      'GET /repos/{owner}/{repo}',
      where
    )
    process.env.ACTIONS_ORCHESTRATION_ID = 'run_7'
    await client({
      userAgent: 'handoff-test/1.0 actions_orchestration_id/run_7'
    }).octokit.request('GET /repos/{owner}/{repo}', where)
    delete process.env.ACTIONS_ORCHESTRATION_ID
    await client().octokit.request('GET /repos/{owner}/{repo}', where)
    expect(
      fake.requestsTo(OP.repo).map((r) => r.userAgent?.replace(/ octokit-core\.js.*/, ''))
    ).toEqual([
      'handoff-test/1.0 actions_orchestration_id/run_7_job_2',
      'handoff-test/1.0 actions_orchestration_id/run_7',
      'itervox-handoff-action'
    ])
  })
})
