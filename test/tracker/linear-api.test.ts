import { afterEach, describe, expect, it } from '@jest/globals'
import { UserError } from '../../src/errors.js'
import {
  DEFAULT_LINEAR_URL,
  LinearApi,
  LinearRateLimitError,
  LinearRefused,
  LinearUnavailableError,
  linearEndpoint
} from '../../src/tracker/linear-api.js'
import { FakeLinear } from '../harness/fake-linear.js'

let fake: FakeLinear
afterEach(async () => {
  expect(fake.violations).toEqual([])
  await fake.close()
})

const client = (o: { apiKey?: string; maxWaitMs?: number } = {}) =>
  new LinearApi({ apiKey: o.apiKey ?? fake.apiKey, url: fake.url, maxWaitMs: o.maxWaitMs ?? 2000 })

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p
  } catch (e) {
    return e as Error
  }
  throw new Error('it did not fail')
}

describe('the Linear client', () => {
  it('sends the personal key as it is, and reads an issue by its key', async () => {
    fake = await FakeLinear.start()
    const team = fake.addTeam('ENG')
    fake.addIssue(team, { title: 'Add CSV export', state: 'Todo' })
    const api = client()
    const issue = await api.issue('eng-1')
    expect(issue).toMatchObject({ identifier: 'ENG-1', title: 'Add CSV export', description: null })
    expect(issue?.state.name).toBe('Todo')
    expect(fake.requests.map((r) => [r.operation, r.authorization])).toEqual([
      ['Issue', fake.apiKey]
    ])
    expect(api.requestCount).toBe(1)
  })

  it('reads errors[] on an HTTP 200: a missing issue is null, another refusal throws', async () => {
    fake = await FakeLinear.start()
    const team = fake.addTeam('ENG')
    const api = client()
    expect(await api.issue('ENG-404')).toBeNull()
    expect(fake.requests[0]?.status).toBe(200)
    fake.addIssue(team, { title: 'x', state: 'Todo' })
    const e = await failure(api.moveIssue('ENG-1', 'not-a-state'))
    expect(e).toBeInstanceOf(LinearRefused)
    expect(e.message).toBe('Linear refused Move: stateId must be a state of the issue team')
  })

  it('says in one line that a refused key is to be replaced', async () => {
    fake = await FakeLinear.start()
    const e = await failure(client({ apiKey: 'lin_api_revoked' }).viewer())
    expect(e).toBeInstanceOf(UserError)
    expect(e.message).toMatch(/^LINEAR_API_KEY was refused by Linear; create a personal API key/)
    expect(e.message).not.toContain('\n')
  })

  it('waits out a rate limit by its reset header and retries, a bounded number of times', async () => {
    fake = await FakeLinear.start()
    fake.faults.push({ rateLimited: { resetMs: 30 } }, { rateLimited: { resetMs: 30 } })
    const api = client()
    expect(await api.viewer()).toEqual(fake.viewer)
    expect(api.requestCount).toBe(3)

    fake.faults.push(...Array.from({ length: 3 }, () => ({ rateLimited: { resetMs: 30 } })))
    const spent = await failure(api.viewer())
    expect(spent).toBeInstanceOf(LinearRateLimitError)
    expect(api.requestCount).toBe(6)
  })

  it('fails at once when the rate limit resets later than a job waits', async () => {
    fake = await FakeLinear.start()
    fake.faults.push({ rateLimited: { resetMs: 3_600_000 } })
    const api = client()
    const e = await failure(api.viewer())
    expect(e).toBeInstanceOf(LinearRateLimitError)
    expect(e.message).toMatch(/resets in 3600 s/)
    expect(api.requestCount).toBe(1)
  })

  it('retries a query once through a 5xx, and reports an outage as LinearUnavailableError', async () => {
    fake = await FakeLinear.start()
    fake.faults.push({ status: 502 })
    const api = client()
    expect(await api.viewer()).toEqual(fake.viewer)
    fake.faults.push({ status: 503 }, { status: 503 })
    expect(await failure(api.viewer())).toBeInstanceOf(LinearUnavailableError)
  })

  it('never sends a mutation again after a 5xx: it may have been done', async () => {
    fake = await FakeLinear.start()
    const team = fake.addTeam('ENG')
    const issue = fake.addIssue(team, { title: 'x', state: 'Todo' })
    fake.faults.push({ status: 500 })
    const api = client()
    expect(await failure(api.createComment(issue.id, 'hello'))).toBeInstanceOf(
      LinearUnavailableError
    )
    expect(api.requestCount).toBe(1)
  })

  it('reports a connection refused as LinearUnavailableError', async () => {
    fake = await FakeLinear.start()
    const api = client()
    await fake.close()
    const e = await failure(api.viewer())
    expect(e).toBeInstanceOf(LinearUnavailableError)
    expect(e.message).toMatch(/^Linear is unreachable \(Viewer\)/)
  })

  it('takes its endpoint from LINEAR_API_URL', () => {
    expect(linearEndpoint({})).toBe(DEFAULT_LINEAR_URL)
    expect(linearEndpoint({ LINEAR_API_URL: 'http://127.0.0.1:9/graphql' })).toBe(
      'http://127.0.0.1:9/graphql'
    )
  })
})
