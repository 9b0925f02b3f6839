import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { UserError } from '../../src/errors.js'
import { GitHubApiError } from '../../src/tracker/github-errors.js'
import { GitHubApi, type GitHubApiOptions } from '../../src/tracker/github-api.js'
import { FAULTS, type FakeGitHub, startFakeGitHub } from '../harness/fake-github.js'

const STATES = ['Todo', 'Plan', 'Review', 'Done']
const OP = {
  issue: 'GET /repos/{owner}/{repo}/issues/{issue_number}',
  issueLabels: 'GET /repos/{owner}/{repo}/issues/{issue_number}/labels',
  setLabels: 'PUT /repos/{owner}/{repo}/issues/{issue_number}/labels',
  listPulls: 'GET /repos/{owner}/{repo}/pulls',
  createPull: 'POST /repos/{owner}/{repo}/pulls',
  updatePull: 'PATCH /repos/{owner}/{repo}/pulls/{pull_number}',
  createLabel: 'POST /repos/{owner}/{repo}/labels',
  updateComment: 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
  dispatch: 'POST /repos/{owner}/{repo}/dispatches'
}

let fake: FakeGitHub
let log: string[]

function tracker(extra: Partial<GitHubApiOptions> = {}): GitHubApi {
  return new GitHubApi({
    token: 'test-token',
    apiUrl: fake.url,
    owner: 'octo-org',
    repo: 'demo',
    states: STATES,
    secondMs: 1,
    log: (m) => log.push(m),
    ...extra
  })
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p
  } catch (e) {
    return e as Error
  }
  throw new Error('expected the call to fail')
}

beforeEach(async () => {
  fake = await startFakeGitHub()
  log = []
})

afterEach(async () => {
  // Every request any test made conformed to GitHub's OpenAPI description.
  expect(fake.violations).toEqual([])
  expect(fake.responseErrors).toEqual([])
  await fake.stop()
})

describe('GitHubApi.getIssue', () => {
  it('reads an issue, its state being the one label that names a known state', async () => {
    const n = fake.addIssue({ title: 'Add a cache', body: 'Details', labels: ['bug', 'plan'] })
    const issue = await tracker().getIssue(String(n))
    expect(issue).toEqual({
      id: String(n),
      number: n,
      identifier: `#${n}`,
      title: 'Add a cache',
      description: 'Details',
      state: 'Plan',
      labels: ['bug', 'plan'],
      url: `https://github.com/octo-org/demo/issues/${n}`,
      isPullRequest: false,
      closed: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String)
    })
  })

  it('accepts #N, reads pull requests and closed issues, and gives an empty body as ""', async () => {
    const pr = fake.addPull({ title: 'A PR', head: 'itervox/9', labels: ['REVIEW'] })
    const closed = fake.addIssue({ title: 'Old', state: 'closed' })
    const t = tracker()
    expect(await t.getIssue(`#${pr}`)).toMatchObject({ isPullRequest: true, state: 'Review' })
    expect(await t.getIssue(String(closed))).toMatchObject({
      closed: true,
      state: null,
      description: ''
    })
  })

  it('refuses an issue with two state labels, naming both', async () => {
    const n = fake.addIssue({ title: 'x', labels: ['Plan', 'bug', 'review'] })
    const e = await failure(tracker().getIssue(String(n)))
    expect(e).toBeInstanceOf(UserError)
    expect(e.message).toBe(
      `issue #${n} has 2 state labels, "Plan" and "review"; remove all but one so its state is clear`
    )
  })

  it('says when the issue does not exist or the id is not a number', async () => {
    const t = tracker()
    expect((await failure(t.getIssue('404'))).message).toBe(
      'issue #404 does not exist in octo-org/demo'
    )
    const bad = await failure(t.getIssue('../etc'))
    expect(bad).toBeInstanceOf(UserError)
    expect(bad.message).toMatch(/"\.\.\/etc" is not a GitHub issue number/)
    expect(fake.requests).toHaveLength(1)
  })
})

describe('GitHubApi: repository, permissions and pull requests', () => {
  it('reports each role, using role_name to tell maintain and triage apart', async () => {
    const roles = ['admin', 'maintain', 'write', 'triage', 'read'] as const
    for (const r of roles) fake.addCollaborator(`user-${r}`, r)
    const t = tracker()
    for (const r of roles) expect(await t.permissionOf(`user-${r}`)).toBe(r)
    expect(await t.permissionOf('stranger')).toBe('none')
  })

  it('reads the default branch and whether the repository is a fork', async () => {
    await fake.stop()
    fake = await startFakeGitHub({ defaultBranch: 'trunk', fork: true })
    expect(await tracker().getRepo()).toEqual({ defaultBranch: 'trunk', fork: true })
  })

  it('reads a pull request, including one from a fork', async () => {
    const own = fake.addPull({ title: 'a', head: 'itervox/1', draft: true })
    const forked = fake.addPull({ title: 'b', head: 'patch-1', headRepo: 'mallory/demo' })
    const t = tracker()
    expect(await t.getPull(own)).toEqual({
      number: own,
      headRef: 'itervox/1',
      headRepoFullName: 'octo-org/demo',
      baseRef: 'main',
      defaultBranch: 'main',
      draft: true,
      state: 'open',
      merged: false,
      nodeId: expect.stringMatching(/^PR_/)
    })
    expect(await t.getPull(forked)).toMatchObject({ headRepoFullName: 'mallory/demo' })
    expect((await failure(t.getPull(99))).message).toBe(
      'pull request #99 does not exist in octo-org/demo'
    )
  })
})

describe('GitHubApi.upsertDraftPr', () => {
  const pr = { head: 'itervox/7', base: 'main', title: 'Issue #7', body: 'first' }

  it('creates a draft, then updates its body, and leaves an unchanged body alone', async () => {
    const t = tracker()
    const created = await t.upsertDraftPr(pr)
    expect(created).toEqual({
      number: 1,
      url: 'https://github.com/octo-org/demo/pull/1',
      nodeId: expect.stringMatching(/^PR_/),
      created: true
    })
    expect(fake.pulls()).toMatchObject([{ draft: true, head: 'itervox/7', body: 'first' }])
    expect(fake.requestsTo(OP.listPulls)[0]?.query).toEqual({
      state: 'open',
      head: 'octo-org:itervox/7',
      base: 'main'
    })

    const updated = await t.upsertDraftPr({ ...pr, title: 'ignored', body: 'second' })
    expect(updated).toEqual({ ...created, created: false })
    expect(fake.pulls()).toMatchObject([{ title: 'Issue #7', body: 'second' }])
    expect(fake.requestsTo(OP.updatePull)[0]?.body).toEqual({ body: 'second' })

    await t.upsertDraftPr({ ...pr, body: 'second' })
    expect(fake.requestsTo(OP.updatePull)).toHaveLength(1)
    expect(fake.requestsTo(OP.createPull)).toHaveLength(1)
  })

  it('updates the pull request another run created between its list and its create', async () => {
    fake.beforeNext(OP.createPull, () => {
      fake.addPull({ title: 'theirs', head: 'itervox/7', body: 'their body' })
    })
    const result = await tracker().upsertDraftPr(pr)
    expect(result).toMatchObject({ number: 1, created: false })
    expect(fake.pulls()).toMatchObject([{ number: 1, body: 'first' }])
    expect(fake.requests.map((r) => `${r.operation} ${r.status}`)).toEqual([
      `${OP.listPulls} 200`,
      `${OP.createPull} 422`,
      `${OP.listPulls} 200`,
      `${OP.updatePull} 200`
    ])
  })

  it('creates without listing for a branch this run just pushed, still handling a race', async () => {
    const t = tracker()
    expect(await t.upsertDraftPr({ ...pr, branchIsNew: true })).toMatchObject({ created: true })
    expect(fake.requests.map((r) => r.operation)).toEqual([OP.createPull])
    expect(await t.upsertDraftPr({ ...pr, body: 'again', branchIsNew: true })).toMatchObject({
      number: 1,
      created: false
    })
    expect(fake.pulls()).toMatchObject([{ number: 1, body: 'again' }])
  })

  it('opens a ready pull request where drafts are not supported', async () => {
    await fake.stop()
    fake = await startFakeGitHub({ draftPullRequests: false })
    expect(await tracker().upsertDraftPr(pr)).toMatchObject({ created: true })
    expect(fake.pulls()).toMatchObject([{ draft: false }])
  })

  it('explains a missing pull-requests permission', async () => {
    fake.fail(OP.createPull, FAULTS.notAccessible())
    const e = await failure(tracker().upsertDraftPr(pr))
    expect(e).toBeInstanceOf(UserError)
    expect(e.message).toBe(
      'the token may not create a pull request for itervox/7 (403 Resource not accessible by ' +
        'integration); give the job `permissions: pull-requests: write`'
    )
  })
})

describe('GitHubApi.moveState', () => {
  it('swaps the state label in one write, keeping the other labels', async () => {
    const n = fake.addIssue({ title: 'x', labels: ['bug', 'todo', 'p1'] })
    const result = await tracker().moveState(n, 'Todo', 'Plan', STATES)
    expect(result).toEqual({ moved: true, current: 'Plan' })
    expect(fake.labels(n)).toEqual(['bug', 'p1', 'Plan'])
    expect(fake.requestsTo(OP.setLabels).map((r) => r.body)).toEqual([
      { labels: ['bug', 'p1', 'Plan'] }
    ])
    expect(fake.requests).toHaveLength(2)
  })

  it('creates the target label when the repository has none', async () => {
    const n = fake.addIssue({ title: 'x', labels: ['Todo'] })
    expect(fake.repoLabels().map((l) => l.name)).toEqual(['Todo'])
    await tracker().moveState(n, 'Todo', 'Review', STATES)
    expect(fake.repoLabels().map((l) => l.name)).toEqual(['Todo', 'Review'])
  })

  it('leaves alone an issue someone moved elsewhere meanwhile', async () => {
    const n = fake.addIssue({ title: 'x', labels: ['Done'] })
    expect(await tracker().moveState(n, 'Plan', 'Review', STATES)).toEqual({
      moved: false,
      current: 'Done'
    })
    expect(fake.labels(n)).toEqual(['Done'])
    expect(fake.requestsTo(OP.setLabels)).toEqual([])
  })

  it('writes nothing when the issue is already in the target state', async () => {
    const n = fake.addIssue({ title: 'x', labels: ['review'] })
    expect(await tracker().moveState(n, 'Plan', 'Review', STATES)).toEqual({
      moved: false,
      current: 'Review'
    })
    expect(fake.requestsTo(OP.setLabels)).toEqual([])
  })

  it('keeps a state label a person added beside the old one: their move stands, only the old state goes', async () => {
    const n = fake.addIssue({ title: 'x', labels: ['bug', 'Todo', 'review'] })
    expect(await tracker().moveState(n, 'Todo', 'Plan', STATES)).toEqual({
      moved: true,
      current: 'Review'
    })
    expect(fake.labels(n)).toEqual(['bug', 'review'])
  })

  it('keeps two state labels people added, and says no one state holds', async () => {
    const n = fake.addIssue({ title: 'x', labels: ['Todo', 'review', 'done'] })
    expect(await tracker().moveState(n, 'Todo', 'Plan', STATES)).toEqual({
      moved: true,
      current: null
    })
    expect(fake.labels(n)).toEqual(['review', 'done'])
  })

  it("takes a person's second label that is the target itself as the move", async () => {
    const n = fake.addIssue({ title: 'x', labels: ['Todo', 'plan'] })
    expect(await tracker().moveState(n, 'Todo', 'Plan', STATES)).toEqual({
      moved: true,
      current: 'Plan'
    })
    expect(fake.labels(n)).toEqual(['plan'])
  })

  it('with no expected state, replaces every state label', async () => {
    const n = fake.addIssue({ title: 'x', labels: ['Plan', 'Review', 'bug'] })
    await tracker().moveState(n, null, 'Done', STATES)
    expect(fake.labels(n)).toEqual(['bug', 'Done'])
  })

  it('explains a missing issues permission, without retrying', async () => {
    const n = fake.addIssue({ title: 'x', labels: ['Todo'] })
    fake.fail(OP.setLabels, FAULTS.notAccessible(), 5)
    const e = await failure(tracker().moveState(n, 'Todo', 'Plan', STATES))
    expect(e).toBeInstanceOf(UserError)
    expect(e.message).toMatch(/give the job `permissions: issues: write`$/)
    expect(fake.requestsTo(OP.setLabels)).toHaveLength(1)
  })
})

describe('GitHubApi: labels and comments', () => {
  it('adds labels and removes one, a missing one included', async () => {
    const n = fake.addIssue({ title: 'x', labels: ['bug'] })
    const t = tracker()
    expect(await t.addLabels(n, ['needs-attention'])).toEqual(['bug', 'needs-attention'])
    await t.removeLabel(n, 'bug')
    await t.removeLabel(n, 'bug')
    expect(fake.labels(n)).toEqual(['needs-attention'])
  })

  it('comments', async () => {
    const n = fake.addIssue({ title: 'x' })
    const c = await tracker().comment(n, 'Hello')
    expect(c).toEqual({
      id: expect.any(Number),
      url: `https://github.com/octo-org/demo/issues/${n}#issuecomment-${c.id}`
    })
    expect(fake.comments(n)).toMatchObject([{ body: 'Hello', author: 'github-actions[bot]' }])
  })

  it('keeps one living status comment, found by its marker and edited in place', async () => {
    const n = fake.addIssue({ title: 'x' })
    for (let i = 0; i < 3; i++) fake.addComment(n, `chatter ${i}`, 'alice')
    const t = tracker()
    const first = await t.upsertComment(n, 'itervox-handoff:status', 'Stage plan: running')
    const second = await t.upsertComment(n, 'itervox-handoff:status', 'Stage plan: succeeded')
    expect(second).toEqual(first)
    const mine = fake.comments(n).filter((c) => c.author === 'github-actions[bot]')
    expect(mine.map((c) => c.body)).toEqual([
      '<!-- itervox-handoff:status -->\nStage plan: succeeded'
    ])
    await t.upsertComment(n, 'itervox-handoff:status', 'Stage plan: succeeded')
    expect(fake.requestsTo(OP.updateComment)).toHaveLength(1)
  })

  it("does not take over a person's comment that carries the marker", async () => {
    const n = fake.addIssue({ title: 'x' })
    fake.addComment(n, '<!-- itervox-handoff:status -->\nforged status', 'mallory')
    await tracker().upsertComment(n, 'itervox-handoff:status', 'real status')
    expect(fake.comments(n).map((c) => [c.author, c.body])).toEqual([
      ['mallory', '<!-- itervox-handoff:status -->\nforged status'],
      ['github-actions[bot]', '<!-- itervox-handoff:status -->\nreal status']
    ])
  })

  it('finds its status comment beyond the first page of comments', async () => {
    const n = fake.addIssue({ title: 'x' })
    for (let i = 0; i < 120; i++) fake.addComment(n, `chatter ${i}`, 'alice')
    const id = fake.addComment(n, '<!-- itervox-handoff:status -->\nold')
    expect(await tracker().upsertComment(n, 'itervox-handoff:status', 'new')).toMatchObject({ id })
    expect(fake.comments(n)).toHaveLength(121)
  })

  it('refuses a marker that could break out of the HTML comment', async () => {
    await expect(tracker().upsertComment(1, 'x --> <b>', 'body')).rejects.toThrow(
      /not a plain word/
    )
    expect(fake.requests).toEqual([])
  })
})

describe('GitHubApi.dispatch', () => {
  it('sends a repository_dispatch with the payload', async () => {
    await tracker().dispatch('itervox-handoff', { issue: 7, state: 'Review' })
    expect(fake.dispatches).toEqual([
      { eventType: 'itervox-handoff', clientPayload: { issue: 7, state: 'Review' } }
    ])
  })

  it('refuses a payload GitHub would refuse, and explains a missing contents permission', async () => {
    const big = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, i]))
    await expect(tracker().dispatch('x', big)).rejects.toThrow(/at most 10 keys/)
    fake.fail(OP.dispatch, FAULTS.notAccessible())
    const e = await failure(tracker().dispatch('itervox-handoff', {}))
    expect(e.message).toMatch(/give the job `permissions: contents: write`$/)
  })
})

describe('GitHubApi: transient failures are retried within a budget', () => {
  it.each([
    ['502 Bad Gateway', FAULTS.serverError(502), 502],
    ['429 Too Many Requests', FAULTS.tooManyRequests(), 429],
    ['a secondary rate limit (403 + retry-after)', FAULTS.secondaryRateLimit(2), 403],
    ['a secondary rate limit (429 + retry-after)', FAULTS.secondaryRateLimit(2, 429), 429],
    ['the primary rate limit', FAULTS.primaryRateLimit(1), 403],
    ['a connection reset', FAULTS.connectionReset(), 0]
  ])('retries %s, then succeeds', async (_name, fault, status) => {
    const n = fake.addIssue({ title: 'x', labels: ['Todo'] })
    fake.fail(OP.issue, fault, 2)
    const t = tracker()
    expect(await t.getIssue(String(n))).toMatchObject({ state: 'Todo' })
    expect(fake.requestsTo(OP.issue).map((r) => r.status)).toEqual([status, status, 200])
    expect(t.requestCount).toBe(3)
  })

  it('retries mutations too', async () => {
    const n = fake.addIssue({ title: 'x', labels: ['Todo'] })
    fake.fail(OP.setLabels, FAULTS.serverError(503))
    fake.fail(OP.dispatch, FAULTS.secondaryRateLimit(1))
    const t = tracker()
    await t.moveState(n, 'Todo', 'Plan', STATES)
    await t.dispatch('itervox-handoff', {})
    expect(fake.labels(n)).toEqual(['Plan'])
    expect(fake.dispatches).toHaveLength(1)
    expect(log.some((m) => /secondary rate limit .*retrying in 1s/.test(m))).toBe(true)
  })

  it('gives up after the retry budget with a one-line error', async () => {
    const n = fake.addIssue({ title: 'x' })
    fake.fail(OP.issue, FAULTS.serverError(502), 10)
    const e = await failure(tracker({ retries: 2 }).getIssue(String(n)))
    expect(e).toBeInstanceOf(GitHubApiError)
    expect(e.message).toBe(
      `GitHub is unavailable: read issue #${n}: 502 Server Error (gave up after 3 attempts)`
    )
    expect(fake.requestsTo(OP.issue)).toHaveLength(3)
  })

  it('does not wait out a rate limit longer than it may', async () => {
    const n = fake.addIssue({ title: 'x' })
    fake.fail(OP.issue, FAULTS.secondaryRateLimit(3600))
    const e = await failure(tracker({ maxRetryAfter: 60 }).getIssue(String(n)))
    expect(e.message).toMatch(
      /^GitHub is rate limiting this token: read issue #1: 403 You have exceeded a secondary rate limit.*; it asks to wait 3600 s$/
    )
    expect(fake.requestsTo(OP.issue)).toHaveLength(1)
    expect(log).toEqual([expect.stringMatching(/secondary rate limit on GET .*: giving up$/)])
  })

  it('does not retry at all when told not to', async () => {
    const n = fake.addIssue({ title: 'x' })
    fake.fail(OP.issue, FAULTS.serverError(502))
    await expect(tracker({ retry: false }).getIssue(String(n))).rejects.toThrow(/502/)
    expect(fake.requestsTo(OP.issue)).toHaveLength(1)
  })
})

describe('GitHubApi: the token', () => {
  it('says a rejected token is wrong', async () => {
    await fake.stop()
    fake = await startFakeGitHub({ token: 'the-real-token' })
    const e = await failure(tracker({ token: 'a-wrong-token' }).getRepo())
    expect(e).toBeInstanceOf(UserError)
    expect(e.message).toBe(
      'GitHub rejected the token (401 Bad credentials) when trying to read the repository; check the github-token input'
    )
    expect(e.message).not.toMatch(/a-wrong-token/)
  })

  it('sends the token and its user agent', async () => {
    await fake.stop()
    fake = await startFakeGitHub({ token: 'the-real-token' })
    await tracker({ token: 'the-real-token', userAgent: 'handoff-test/1.0' }).getRepo()
    expect(fake.requests[0]).toMatchObject({
      status: 200,
      userAgent: expect.stringMatching(/^handoff-test\/1\.0/)
    })
  })
})

describe('GitHubApi: requests a stage spends', () => {
  it('runs the GitHub side of a first stage in 8 requests, and of a later one in 9', async () => {
    fake.addCollaborator('alice', 'write')
    const n = fake.addIssue({ title: 'Add a cache', labels: ['Plan'] })
    const stage = async (from: string, to: string, branchIsNew: boolean) => {
      const t = tracker()
      const issue = await t.getIssue(String(n))
      expect(await t.permissionOf('alice')).toBe('write')
      const pr = await t.upsertDraftPr({
        head: `itervox/${n}`,
        base: 'main',
        title: issue.title,
        body: `after ${from}`,
        branchIsNew
      })
      await t.upsertComment(n, 'itervox-handoff:status', `${from} succeeded`)
      await t.moveState(n, from, to, STATES)
      await t.dispatch('itervox-handoff', { issue: n, pull_request: pr.number })
      return t.requestCount
    }
    // issue, permission, PR create, comment list + create, labels read + write, dispatch
    expect(await stage('Plan', 'Review', true)).toBe(8)
    // ... and a later stage lists the PR before updating it
    expect(await stage('Review', 'Done', false)).toBe(9)
    expect(fake.labels(n)).toEqual(['Done'])
    expect(fake.comments(n)).toHaveLength(1)
    expect(fake.dispatches).toHaveLength(2)
  })
})
