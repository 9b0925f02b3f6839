// The trackers' HTTP client against loopback servers: what it reads of an answer, redirects
// followed as fetch follows them (the token never sent to another origin), and every way a
// request can end without an answer, as timedFetch then tells the clients.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import net, { type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { NoAnswer, timedFetch } from '../../src/tracker/github-fetch.js'
import { httpFetch } from '../../src/tracker/http-fetch.js'

interface Seen {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

/** A loopback server that records each request and answers it with `answer`. */
async function serve(answer: (req: Seen, res: http.ServerResponse) => void) {
  const seen: Seen[] = []
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk))
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body }
      seen.push(request)
      answer(request, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, seen, server }
}

const servers: http.Server[] = []
async function server(answer: (req: Seen, res: http.ServerResponse) => void) {
  const s = await serve(answer)
  servers.push(s.server)
  return s
}

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections()
    await new Promise((resolve) => s.close(resolve))
  }
})

describe('an answer', () => {
  let api: Awaited<ReturnType<typeof server>>
  beforeAll(async () => {
    api = await server((req, res) => {
      if (req.url === '/empty') return void res.writeHead(204).end()
      res.setHeader('x-many', ['one', 'two'])
      res.writeHead(201, 'Made', { 'Content-Type': 'application/json; charset=utf-8' })
      res.end(JSON.stringify({ got: req.body, name: 'é ✓' }))
    })
  })

  it('has its status, its headers by any case, and its body as text, JSON and bytes', async () => {
    const res = await httpFetch(`${api.url}/made`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'token t' },
      body: '{"a":"ü"}'
    })
    expect([res.status, res.statusText, res.ok, res.url]).toEqual([
      201,
      'Made',
      true,
      `${api.url}/made`
    ])
    expect(res.headers.get('CONTENT-TYPE')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('x-many')).toBe('one, two')
    expect(res.headers.get('absent')).toBeNull()
    expect(new Map(res.headers).get('x-many')).toBe('one, two')
    expect(await res.json()).toEqual({ got: '{"a":"ü"}', name: 'é ✓' })
    expect(await res.text()).toBe('{"got":"{\\"a\\":\\"ü\\"}","name":"é ✓"}')
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe(await res.text())
    // The body went with its length in bytes, not chunked.
    expect(api.seen.at(-1)?.headers['content-length']).toBe(String(Buffer.byteLength('{"a":"ü"}')))
    expect(api.seen.at(-1)?.headers.authorization).toBe('token t')
  })

  it('is asked for without compression, and header values go trimmed as fetch trims them', async () => {
    await httpFetch(`${api.url}/made`, { headers: { authorization: ' token t\n' } })
    expect(api.seen.at(-1)?.headers).toMatchObject({
      authorization: 'token t',
      'accept-encoding': 'identity'
    })
  })

  it('of 204 has an empty body', async () => {
    const res = await httpFetch(`${api.url}/empty`)
    expect([res.status, await res.text()]).toEqual([204, ''])
  })
})

describe('a redirect', () => {
  let other: Awaited<ReturnType<typeof server>>
  let api: Awaited<ReturnType<typeof server>>
  beforeAll(async () => {
    other = await server((_req, res) => res.end('elsewhere'))
    api = await server((req, res) => {
      const to: Record<string, [number, string]> = {
        '/moved': [307, '/renamed'],
        '/see-other': [303, '/renamed'],
        '/found': [302, '/renamed'],
        '/away': [302, `${other.url}/landing`],
        '/loop': [302, '/loop']
      }
      const hop = to[req.url]
      if (hop) return void res.writeHead(hop[0], { location: hop[1] }).end()
      res.end(`${req.method} ${req.url} ${req.body}`)
    })
  })
  const post = {
    method: 'POST',
    headers: { authorization: 'token t', 'content-type': 'text/plain' },
    body: 'b'
  }

  it('is followed: 307 with the same method and body, 303 and a 302 to a POST as a GET without it', async () => {
    expect(await (await httpFetch(`${api.url}/moved`, post)).text()).toBe('POST /renamed b')
    expect(await (await httpFetch(`${api.url}/see-other`, post)).text()).toBe('GET /renamed ')
    const found = await httpFetch(`${api.url}/found`, post)
    expect([await found.text(), found.url]).toEqual(['GET /renamed ', `${api.url}/renamed`])
    expect(api.seen.at(-1)?.headers['content-type']).toBeUndefined()
    // The same origin still gets the token.
    expect(api.seen.at(-1)?.headers.authorization).toBe('token t')
  })

  it('to another origin does not take the token with it', async () => {
    const res = await httpFetch(`${api.url}/away`, post)
    expect(await res.text()).toBe('elsewhere')
    expect(other.seen.at(-1)?.url).toBe('/landing')
    expect(other.seen.at(-1)?.headers.authorization).toBeUndefined()
  })

  it('is the answer when asked for (manual), an error when refused, and stops after 20', async () => {
    const manual = await httpFetch(`${api.url}/found`, { redirect: 'manual' })
    expect([manual.status, manual.headers.get('location')]).toEqual([302, '/renamed'])
    await expect(httpFetch(`${api.url}/found`, { redirect: 'error' })).rejects.toThrow(
      'redirects to /renamed'
    )
    const before = api.seen.length
    await expect(httpFetch(`${api.url}/loop`)).rejects.toThrow('more than 20 redirects')
    expect(api.seen.length - before).toBe(21)
  })
})

describe('no answer', () => {
  let api: Awaited<ReturnType<typeof server>>
  beforeAll(async () => {
    api = await server((req, res) => {
      if (req.url === '/hang') return
      if (req.url === '/reset') return void res.socket?.destroy()
      // Half a body, then the connection is gone.
      res.writeHead(200, { 'content-length': '100' })
      res.write('half')
      setTimeout(() => res.socket?.destroy(), 20)
    })
  })

  it('within the timeout is a NoAnswer that may have been sent', async () => {
    const send = timedFetch(httpFetch, 100)
    const err = await send(`${api.url}/hang`).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(NoAnswer)
    expect(err).toMatchObject({ message: 'no answer within 100 ms', sent: true })
  })

  it('when the connection is reset, or breaks off mid-body, is a NoAnswer that may have been sent', async () => {
    const send = timedFetch(httpFetch, 5000)
    for (const path of ['/reset', '/half']) {
      const err = await send(`${api.url}${path}`).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(NoAnswer)
      expect(err).toMatchObject({ sent: true })
      expect((err as Error).message).toContain('ECONNRESET')
    }
  })

  it('when nothing listens is a NoAnswer that was never sent', async () => {
    const closed = await serve(() => undefined)
    await new Promise((resolve) => closed.server.close(resolve))
    const err = await timedFetch(httpFetch, 5000)(`${closed.url}/x`).catch((e: unknown) => e)
    expect(err).toMatchObject({ message: 'the connection was refused (ECONNREFUSED)', sent: false })
  })

  it("when the caller's signal aborts is the caller's AbortError", async () => {
    const abort = new AbortController()
    const pending = timedFetch(httpFetch, 5000)(`${api.url}/hang`, { signal: abort.signal })
    setTimeout(() => abort.abort(), 20)
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('before the connection is made is a NoAnswer never sent: no TLS handshake in time, a bad header', async () => {
    // It accepts the connection and never answers the TLS handshake.
    const silent = net.createServer(() => undefined)
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as AddressInfo).port
    try {
      const err = await timedFetch(httpFetch, 100)(`https://127.0.0.1:${port}/x`).catch((e) => e)
      expect(err).toMatchObject({ message: 'no connection within 100 ms', sent: false })
    } finally {
      silent.close()
    }
    const bad = await timedFetch(httpFetch, 5000)(`${api.url}/x`, {
      headers: { authorization: 'token t\nx-injected: yes' }
    }).catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(NoAnswer)
    expect(bad).toMatchObject({ sent: false })
    expect(api.seen.some((r) => r.headers['x-injected'] !== undefined)).toBe(false)
  })

  it('for a URL that is not http or https is an error', async () => {
    await expect(httpFetch('file:///etc/passwd')).rejects.toThrow(
      'cannot send a request to file: URLs'
    )
  })
})

describe('a redirect from https', () => {
  let dir: string
  let tls: https.Server
  let plain: Awaited<ReturnType<typeof server>>
  const saved = https.globalAgent.options.ca
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'http-fetch-tls-'))
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem')
      ],
      { stdio: 'ignore' }
    )
    plain = await server((req, res) => res.end(`plain got ${req.body}`))
    tls = https.createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (_req, res) => res.writeHead(307, { location: `${plain.url}/landing` }).end()
    )
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve))
    // The certificate is this test's own: the requests' agent trusts it.
    https.globalAgent.options.ca = readFileSync(join(dir, 'cert.pem'))
  })
  afterAll(() => {
    https.globalAgent.options.ca = saved
    tls.closeAllConnections()
    tls.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('to plain http is refused: the body meant for TLS is not sent in the clear', async () => {
    const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/secret`
    await expect(httpFetch(url, { method: 'POST', body: 'the comment' })).rejects.toThrow(
      'which is not https'
    )
    expect(plain.seen).toEqual([])
  })
})
