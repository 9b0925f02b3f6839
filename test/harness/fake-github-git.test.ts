import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { cleanup, makeOrigin, type Origin } from '../git/repos.js'
import { openApi, startFakeGitHub, type FakeGitHub } from './fake-github.js'

const R = '/repos/octo-org/demo'

let origin: Origin
let fake: FakeGitHub

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(fake.url + path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const text = await res.text()
  // Test reads of known answer shapes.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const data = (text ? JSON.parse(text) : undefined) as Record<string, any>
  return { status: res.status, data }
}

beforeEach(async () => {
  origin = makeOrigin()
  fake = await startFakeGitHub({ originDir: origin.dir })
})

afterEach(async () => {
  await fake.stop()
  cleanup()
})

describe('fake GitHub: git data and workflow runs, on its bare origin', () => {
  it('answers each operation as GitHub does, conforming to the description', async () => {
    const main = await call('GET', `${R}/git/commits/${origin.main}`)
    expect(main.status).toBe(200)
    const tree = main.data.tree.sha as string
    const c = await call('POST', `${R}/git/commits`, { message: '{"a":1}', tree, parents: [] })
    expect([c.status, c.data.message]).toEqual([201, '{"a":1}'])
    const sha = c.data.sha as string
    expect((await call('POST', `${R}/git/refs`, { ref: 'refs/itervox/x/1', sha })).status).toBe(201)
    const again = await call('POST', `${R}/git/refs`, { ref: 'refs/itervox/x/1', sha })
    expect([again.status, again.data.message]).toEqual([422, 'Reference already exists'])
    const child = await call('POST', `${R}/git/commits`, { message: 'b', tree, parents: [sha] })
    const ff = await call('PATCH', `${R}/git/refs/itervox%2Fx%2F1`, { sha: child.data.sha })
    expect(ff.status).toBe(200)
    // Back to the parent is not a fast-forward.
    const back = await call('PATCH', `${R}/git/refs/itervox%2Fx%2F1`, { sha, force: false })
    expect([back.status, back.data.message]).toEqual([422, 'Update is not a fast forward'])
    const list = await call('GET', `${R}/git/matching-refs/itervox%2Fx%2F`)
    expect(list.data).toEqual([expect.objectContaining({ ref: 'refs/itervox/x/1' })])
    expect((await call('DELETE', `${R}/git/refs/itervox%2Fx%2F1`)).status).toBe(204)
    expect((await call('DELETE', `${R}/git/refs/itervox%2Fx%2F1`)).status).toBe(422)
    const bad = await call('POST', `${R}/git/commits`, { message: 'm', tree: sha })
    expect(bad.status).toBe(422)

    fake.setRun(77, 'completed', 'cancelled')
    expect((await call('GET', `${R}/actions/runs/77`)).data.status).toBe('completed')
    expect((await call('GET', `${R}/actions/runs/78`)).status).toBe(404)

    const served = new Set(fake.requests.map((r) => r.operation))
    expect(
      openApi().operationKeys.filter((k) => /\/git\/|\/actions\/runs\//.test(k) && !served.has(k))
    ).toEqual([])
    expect(fake.responseErrors).toEqual([])
    expect(fake.violations).toEqual([])
  })
})
