import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import http from 'node:http'
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http'
import { setUpModelAccess } from '../../src/agent/model-access.js'
import type { ModelAccess } from '../../src/agent/model-access.js'
import type { PresetName } from '../../src/agent/types.js'
import { closedPort, startFakeModelApi } from './fake-model-api.js'
import type { FakeModelApi, Seen } from './fake-model-api.js'

interface Reply {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

/** One request to `base` (a proxy or the stand-in), answered whole. */
function send(
  base: string,
  method: string,
  path: string,
  headers: OutgoingHttpHeaders = {},
  body?: string
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(base, method, path, headers, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (text += c))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text })
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

// The path goes out as written (`..` included), as a misbehaving agent would send it.
function request(
  base: string,
  method: string,
  path: string,
  headers: OutgoingHttpHeaders,
  onResponse: (res: IncomingMessage) => void
): http.ClientRequest {
  const { hostname, port } = new URL(base)
  return http.request({ hostname, port, method, path, headers, agent: false }, onResponse)
}

/** Rejects when `p` takes longer than `ms`, naming what was awaited. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)
  })
  return Promise.race([p, late]).finally(() => clearTimeout(timer))
}

interface Case {
  preset: Exclude<PresetName, 'generic'>
  /** The parent's key variable and base URL variable. */
  keyVar: string
  baseVar: string
  /** The base URL's path, which the stand-in must see before every forwarded path. */
  basePath: string
  /** The agent's key variable, and the request headers its CLI puts that key in. */
  agentKeyVar: string
  keyHeaders: (key: string) => OutgoingHttpHeaders
  call: { method: string; path: string }
  /** Where the stand-in must get the call, and the header the real key must arrive in. */
  upstreamUrl: string
  upstreamKey: (key: string) => [string, string]
  forbidden: Array<[string, string]>
  hidden: string[]
}

const CASES: Case[] = [
  {
    preset: 'claude',
    keyVar: 'ANTHROPIC_API_KEY',
    baseVar: 'ANTHROPIC_BASE_URL',
    basePath: '/proxy',
    agentKeyVar: 'ANTHROPIC_API_KEY',
    keyHeaders: (key) => ({ 'x-api-key': key }),
    call: { method: 'POST', path: '/v1/messages?beta=true' },
    upstreamUrl: '/proxy/v1/messages?beta=true',
    upstreamKey: (key) => ['x-api-key', key],
    forbidden: [
      ['GET', '/v1/files'],
      ['POST', '/v1/messages/batches'],
      ['POST', '/v1/messages/../files'],
      ['POST', '/v1/messages/%2e%2e/files'],
      ['GET', '/v1/models/..%2Ffiles'],
      ['POST', '//v1/messages'],
      ['GET', '/v1/messages']
    ],
    hidden: [
      'ANTHROPIC_AUTH_TOKEN',
      'ANTHROPIC_API_KEY',
      'CLAUDE_CODE_OAUTH_TOKEN',
      'ANTHROPIC_BASE_URL'
    ]
  },
  {
    preset: 'codex',
    keyVar: 'CODEX_API_KEY',
    baseVar: 'OPENAI_BASE_URL',
    basePath: '/proxy/v1',
    agentKeyVar: 'CODEX_API_KEY',
    keyHeaders: (key) => ({ authorization: `Bearer ${key}` }),
    call: { method: 'POST', path: '/v1/responses' },
    upstreamUrl: '/proxy/v1/responses',
    upstreamKey: (key) => ['authorization', `Bearer ${key}`],
    forbidden: [
      ['DELETE', '/v1/models/ft:gpt-4o:org::abc'],
      ['GET', '/v1/files'],
      ['GET', '/v1/responses/resp_123'],
      ['POST', '/responses'],
      ['POST', '/v1/responses/../files']
    ],
    hidden: ['CODEX_API_KEY', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'CODEX_HOME']
  },
  {
    preset: 'gemini',
    keyVar: 'GEMINI_API_KEY',
    baseVar: 'GOOGLE_GEMINI_BASE_URL',
    basePath: '/proxy',
    agentKeyVar: 'GEMINI_API_KEY',
    keyHeaders: (key) => ({ 'x-goog-api-key': key }),
    call: { method: 'POST', path: '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse' },
    upstreamUrl: '/proxy/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    upstreamKey: (key) => ['x-goog-api-key', key],
    forbidden: [
      ['POST', '/v1beta/files'],
      ['POST', '/v1beta/models/gemini-2.5-pro:embedContent'],
      ['GET', '/v1beta/tunedModels'],
      ['POST', '/v1beta/models/../files:generateContent']
    ],
    hidden: ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_GEMINI_BASE_URL']
  }
]

const REAL_KEY = 'sk-real-key-0123456789'
const PLACEHOLDER = /^itervox-placeholder-[0-9a-f]{32}$/

let api: FakeModelApi
const opened: ModelAccess[] = []

beforeEach(async () => {
  api = await startFakeModelApi()
})
afterEach(async () => {
  await Promise.all(opened.splice(0).map((a) => a.proxy.close()))
  await api.close()
})

/** Model access for a preset, whose proxy is closed after the test. */
async function access(
  preset: PresetName,
  env: Record<string, string | undefined>
): Promise<ModelAccess> {
  const a = await setUpModelAccess(preset, env)
  if (a === null || 'missing' in a) throw new Error(`no model access for ${preset}`)
  opened.push(a)
  return a
}

/** The key the agent was given (the placeholder), from its environment. */
function agentKey(a: ModelAccess, variable: string): string {
  const key = a.env[variable]
  if (key === undefined) throw new Error(`the agent got no ${variable}`)
  return key
}

/** The stand-in got the real key where the provider reads it, and no trace of the placeholder. */
function expectSwapped(seen: Seen | undefined, header: [string, string], placeholder: string) {
  expect(seen?.headers[header[0]]).toBe(header[1])
  expect(JSON.stringify(seen)).not.toContain(placeholder)
}

describe.each(CASES)('$preset', (c) => {
  const parentEnv = () => ({
    PATH: '/usr/bin',
    [c.keyVar]: REAL_KEY,
    [c.baseVar]: `${api.url}${c.basePath}`
  })
  const headers = (a: ModelAccess) => ({
    'content-type': 'application/json',
    ...c.keyHeaders(agentKey(a, c.agentKeyVar))
  })

  it('forwards the call under the base URL path, with the real key instead of the placeholder', async () => {
    const a = await access(c.preset, parentEnv())
    const placeholder = agentKey(a, c.agentKeyVar)
    expect(placeholder).toMatch(PLACEHOLDER)

    const reply = await send(a.proxy.url, c.call.method, c.call.path, headers(a), '{"model":"m"}')

    expect(reply).toMatchObject({ status: 200, body: '{"ok":true}' })
    expect(api.seen).toHaveLength(1)
    expect(api.seen[0]).toMatchObject({
      method: c.call.method,
      url: c.upstreamUrl,
      body: '{"model":"m"}'
    })
    expectSwapped(api.seen[0], c.upstreamKey(REAL_KEY), placeholder)
    // The real key travels once, in one header.
    expect(JSON.stringify(api.seen[0]?.headers).split(REAL_KEY)).toHaveLength(2)
    expect(api.seen[0]?.headers.host).toBe(new URL(api.url).host)
    expect(a.proxy.requests).toBe(1)
  })

  it('the swap check fails a request that still carries the placeholder', async () => {
    const a = await access(c.preset, parentEnv())
    const placeholder = agentKey(a, c.agentKeyVar)
    // What a proxy that forwarded without swapping would deliver: the agent's own request.
    await send(api.url, c.call.method, c.upstreamUrl, headers(a))

    expect(() => expectSwapped(api.seen[0], c.upstreamKey(REAL_KEY), placeholder)).toThrow()
  })

  it('streams server-sent events chunk by chunk', async () => {
    const a = await access(c.preset, parentEnv())
    const order: string[] = []
    let firstArrived = () => {}
    const arrived = new Promise<void>((resolve) => (firstArrived = resolve))
    api.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: {"n":1}\n\n')
      // The last event waits for the client to have the first (or for 3 s, so that a proxy
      // that buffers fails the order below instead of hanging).
      void within(arrived, 3000, 'first event')
        .catch(() => undefined)
        .then(() => {
          order.push('upstream sends the last event')
          res.end('data: {"n":2}\n\n')
        })
    }

    const body = await new Promise<string>((resolve, reject) => {
      const req = request(a.proxy.url, c.call.method, c.call.path, headers(a), (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          if (text === '') {
            order.push('client has the first event')
            firstArrived()
          }
          text += chunk
        })
        res.on('end', () => resolve(text))
      })
      req.on('error', reject)
      req.end('{}')
    })

    expect(order).toEqual(['client has the first event', 'upstream sends the last event'])
    expect(body).toBe('data: {"n":1}\n\ndata: {"n":2}\n\n')
  })

  it('answers 401 to a wrong or missing placeholder, and calls nothing upstream', async () => {
    const a = await access(c.preset, parentEnv())
    const wrong = await send(
      a.proxy.url,
      c.call.method,
      c.call.path,
      c.keyHeaders('itervox-placeholder-0')
    )
    const none = await send(a.proxy.url, c.call.method, c.call.path)

    expect([wrong.status, none.status]).toEqual([401, 401])
    expect(JSON.parse(wrong.body)).toMatchObject({ error: { message: 'wrong or missing key' } })
    expect(api.seen).toEqual([])
    expect(a.proxy.requests).toBe(0)
  })

  it('answers 403 to anything but the model calls, and calls nothing upstream', async () => {
    const a = await access(c.preset, parentEnv())
    for (const [method, path] of c.forbidden) {
      const reply = await send(a.proxy.url, method, path, headers(a))
      expect({ method, path, status: reply.status }).toEqual({ method, path, status: 403 })
      expect(JSON.parse(reply.body)).toMatchObject({
        error: { message: 'not a model API request' }
      })
    }
    expect(api.seen).toEqual([])
  })

  it('answers 426 to an upgrade, so that a WebSocket client falls back to HTTP', async () => {
    const a = await access(c.preset, parentEnv())
    const reply = await send(a.proxy.url, 'GET', c.call.path, {
      ...headers(a),
      connection: 'Upgrade',
      upgrade: 'websocket'
    })

    expect(reply.status).toBe(426)
    expect(api.seen).toEqual([])
  })

  it('answers 502 when the model API is down, and the message holds no key', async () => {
    const a = await access(c.preset, {
      ...parentEnv(),
      [c.baseVar]: `http://127.0.0.1:${await closedPort()}${c.basePath}`
    })
    const reply = await send(a.proxy.url, c.call.method, c.call.path, headers(a), '{}')

    expect(reply.status).toBe(502)
    expect(JSON.parse(reply.body)).toEqual({
      error: { type: 'itervox_model_proxy', message: 'model API unreachable (ECONNREFUSED)' }
    })
    expect(reply.body).not.toContain(REAL_KEY)
    expect(reply.body).not.toContain(agentKey(a, c.agentKeyVar))
  })

  it.each([
    ['before the model API answers', false],
    ['mid-stream', true]
  ])('ends the upstream request when the agent hangs up %s', async (_when, streaming) => {
    const a = await access(c.preset, parentEnv())
    const upstreamClosed = new Promise<boolean>((resolve) => {
      api.answer = (_req, res) => {
        res.on('close', () => resolve(res.writableFinished))
        if (!streaming) return req.destroy()
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.write('data: {"n":1}\n\n')
      }
    })
    const req = request(a.proxy.url, c.call.method, c.call.path, headers(a), (res) => {
      res.once('data', () => req.destroy())
    })
    req.on('error', () => undefined)
    req.end('{}')

    expect(await within(upstreamClosed, 5000, 'upstream close')).toBe(false)
  })

  it('hands the agent the placeholder and the proxy, never the key, and hides the variables', async () => {
    const a = await access(c.preset, parentEnv())

    expect(a.hidden).toEqual(c.hidden)
    expect(JSON.stringify([a.env, a.files])).not.toContain(REAL_KEY)
    expect(a.proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })
})

describe('claude', () => {
  it.each([
    ['ANTHROPIC_AUTH_TOKEN', 'authorization', `Bearer ${REAL_KEY}`],
    ['CLAUDE_CODE_OAUTH_TOKEN', 'authorization', `Bearer ${REAL_KEY}`]
  ])('takes %s and sends it upstream as a Bearer token', async (variable, header, value) => {
    const a = await access('claude', { [variable]: REAL_KEY, ANTHROPIC_BASE_URL: api.url })
    const placeholder = agentKey(a, variable)
    await send(a.proxy.url, 'POST', '/v1/messages', { authorization: `Bearer ${placeholder}` })

    expect(a.env).toMatchObject({ ANTHROPIC_BASE_URL: a.proxy.url, [variable]: placeholder })
    expect(api.seen[0]?.url).toBe('/v1/messages')
    expectSwapped(api.seen[0], [header, value], placeholder)
  })

  it('prefers the key Claude Code itself would use: the auth token over the API key', async () => {
    const a = await access('claude', {
      ANTHROPIC_API_KEY: 'sk-ant-api',
      ANTHROPIC_AUTH_TOKEN: REAL_KEY,
      ANTHROPIC_BASE_URL: api.url
    })
    await send(a.proxy.url, 'POST', '/v1/messages', {
      authorization: `Bearer ${agentKey(a, 'ANTHROPIC_AUTH_TOKEN')}`
    })

    expect(a.env).not.toHaveProperty(['ANTHROPIC_API_KEY'])
    expect(api.seen[0]?.headers.authorization).toBe(`Bearer ${REAL_KEY}`)
    expect(api.seen[0]?.headers).not.toHaveProperty(['x-api-key'])
  })

  it('passes the model API answer through: status, headers and body', async () => {
    api.answer = (_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' })
      res.end('{"type":"error","error":{"type":"rate_limit_error"}}')
    }
    const a = await access('claude', { ANTHROPIC_API_KEY: REAL_KEY, ANTHROPIC_BASE_URL: api.url })
    const reply = await send(a.proxy.url, 'POST', '/v1/messages', {
      'x-api-key': agentKey(a, 'ANTHROPIC_API_KEY')
    })

    expect(reply).toMatchObject({
      status: 429,
      headers: { 'retry-after': '7' },
      body: '{"type":"error","error":{"type":"rate_limit_error"}}'
    })
  })
})

describe('codex', () => {
  it('points Codex at the proxy through its config file, with CODEX_API_KEY even for an OPENAI_API_KEY', async () => {
    const a = await access('codex', { OPENAI_API_KEY: REAL_KEY, OPENAI_BASE_URL: api.url })

    expect(a.env).toEqual({
      CODEX_API_KEY: expect.stringMatching(PLACEHOLDER),
      NO_PROXY: '127.0.0.1',
      no_proxy: '127.0.0.1'
    })
    expect(a.files).toEqual([
      { path: '.codex/config.toml', content: `openai_base_url = "${a.proxy.url}/v1"\n` }
    ])
    await send(a.proxy.url, 'GET', '/v1/models', {
      authorization: `Bearer ${agentKey(a, 'CODEX_API_KEY')}`
    })
    expect(api.seen[0]).toMatchObject({
      url: '/models',
      headers: { authorization: `Bearer ${REAL_KEY}` }
    })
  })
})

describe('gemini', () => {
  it('points Gemini at the proxy and keeps it on API-key auth with its settings file', async () => {
    const a = await access('gemini', { GEMINI_API_KEY: REAL_KEY })

    expect(a.env).toEqual({
      GEMINI_API_KEY: expect.stringMatching(PLACEHOLDER),
      GOOGLE_GEMINI_BASE_URL: a.proxy.url,
      NO_PROXY: '127.0.0.1',
      no_proxy: '127.0.0.1'
    })
    expect(a.files).toEqual([
      {
        path: '.gemini/settings.json',
        content: '{"security":{"auth":{"selectedType":"gemini-api-key"}}}\n'
      }
    ])
  })

  it('takes GOOGLE_API_KEY, and a placeholder in `?key=`, which never goes upstream', async () => {
    const a = await access('gemini', { GOOGLE_API_KEY: REAL_KEY, GOOGLE_GEMINI_BASE_URL: api.url })
    const placeholder = agentKey(a, 'GEMINI_API_KEY')
    await send(
      a.proxy.url,
      'POST',
      `/v1/models/gemini-2.5-flash:generateContent?key=${placeholder}&alt=json`
    )

    expect(api.seen[0]?.url).toBe('/v1/models/gemini-2.5-flash:generateContent?alt=json')
    expectSwapped(api.seen[0], ['x-goog-api-key', REAL_KEY], placeholder)
  })
})

describe('setUpModelAccess', () => {
  it('gives nothing for the generic preset, whose model API is unknown', async () => {
    expect(await setUpModelAccess('generic', { ANTHROPIC_API_KEY: REAL_KEY })).toBeNull()
  })

  it('says which variables it looked for when the parent holds no key', async () => {
    expect(await setUpModelAccess('codex', { CODEX_API_KEY: ' ', PATH: '/bin' })).toEqual({
      missing: 'none of CODEX_API_KEY, OPENAI_API_KEY is set'
    })
  })

  it('makes a new placeholder each time', async () => {
    const env = { ANTHROPIC_API_KEY: REAL_KEY }
    const [one, two] = [await access('claude', env), await access('claude', env)]

    expect(agentKey(one, 'ANTHROPIC_API_KEY')).not.toBe(agentKey(two, 'ANTHROPIC_API_KEY'))
    expect(one.proxy.url).not.toBe(two.proxy.url)
  })

  it('refuses a base URL that is not http(s), without repeating it', async () => {
    await expect(
      setUpModelAccess('claude', {
        ANTHROPIC_API_KEY: REAL_KEY,
        ANTHROPIC_BASE_URL: 'ftp://u:secret@x'
      })
    ).rejects.toThrow(/^ANTHROPIC_BASE_URL is not an http or https URL$/)
  })

  it('trims a key pasted with its newline', async () => {
    const a = await access('claude', {
      ANTHROPIC_API_KEY: `${REAL_KEY}\n`,
      ANTHROPIC_BASE_URL: api.url
    })
    await send(a.proxy.url, 'POST', '/v1/messages', {
      'x-api-key': agentKey(a, 'ANTHROPIC_API_KEY')
    })

    expect(api.seen[0]?.headers['x-api-key']).toBe(REAL_KEY)
  })

  it("keeps the loopback proxy out of the user's HTTP proxy", async () => {
    const a = await access('claude', {
      ANTHROPIC_API_KEY: REAL_KEY,
      HTTPS_PROXY: 'http://corp:3128',
      NO_PROXY: 'internal.corp, .example',
      no_proxy: '.example'
    })

    expect(a.env).toMatchObject({
      NO_PROXY: 'internal.corp,.example,127.0.0.1',
      no_proxy: 'internal.corp,.example,127.0.0.1'
    })
  })
})

describe('the proxy', () => {
  const claudeEnv = () => ({ ANTHROPIC_API_KEY: REAL_KEY, ANTHROPIC_BASE_URL: api.url })

  it('refuses a request target that is not a path', async () => {
    const a = await access('claude', claudeEnv())
    const reply = await send(a.proxy.url, 'POST', 'http://evil.example/v1/messages', {
      'x-api-key': agentKey(a, 'ANTHROPIC_API_KEY')
    })

    expect(reply.status).toBe(400)
    expect(api.seen).toEqual([])
  })

  it('cuts the agent off when the model API drops the stream midway', async () => {
    api.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: {"n":1}\n\n', () => setTimeout(() => res.destroy(), 50))
    }
    const a = await access('claude', claudeEnv())
    const ended = new Promise<string>((resolve) => {
      const req = request(
        a.proxy.url,
        'POST',
        '/v1/messages',
        {
          'x-api-key': agentKey(a, 'ANTHROPIC_API_KEY')
        },
        (res) => {
          res.on('end', () => resolve('complete'))
          res.on('error', () => resolve('cut off'))
          res.resume()
        }
      )
      req.on('error', () => resolve('cut off'))
      req.end()
    })

    expect(await within(ended, 5000, 'the stream end')).toBe('cut off')
  })

  it('close() ends a stream still open', async () => {
    api.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: {"n":1}\n\n')
    }
    const a = await access('claude', claudeEnv())
    const ended = new Promise<void>((resolve) => {
      const req = request(
        a.proxy.url,
        'POST',
        '/v1/messages',
        {
          'x-api-key': agentKey(a, 'ANTHROPIC_API_KEY')
        },
        (res) => {
          res.once('data', () => void a.proxy.close())
          res.on('close', resolve)
          res.resume()
        }
      )
      req.on('error', () => resolve())
      req.end()
    })

    await within(ended, 5000, 'the stream end')
    await within(a.proxy.close(), 5000, 'close')
  })
})
