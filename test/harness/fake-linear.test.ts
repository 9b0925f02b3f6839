import { afterEach, describe, expect, it } from '@jest/globals'
import { FakeLinear } from './fake-linear.js'

let fake: FakeLinear
afterEach(() => fake.close())

const post = (body: unknown, authorization = fake.apiKey) =>
  fetch(fake.url, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body)
  })

describe('the fake Linear', () => {
  it('refuses a field outside the schema subset as Linear does, and lists it', async () => {
    fake = await FakeLinear.start()
    const res = await post({ query: 'query Q { viewer { id email } }' })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      errors: [
        {
          message: 'Cannot query field "email" on type "User".',
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED', type: 'graphql error', userError: true }
        }
      ]
    })
    expect(fake.violations).toEqual(['Cannot query field "email" on type "User".'])
  })

  it('refuses variables of the wrong type', async () => {
    fake = await FakeLinear.start()
    const res = await post({
      query: 'query Issue($id: String!) { issue(id: $id) { id } }',
      variables: { id: 7 }
    })
    expect(res.status).toBe(400)
    expect(fake.violations).toHaveLength(1)
  })

  it('refuses a personal key sent with Bearer, and says so', async () => {
    fake = await FakeLinear.start()
    const res = await post({ query: 'query V { viewer { id } }' }, `Bearer ${fake.apiKey}`)
    expect(res.status).toBe(400)
    const body = (await res.json()) as { errors: { extensions: { type: string } }[] }
    expect(body.errors[0]?.extensions.type).toBe('authentication error')
    expect(fake.violations).toEqual(['a personal API key is sent without Bearer'])
  })

  it('sends the rate-limit headers on every answer', async () => {
    fake = await FakeLinear.start()
    const res = await post({ query: 'query V { viewer { id } }' })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-ratelimit-requests-remaining')).toBe('4999')
  })
})
