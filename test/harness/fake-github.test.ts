import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { FAULTS, FakeGitHub, openApi, startFakeGitHub } from './fake-github.js'

const R = '/repos/octo-org/demo'

let fake: FakeGitHub

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {}
): Promise<{ status: number; data: unknown; headers: Headers }> {
  const res = await fetch(fake.url + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
  })
  const text = await res.text()
  return { status: res.status, data: text ? JSON.parse(text) : undefined, headers: res.headers }
}

beforeEach(async () => {
  fake = await startFakeGitHub()
})

afterEach(async () => {
  await fake.stop()
})

describe('fake GitHub: its answers conform to the OpenAPI description', () => {
  it('answers every operation it serves with a body that validates against the response schema', async () => {
    fake.addCollaborator('alice', 'maintain')
    const issue = fake.addIssue({ title: 'An issue', body: 'text', labels: ['Todo', 'bug'] })
    fake.addComment(issue, 'first', 'alice')
    const pr = fake.addPull({ title: 'A PR', head: 'itervox/1', labels: ['review'], draft: true })
    fake.addPull({ title: 'From a fork', head: 'patch-1', headRepo: 'mallory/demo' })

    const expectStatus = async (method: string, path: string, status: number, body?: unknown) => {
      const res = await call(method, path, body)
      expect({ method, path, status: res.status }).toEqual({ method, path, status })
      return res.data as Record<string, unknown>
    }
    await expectStatus('GET', R, 200)
    await expectStatus('GET', `${R}/actions/permissions`, 200)
    fake.actionsSettings.allowedActions = 'selected'
    await expectStatus('GET', `${R}/actions/permissions`, 200)
    await expectStatus('GET', `${R}/actions/permissions/workflow`, 200)
    await expectStatus('GET', `${R}/collaborators/alice/permission`, 200)
    await expectStatus('GET', `${R}/issues/${issue}`, 200)
    await expectStatus('GET', `${R}/issues/${pr}`, 200)
    await expectStatus('GET', `${R}/issues?labels=TODO&state=open`, 200)
    const blocker = fake.addIssue({ title: 'Blocker' })
    fake.addDependency(issue, blocker)
    const blockedBy = await expectStatus('GET', `${R}/issues/${issue}/dependencies/blocked_by`, 200)
    expect((blockedBy as unknown as Array<{ number: number }>).map((i) => i.number)).toEqual([
      blocker
    ])
    await expectStatus('GET', `${R}/issues/${blocker}/dependencies/blocking`, 200)
    await expectStatus('GET', `${R}/issues/${issue}/labels`, 200)
    await expectStatus('POST', `${R}/issues/${issue}/labels`, 200, { labels: ['extra'] })
    await expectStatus('PUT', `${R}/issues/${issue}/labels`, 200, { labels: ['plan', 'bug'] })
    await expectStatus('DELETE', `${R}/issues/${issue}/labels/bug`, 200)
    await expectStatus('GET', `${R}/issues/${issue}/comments`, 200)
    const events = await expectStatus('GET', `${R}/issues/${issue}/events`, 200)
    expect(Array.isArray(events) && events.length).toBeGreaterThan(0)
    const created = await expectStatus('POST', `${R}/issues/${issue}/comments`, 201, { body: 'hi' })
    await expectStatus('PATCH', `${R}/issues/comments/${String(created.id)}`, 200, {
      body: 'edited'
    })
    await expectStatus('GET', `${R}/labels`, 200)
    await expectStatus('POST', `${R}/labels`, 201, {
      name: 'new',
      color: 'ff0000',
      description: 'd'
    })
    await expectStatus('GET', `${R}/labels/NEW`, 200)
    await expectStatus('GET', `${R}/pulls?state=all`, 200)
    await expectStatus('POST', `${R}/pulls`, 201, {
      title: 't',
      head: 'itervox/9',
      base: 'main',
      body: 'b',
      draft: true
    })
    await expectStatus('GET', `${R}/pulls/${pr}`, 200)
    await expectStatus('PATCH', `${R}/pulls/${pr}`, 200, { body: 'new body', state: 'closed' })
    await expectStatus('POST', `${R}/dispatches`, 204, { event_type: 'x', client_payload: {} })

    // The git-data operations and workflow runs need a git origin: fake-github-git.test.ts.
    const served = new Set(fake.requests.map((r) => r.operation))
    expect(
      openApi().operationKeys.filter((k) => !served.has(k) && !/\/git\/|\/actions\/runs\//.test(k))
    ).toEqual([])
    expect(fake.responseErrors).toEqual([])
    expect(fake.violations).toEqual([])
  })

  it('names the @octokit/openapi version the subset was extracted from', () => {
    expect(openApi().source).toMatchObject({
      package: '@octokit/openapi',
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/)
    })
  })

  it('notices when one of its own answers breaks the response schema', () => {
    const errors = openApi().checkResponse('GET /repos/{owner}/{repo}/labels/{name}', 200, {
      id: 'not a number',
      name: 'x'
    })
    expect(errors.join('\n')).toMatch(/id must be integer/)
    expect(errors.join('\n')).toMatch(/must have required property 'color'/)
  })
})

describe('fake GitHub: requests that break the description are violations', () => {
  it('flags a misspelt body field and answers 422', async () => {
    const res = await call('POST', `${R}/pulls`, {
      title: 't',
      head: 'a',
      base: 'main',
      draf: true
    })
    expect(res.status).toBe(422)
    expect(fake.violations).toEqual([
      {
        method: 'POST',
        path: `${R}/pulls`,
        operation: 'POST /repos/{owner}/{repo}/pulls',
        errors: ['body must NOT have additional properties (draf)']
      }
    ])
    expect(fake.pulls()).toEqual([])
  })

  it('flags a wrongly typed field, a bad enum value and an unknown query parameter', async () => {
    await call('POST', `${R}/issues/1/comments`, { body: 42 })
    await call('GET', `${R}/pulls?state=bogus`)
    await call('GET', `${R}/labels?colour=red`)
    expect(fake.violations.map((v) => v.errors)).toEqual([
      ['body/body must be string'],
      ['query/state must be equal to one of the allowed values'],
      ['query must NOT have additional properties (colour)']
    ])
  })

  it('flags a missing required body, a body where none belongs, and a non-numeric number', async () => {
    fake.addIssue({ title: 'x', labels: ['a'] })
    await call('POST', `${R}/dispatches`)
    await call('DELETE', `${R}/issues/1/labels/a`, { unexpected: true })
    await call('GET', `${R}/issues/one`)
    expect(fake.violations.map((v) => v.errors)).toEqual([
      ['body: a JSON request body is required'],
      ['body: this operation takes no request body'],
      ['path/issue_number must be integer']
    ])
  })

  it('flags a body that is not JSON with 400', async () => {
    const res = await call('POST', `${R}/labels`, '{not json')
    expect(res.status).toBe(400)
    expect(fake.violations[0]?.errors).toEqual(['body: not JSON'])
  })

  it('answers 404 Not Found to an operation it does not serve, and flags it', async () => {
    const res = await call('GET', `${R}/branches`)
    expect(res).toMatchObject({ status: 404, data: { message: 'Not Found' } })
    expect(fake.violations).toHaveLength(1)
    expect(fake.violations[0]?.errors[0]).toMatch(/no such operation/)
  })

  it('answers 404 for another repository without flagging it', async () => {
    const res = await call('GET', '/repos/someone/else')
    expect(res.status).toBe(404)
    expect(fake.violations).toEqual([])
  })
})

describe('fake GitHub: state and GitHub rules', () => {
  it('records every request with its operation, query and body', async () => {
    await call('GET', `${R}/pulls?state=open&head=octo-org%3Aitervox%2F1`)
    expect(fake.requests).toEqual([
      {
        method: 'GET',
        path: `${R}/pulls`,
        query: { state: 'open', head: 'octo-org:itervox/1' },
        body: undefined,
        operation: 'GET /repos/{owner}/{repo}/pulls',
        userAgent: expect.any(String),
        status: 200,
        inFlight: 0
      }
    ])
    expect(fake.requestsTo('GET /repos/{owner}/{repo}/pulls')).toHaveLength(1)
  })

  it('matches labels case-insensitively and creates a label that is applied but missing', async () => {
    fake.addLabel('Todo', 'ff0000')
    const n = fake.addIssue({ title: 'x' })
    await call('POST', `${R}/issues/${n}/labels`, { labels: ['todo', 'brand-new'] })
    expect(fake.labels(n)).toEqual(['Todo', 'brand-new'])
    expect(fake.repoLabels().map((l) => [l.name, l.color])).toEqual([
      ['Todo', 'ff0000'],
      ['brand-new', 'ededed']
    ])
    const del = await call('DELETE', `${R}/issues/${n}/labels/TODO`)
    expect(del.status).toBe(200)
    expect(fake.labels(n)).toEqual(['brand-new'])
    const again = await call('DELETE', `${R}/issues/${n}/labels/TODO`)
    expect(again).toMatchObject({ status: 404, data: { message: 'Label does not exist' } })
  })

  it('refuses to create a label that exists in another case', async () => {
    fake.addLabel('Plan')
    const res = await call('POST', `${R}/labels`, { name: 'plan' })
    expect(res.status).toBe(422)
    expect(JSON.stringify(res.data)).toMatch(/already_exists/)
  })

  it('numbers issues and pull requests from one sequence and marks pull requests', async () => {
    const a = fake.addIssue({ title: 'a' })
    const b = fake.addPull({ title: 'b', head: 'feature' })
    expect([a, b]).toEqual([1, 2])
    const res = await call('GET', `${R}/issues/${b}`)
    expect(res.data).toHaveProperty('pull_request.url', `${fake.url}${R}/pulls/2`)
    expect(fake.issue(a)?.pullRequest).toBe(false)
  })

  it('filters pull requests by owner:branch head, base and state', async () => {
    fake.addPull({ title: 'a', head: 'itervox/1' })
    fake.addPull({ title: 'b', head: 'itervox/1', base: 'release' })
    fake.addPull({ title: 'c', head: 'itervox/1', headRepo: 'mallory/demo' })
    fake.addPull({ title: 'd', head: 'itervox/2', state: 'closed' })
    const titles = async (q: string) =>
      ((await call('GET', `${R}/pulls?${q}`)).data as Array<{ title: string }>).map((p) => p.title)
    expect(await titles('head=octo-org:itervox/1&base=main')).toEqual(['a'])
    expect(await titles('head=mallory:itervox/1')).toEqual(['c'])
    expect(await titles('state=closed')).toEqual(['d'])
    expect(await titles('state=all&direction=asc')).toEqual(['a', 'b', 'c', 'd'])
  })

  it('refuses a second open pull request for the same head and base', async () => {
    const body = { title: 't', head: 'itervox/3', base: 'main' }
    expect((await call('POST', `${R}/pulls`, body)).status).toBe(201)
    const second = await call('POST', `${R}/pulls`, body)
    expect(second.status).toBe(422)
    expect(JSON.stringify(second.data)).toMatch(
      /A pull request already exists for octo-org:itervox\/3/
    )
  })

  it('can refuse draft pull requests, as a plan without them does', async () => {
    await fake.stop()
    fake = await startFakeGitHub({ draftPullRequests: false })
    const res = await call('POST', `${R}/pulls`, {
      title: 't',
      head: 'x',
      base: 'main',
      draft: true
    })
    expect(res.status).toBe(422)
    expect(JSON.stringify(res.data)).toMatch(/Draft pull requests are not supported/)
  })

  it('pages lists with a Link header', async () => {
    const n = fake.addIssue({ title: 'x' })
    for (let i = 0; i < 5; i++) fake.addComment(n, `c${i}`, 'alice')
    const first = await call('GET', `${R}/issues/${n}/comments?per_page=2`)
    expect((first.data as unknown[]).length).toBe(2)
    expect(first.headers.get('link')).toMatch(/page=2>; rel="next".*page=3>; rel="last"/)
    const last = await call('GET', `${R}/issues/${n}/comments?per_page=2&page=3`)
    expect((last.data as Array<{ body: string }>).map((c) => c.body)).toEqual(['c4'])
  })

  it('records repository dispatches for the next run', async () => {
    await call('POST', `${R}/dispatches`, {
      event_type: 'itervox-handoff',
      client_payload: { issue: 7, state: 'review' }
    })
    expect(fake.dispatches).toEqual([
      { eventType: 'itervox-handoff', clientPayload: { issue: 7, state: 'review' } }
    ])
  })

  it('answers 401 Bad credentials to any other token when it expects one', async () => {
    await fake.stop()
    fake = await startFakeGitHub({ token: 'right' })
    expect((await call('GET', R, undefined, { authorization: 'token wrong' })).status).toBe(401)
    expect((await call('GET', R, undefined, { authorization: 'Bearer right' })).status).toBe(200)
  })

  it('runs a hook just before the next request to an operation', async () => {
    fake.beforeNext('GET /repos/{owner}/{repo}/issues/{issue_number}', () => {
      fake.addIssue({ title: 'made in time' })
    })
    expect((await call('GET', `${R}/issues/1`)).status).toBe(200)
    expect(() => fake.beforeNext('GET /nope', () => undefined)).toThrow(/serves no operation/)
  })
})

describe('fake GitHub: injected faults', () => {
  it('answers the next N requests with the fault, then normally', async () => {
    fake.fail('GET /repos/{owner}/{repo}', FAULTS.serverError(502), 2)
    expect((await call('GET', R)).status).toBe(502)
    expect((await call('GET', R)).status).toBe(502)
    expect((await call('GET', R)).status).toBe(200)
  })

  it('sends retry-after with a secondary rate limit, and rate-limit headers with a primary one', async () => {
    fake.fail('GET /repos/{owner}/{repo}', FAULTS.secondaryRateLimit(7, 429))
    fake.fail('GET /repos/{owner}/{repo}', FAULTS.primaryRateLimit(30))
    const secondary = await call('GET', R)
    expect(secondary.status).toBe(429)
    expect(secondary.headers.get('retry-after')).toBe('7')
    expect(secondary.data).toMatchObject({ message: expect.stringMatching(/secondary rate limit/) })
    const primary = await call('GET', R)
    expect(primary.status).toBe(403)
    expect(primary.headers.get('x-ratelimit-remaining')).toBe('0')
  })

  it('can reset the connection', async () => {
    fake.fail('GET /repos/{owner}/{repo}', FAULTS.connectionReset())
    await expect(call('GET', R)).rejects.toThrow()
    expect(fake.requests[0]?.status).toBe(0)
    expect((await call('GET', R)).status).toBe(200)
  })

  it('resets a write before doing it, or does it and then loses the answer', async () => {
    const n = fake.addIssue({ title: 'x' })
    const op = 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments'
    fake.fail(op, FAULTS.connectionReset())
    fake.fail(op, FAULTS.answerLost())
    await expect(call('POST', `${R}/issues/${n}/comments`, { body: 'one' })).rejects.toThrow()
    expect(fake.comments(n)).toEqual([])
    await expect(call('POST', `${R}/issues/${n}/comments`, { body: 'two' })).rejects.toThrow()
    expect(fake.comments(n).map((c) => c.body)).toEqual(['two'])
    expect(fake.requestsTo(op).map((r) => r.status)).toEqual([0, 0])
  })

  it('can accept a request and never answer it', async () => {
    fake.fail('GET /repos/{owner}/{repo}', FAULTS.timeout())
    const hung = await fetch(fake.url + R, { signal: AbortSignal.timeout(200) }).catch(
      (e: unknown) => e
    )
    expect((hung as Error).name).toBe('TimeoutError')
    expect(fake.requests[0]?.status).toBe(0)
    expect((await call('GET', R)).status).toBe(200)
  })

  it('keeps a fault for every request until healed', async () => {
    fake.fail('GET /repos/{owner}/{repo}', FAULTS.serverError(503), Infinity)
    for (let i = 0; i < 5; i++) expect((await call('GET', R)).status).toBe(503)
    fake.heal('GET /repos/{owner}/{repo}')
    expect((await call('GET', R)).status).toBe(200)
    expect(() => fake.fail('GET /repos/{owner}/{repo}', FAULTS.timeout(), 0)).toThrow(
      /at least one request/
    )
  })

  it('answers the legacy abuse-detection 403 with retry-after', async () => {
    fake.fail('GET /repos/{owner}/{repo}', FAULTS.abuseDetection(5))
    const res = await call('GET', R)
    expect(res.status).toBe(403)
    expect(res.headers.get('retry-after')).toBe('5')
    expect(res.data).toMatchObject({ message: expect.stringMatching(/abuse detection mechanism/) })
  })

  it('answers late when slowed, and records how many requests overlapped', async () => {
    fake.fail('GET /repos/{owner}/{repo}', FAULTS.slow(150), 2)
    const started = Date.now()
    const both = await Promise.all([call('GET', R), call('GET', R)])
    expect(both.map((r) => r.status)).toEqual([200, 200])
    expect(Date.now() - started).toBeGreaterThanOrEqual(150)
    expect(fake.requests.map((r) => r.inFlight).sort()).toEqual([0, 1])
    await call('GET', R)
    expect(fake.requests[2]?.inFlight).toBe(0)
  })
})

describe('fake GitHub: backed by a bare git origin', () => {
  let dir: string

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fake-origin-'))
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: dir,
        env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' }
      })
    const commit = (...args: string[]) =>
      git('-C', 'work', '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', ...args)
    git('init', '-q', '--bare', 'origin.git')
    git('init', '-q', '-b', 'main', 'work')
    commit('--allow-empty', '-m', 'base')
    git('-C', 'work', 'push', '-q', join(dir, 'origin.git'), 'main', 'main:refs/heads/same')
    writeFileSync(join(dir, 'work', 'f.md'), 'x')
    git('-C', 'work', 'add', 'f.md')
    commit('-m', 'work')
    git('-C', 'work', 'push', '-q', join(dir, 'origin.git'), 'HEAD:refs/heads/itervox/1')
  })

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('opens a pull request only for a head the origin has, with its commit', async () => {
    await fake.stop()
    fake = await startFakeGitHub({ originDir: join(dir, 'origin.git') })
    const head = execFileSync('git', [
      '--git-dir',
      join(dir, 'origin.git'),
      'rev-parse',
      'itervox/1'
    ])
      .toString()
      .trim()
    const ok = await call('POST', `${R}/pulls`, { title: 't', head: 'itervox/1', base: 'main' })
    expect(ok.status).toBe(201)
    expect(ok.data).toHaveProperty('head.sha', head)
    const missing = await call('POST', `${R}/pulls`, {
      title: 't',
      head: 'itervox/2',
      base: 'main'
    })
    expect(JSON.stringify(missing.data)).toMatch(/"field":"head","code":"invalid"/)
    const empty = await call('POST', `${R}/pulls`, { title: 't', head: 'same', base: 'main' })
    expect(JSON.stringify(empty.data)).toMatch(/No commits between main and same/)
    expect(fake.responseErrors).toEqual([])
  })
})
