import { createHmac } from 'node:crypto'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { triggerFromEvent } from '../../src/action/event.js'
import { DISPATCH_TYPE } from '../../src/pipeline/names.js'
import relayWorker, { linearRelay } from '../../src/relay/linear-webhook.js'
import { FAULTS, startFakeGitHub, type FakeGitHub } from '../harness/fake-github.js'
import { ROOT } from '../harness/action-run.js'
import { toDispatchEvent } from '../harness/events.js'

const SECRET = 'lin_wh_test-signing-secret'
const TOKEN = 'github_pat_relay-test-token'
const DISPATCHES = 'POST /repos/{owner}/{repo}/dispatches'

let fake: FakeGitHub
let relay: (request: Request) => Promise<Response>
let logs: string[]
let deliveries = 0

beforeAll(async () => {
  fake = await startFakeGitHub({ token: TOKEN })
})
afterAll(async () => {
  await fake.stop()
})
beforeEach(() => {
  fake.dispatches.length = 0
  fake.heal()
  logs = []
  relay = linearRelay({
    secret: SECRET,
    githubToken: TOKEN,
    repository: 'octo-org/demo',
    githubApiUrl: fake.url,
    log: (line) => logs.push(line)
  })
})

/** An Issue update as Linear sends it when the issue's state changes (the fields we read). */
function stateChange(o: { identifier?: string; to?: string; timestamp?: number } = {}) {
  return {
    action: 'update',
    type: 'Issue',
    createdAt: new Date().toISOString(),
    data: {
      id: '2c5b3a52-6c9f-4d8e-9a41-0f0d3e7b1a11',
      identifier: o.identifier ?? 'ENG-123',
      title: 'Add the export button',
      stateId: 'b1a7f0c2-0000-4000-8000-000000000002',
      state: { id: 'b1a7f0c2-0000-4000-8000-000000000002', name: o.to ?? 'In Progress' },
      team: { id: 'f00d0000-0000-4000-8000-000000000001', key: 'ENG', name: 'Engineering' }
    },
    updatedFrom: { stateId: 'b1a7f0c2-0000-4000-8000-000000000001', updatedAt: '2026-01-01' },
    url: 'https://linear.app/acme/issue/ENG-123/add-the-export-button',
    organizationId: 'a0000000-0000-4000-8000-000000000009',
    webhookTimestamp: o.timestamp ?? Date.now(),
    webhookId: 'c0000000-0000-4000-8000-000000000003'
  }
}

function sign(body: string, secret = SECRET): string {
  return createHmac('sha256', secret).update(body).digest('hex')
}

function delivery(
  event: unknown,
  o: { signature?: string | null; body?: string; id?: string; method?: string } = {}
): Request {
  const body = o.body ?? JSON.stringify(event)
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'linear-event': 'Issue',
    'linear-delivery': o.id ?? `d-${++deliveries}`
  }
  const signature = o.signature === undefined ? sign(body) : o.signature
  if (signature !== null) headers['linear-signature'] = signature
  return new Request('http://relay.test/linear', {
    method: o.method ?? 'POST',
    headers,
    ...(o.method === 'GET' ? {} : { body })
  })
}

async function send(request: Request): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await relay(request)
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describe('Linear webhook relay', () => {
  it('relays a signed state change as the wake-up the action reads', async () => {
    const res = await send(delivery(stateChange()))
    expect(res).toEqual({
      status: 200,
      body: { relayed: true, issue: 'ENG-123', state: 'In Progress' }
    })
    expect(fake.dispatches).toEqual([
      { eventType: DISPATCH_TYPE, clientPayload: { issue: 'ENG-123', state: 'In Progress' } }
    ])
    expect(fake.violations).toEqual([])
    expect(fake.requestsTo(DISPATCHES)).toHaveLength(1)

    // The job GitHub starts for it is a wake-up for the Linear issue, checked against its state.
    const event = toDispatchEvent(fake.dispatches[0]!, { sender: 'relay-user' })
    expect(triggerFromEvent('repository_dispatch', event, {})).toMatchObject({
      kind: 'run',
      source: 'wake',
      issue: 'ENG-123',
      state: 'In Progress'
    })
  })

  it('refuses a delivery whose signature is not the secret over these exact bytes', async () => {
    const event = stateChange()
    const body = JSON.stringify(event)
    const wrongSecret = await send(delivery(event, { signature: sign(body, 'another-secret') }))
    const tampered = await send(
      delivery(event, { body: body.replace('ENG-123', 'ENG-999'), signature: sign(body) })
    )
    // Same JSON, other bytes: the signature covers the raw body, not its meaning.
    const reformatted = await send(
      delivery(event, { body: JSON.stringify(event, null, 1), signature: sign(body) })
    )
    for (const res of [wrongSecret, tampered, reformatted]) {
      expect(res.status).toBe(401)
      expect(res.body.reason).toMatch(/^Linear-Signature does not match the body/)
    }
    expect(fake.dispatches).toEqual([])
  })

  it('refuses a delivery without a well-formed signature', async () => {
    const event = stateChange()
    for (const signature of [null, '', 'sha256=' + sign(JSON.stringify(event)), 'zz'.repeat(32)]) {
      const res = await send(delivery(event, { signature }))
      expect(res).toEqual({
        status: 401,
        body: { relayed: false, reason: 'no Linear-Signature of 64 hex digits' }
      })
    }
    expect(fake.dispatches).toEqual([])
  })

  it('refuses a signed delivery whose timestamp is not within a minute of now', async () => {
    for (const timestamp of [Date.now() - 120_000, Date.now() + 120_000]) {
      const res = await send(delivery(stateChange({ timestamp })))
      expect(res.status).toBe(401)
      expect(res.body.reason).toMatch(/^webhookTimestamp is not within 60 s of now/)
    }
    const untimed: Partial<ReturnType<typeof stateChange>> = stateChange()
    delete untimed.webhookTimestamp
    expect((await send(delivery(untimed))).status).toBe(401)
    expect(fake.dispatches).toEqual([])
  })

  it('answers 200 to events that are not issue state changes, and sends nothing', async () => {
    const change = stateChange()
    const cases: Array<[unknown, string]> = [
      [{ ...change, type: 'Comment', action: 'create' }, 'a "Comment" "create" event'],
      [{ ...change, action: 'create' }, 'a "Issue" "create" event'],
      [{ ...change, updatedFrom: { title: 'Old title' } }, "does not change the issue's state"],
      [{ ...change, data: { ...change.data, identifier: 'ENG-1; rm -rf' } }, 'no issue identifier']
    ]
    for (const [event, reason] of cases) {
      const res = await send(delivery(event))
      expect(res.status).toBe(200)
      expect(res.body.relayed).toBe(false)
      expect(res.body.reason).toContain(reason)
    }
    expect(fake.dispatches).toEqual([])
  })

  it('relays a delivery once however often Linear sends it', async () => {
    const event = stateChange()
    const first = await send(delivery(event, { id: 'same-delivery' }))
    const again = await send(delivery(event, { id: 'same-delivery' }))
    expect(first.body.relayed).toBe(true)
    expect(again).toEqual({
      status: 200,
      body: { relayed: false, reason: 'this delivery was relayed already' }
    })
    expect(fake.dispatches).toHaveLength(1)
  })

  it("answers 5xx when GitHub refuses, and relays Linear's retry of that delivery", async () => {
    fake.fail(DISPATCHES, FAULTS.notAccessible())
    const event = stateChange()
    const refused = await send(delivery(event, { id: 'retried' }))
    expect(refused).toEqual({
      status: 502,
      body: {
        relayed: false,
        reason:
          'the GitHub token may not send dispatches to octo-org/demo (it needs contents: write) (HTTP 403)'
      }
    })
    const retry = await send(delivery(event, { id: 'retried' }))
    expect(retry.body.relayed).toBe(true)
    expect(fake.dispatches).toHaveLength(1)
    expect(fake.violations).toEqual([])
  })

  it('refuses a body over the cap before anything else', async () => {
    const res = await send(delivery(stateChange(), { body: 'x'.repeat(1024 * 1024 + 1) }))
    expect(res.status).toBe(413)
    expect((await send(delivery(stateChange(), { method: 'GET' }))).status).toBe(405)
    expect(fake.dispatches).toEqual([])
  })

  it('relays only the configured team', async () => {
    relay = linearRelay({
      secret: SECRET,
      githubToken: TOKEN,
      repository: 'octo-org/demo',
      githubApiUrl: fake.url,
      team: 'eng',
      log: (line) => logs.push(line)
    })
    const other = await send(delivery(stateChange({ identifier: 'OPS-7' })))
    expect(other.body).toEqual({ relayed: false, reason: 'OPS-7 is not in team "eng"' })
    expect((await send(delivery(stateChange()))).body.relayed).toBe(true)
    expect(fake.dispatches).toHaveLength(1)
  })

  it('keeps untrusted text short in answers and logs, and never shows the secrets', async () => {
    const change = stateChange()
    const noisy = { ...change, type: `Issue\n${'x'.repeat(100_000)}`, action: 'update' }
    const res = await relay(delivery(noisy, { id: `id\t${'y'.repeat(10_000)}` }))
    const text = await res.text()
    expect(res.status).toBe(200)
    expect(text.length).toBeLessThan(200)
    await relay(delivery(change, { signature: sign(JSON.stringify(change), 'another-secret') }))
    await relay(delivery(stateChange()))
    for (const line of logs) {
      expect(line.length).toBeLessThan(200)
      expect(line).not.toMatch(/\n/)
      expect(line).not.toContain(SECRET)
      expect(line).not.toContain(TOKEN)
    }
    expect(text).not.toContain(SECRET)
    expect(logs).toHaveLength(3)
  })

  it('runs as a Worker whose env holds the configuration', async () => {
    const env = {
      LINEAR_WEBHOOK_SECRET: SECRET,
      GITHUB_TOKEN: TOKEN,
      GITHUB_REPOSITORY: 'octo-org/demo',
      GITHUB_API_URL: fake.url
    }
    const log = console.log
    console.log = (line: string) => logs.push(line)
    try {
      const res = await relayWorker.fetch(delivery(stateChange({ identifier: 'ENG-5' })), env)
      expect(res.status).toBe(200)
    } finally {
      console.log = log
    }
    expect(fake.dispatches).toEqual([
      { eventType: DISPATCH_TYPE, clientPayload: { issue: 'ENG-5', state: 'In Progress' } }
    ])
    const unset = await relayWorker.fetch(delivery(stateChange()), { ...env, GITHUB_TOKEN: '' })
    expect({ status: unset.status, body: await unset.json() }).toEqual({
      status: 500,
      body: { relayed: false, reason: 'the relay needs a GitHub token with contents: write' }
    })
    expect(fake.dispatches).toHaveLength(1)
  })
  it('works as the one file the build writes for deployment', async () => {
    const built = (await import(join(ROOT, 'dist/relay/index.js'))) as {
      linearRelay: typeof linearRelay
    }
    relay = built.linearRelay({
      secret: SECRET,
      githubToken: TOKEN,
      repository: 'octo-org/demo',
      githubApiUrl: fake.url,
      log: (line) => logs.push(line)
    })
    const event = stateChange({ identifier: 'ENG-8' })
    const forged = await send(delivery(event, { signature: sign('{}') }))
    expect(forged.status).toBe(401)
    expect((await send(delivery(event))).body.relayed).toBe(true)
    expect(fake.dispatches).toEqual([
      { eventType: DISPATCH_TYPE, clientPayload: { issue: 'ENG-8', state: 'In Progress' } }
    ])
  })
})
