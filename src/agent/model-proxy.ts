import { createHash, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import https from 'node:https'
import type {
  IncomingHttpHeaders,
  IncomingMessage,
  OutgoingHttpHeaders,
  ServerResponse
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { pipeline } from 'node:stream'

export interface ModelProxyOptions {
  /** The model API's base URL; its path is put before every forwarded path. */
  upstream: URL
  /**
   * The path below `upstream` to forward a request to, or undefined when the request is not
   * one the agent may make. `path` is the request's normalised path, without its query.
   */
  route: (method: string, path: string) => string | undefined
  /** The only key the agent holds; a request must present it. */
  placeholder: string
  /** The header that carries the real key upstream, e.g. `authorization: Bearer sk-...`. */
  credential: { header: string; value: string }
}

export interface ModelProxy {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string
  port: number
  /** Requests forwarded upstream so far. */
  readonly requests: number
  /** Stops listening and ends every open connection, in and out. */
  close(): Promise<void>
}

// RFC 9110 7.6.1: meaningful for one connection only, never forwarded.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade'
])

// Where the three providers' clients put a key. All are stripped from every request, whichever
// one the agent used, so the placeholder never travels upstream.
const KEY_HEADERS = ['authorization', 'x-api-key', 'x-goog-api-key']
const KEY_QUERY = 'key'

/**
 * A loopback HTTP proxy that swaps the agent's placeholder key for the real one. It lives in
 * the action's own process, so the real key never enters the agent's reach; bodies stream
 * through both ways untouched, so server-sent events arrive as the model sends them.
 */
export async function startModelProxy(o: ModelProxyOptions): Promise<ModelProxy> {
  // A key unfit for a header fails here, not on the agent's first request.
  http.validateHeaderValue(o.credential.header, o.credential.value)
  const client = o.upstream.protocol === 'https:' ? https : http
  // Our own agent, so that close() can end the upstream connections it keeps alive.
  const agent = new client.Agent({ keepAlive: true })
  const basePath = o.upstream.pathname.replace(/\/+$/, '')
  const placeholderDigest = digest(o.placeholder)
  let requests = 0

  const server = http.createServer((req, res) => {
    // Codex asks for a WebSocket first and falls back to HTTP streaming on a 426.
    if (req.headers.upgrade !== undefined) return reply(res, 426, 'use HTTP, not an upgrade')
    // Origin form only (`/path?query`); the URL parser resolves `..` and `%2e` segments, and
    // what it makes of the path is what both the route check and the upstream see.
    if (!req.url?.startsWith('/')) return reply(res, 400, 'not an origin-form request')
    const url = new URL(`http://proxy${req.url}`)
    if (!presented(req.headers, url).some((k) => timingSafeEqual(digest(k), placeholderDigest))) {
      return reply(res, 401, 'wrong or missing key')
    }
    const method = req.method ?? 'GET'
    const path = o.route(method, url.pathname)
    if (path === undefined) return reply(res, 403, 'not a model API request')

    url.searchParams.delete(KEY_QUERY)
    const headers = forwardable(req.headers)
    headers[o.credential.header] = o.credential.value
    const upstream = client.request({
      protocol: o.upstream.protocol,
      hostname: o.upstream.hostname.replace(/^\[|\]$/g, ''),
      port: o.upstream.port,
      method,
      path: basePath + path + url.search,
      headers,
      agent
    })
    requests++
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers))
      // A failure on either side destroys both, which ends the agent's stream visibly.
      pipeline(answer, res, () => undefined)
    })
    upstream.on('error', (e) => {
      if (res.headersSent || res.destroyed) res.destroy()
      else reply(res, 502, `model API unreachable${errorCode(e)}`)
    })
    // An agent that hangs up must not leave a generation running (and billed) upstream.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy()
    })
    req.pipe(upstream)
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get requests() {
      return requests
    },
    close: () =>
      new Promise<void>((resolve) => {
        // Resolves also when already closed: closing twice is harmless.
        server.close(() => resolve())
        server.closeAllConnections()
        agent.destroy()
      })
  }
}

/** Every key the request carries, in any of the places a model client puts one. */
function presented(headers: IncomingHttpHeaders, url: URL): string[] {
  const keys = url.searchParams.getAll(KEY_QUERY)
  for (const name of KEY_HEADERS) {
    const value = headers[name]
    if (typeof value === 'string') keys.push(value.replace(/^Bearer\s+/i, ''))
  }
  return keys
}

/** The headers minus hop-by-hop ones (also those the `connection` header names), keys and host. */
function forwardable(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((n) => n.trim().toLowerCase())
  const out: OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers)) {
    if (HOP_BY_HOP.has(name) || named.includes(name) || KEY_HEADERS.includes(name)) continue
    if (name === 'host') continue
    out[name] = value
  }
  return out
}

// Hashing first gives both sides one length, which timingSafeEqual needs.
function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest()
}

// The code only (ECONNREFUSED): a message could carry more than we mean to show.
function errorCode(e: Error): string {
  const code = (e as NodeJS.ErrnoException).code
  return typeof code === 'string' ? ` (${code})` : ''
}

function reply(res: ServerResponse<IncomingMessage>, status: number, message: string): void {
  const body = JSON.stringify({ error: { type: 'itervox_model_proxy', message } })
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body)
  })
  res.end(body)
}
