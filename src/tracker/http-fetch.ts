// The trackers' requests over node:http and node:https, not Node's fetch: a process's first
// fetch costs ~200 ms of CPU (undici's JavaScript, and its HTTP parser in WebAssembly compiled on
// other threads) where a stage sends ~8 small requests. What the clients read of fetch is kept:
// the status, the headers, the body, redirects followed as fetch follows them, an AbortSignal.
// Each answer is read whole before it is returned, so a caller's timeout covers the body too.
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'

export interface FetchInit {
  method?: string
  headers?: Record<string, string>
  body?: string | Uint8Array | null
  signal?: AbortSignal | null
  /** `follow` (the default), `manual` (a 3xx is the answer) or `error`. */
  redirect?: 'follow' | 'manual' | 'error'
}

/** The answer's headers: what the clients read of fetch's Headers, names case-insensitive. */
export class AnswerHeaders implements Iterable<[string, string]> {
  private readonly values = new Map<string, string>()

  constructor(entries: Iterable<[string, string]>) {
    for (const [name, value] of entries) {
      const key = name.toLowerCase()
      const before = this.values.get(key)
      this.values.set(key, before === undefined ? value : `${before}, ${value}`)
    }
  }

  get(name: string): string | null {
    return this.values.get(name.toLowerCase()) ?? null
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.values.entries()
  }
}

/** A whole answer, as much of fetch's Response as the clients read. */
export class Answer {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly url: string,
    readonly headers: AnswerHeaders,
    private readonly bytes: Uint8Array
  ) {}

  get ok(): boolean {
    return this.status >= 200 && this.status < 300
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return new Uint8Array(this.bytes).buffer
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(this.bytes)
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text())
  }
}

export type Fetch = (url: string, init?: FetchInit) => Promise<Answer>

/**
 * The request failed before its connection was made (name resolution, TCP, TLS, a header Node
 * would not send, or an abort meanwhile), so the server cannot have acted on it.
 */
export class NotConnected extends Error {
  override name = 'NotConnected'
  readonly code: string | undefined

  constructor(readonly cause: unknown) {
    super((cause as Error)?.message ?? String(cause))
    this.code = (cause as { code?: string })?.code
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])
/** fetch's own limit. */
const MAX_REDIRECTS = 20

export const httpFetch: Fetch = (url, init = {}) => follow(new URL(url), init, 0)

async function follow(url: URL, init: FetchInit, redirects: number): Promise<Answer> {
  const answer = await exchange(url, init)
  const location = answer.headers.get('location')
  if (!REDIRECTS.has(answer.status) || location === null || init.redirect === 'manual') {
    return answer
  }
  if (init.redirect === 'error') throw new TypeError(`${url} redirects to ${location}`)
  if (redirects === MAX_REDIRECTS)
    throw new TypeError(`${url}: more than ${MAX_REDIRECTS} redirects`)
  const next = new URL(location, url)
  // A body or a path meant for TLS is not sent in the clear.
  if (url.protocol === 'https:' && next.protocol === 'http:') {
    throw new TypeError(`${url} redirects to ${next.origin}, which is not https`)
  }
  const method = init.method?.toUpperCase() ?? 'GET'
  // As fetch does: a 303 (or a 301 or 302 to a POST) is followed by a GET without the body, and
  // the token goes only to the origin it was given for, never to where a redirect points.
  const toGet =
    answer.status === 303 ? method !== 'HEAD' : answer.status <= 302 && method === 'POST'
  const drop = new Set(
    next.origin === url.origin ? [] : ['authorization', 'proxy-authorization', 'cookie']
  )
  if (toGet) for (const name of ['content-type', 'content-length']) drop.add(name)
  const headers = Object.fromEntries(
    Object.entries(init.headers ?? {}).filter(([name]) => !drop.has(name.toLowerCase()))
  )
  const body = toGet ? null : init.body
  return follow(next, { ...init, method: toGet ? 'GET' : method, headers, body }, redirects + 1)
}

/** Leading and trailing HTTP whitespace, which fetch trims from header values. */
const EDGE_SPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g

function exchange(url: URL, init: FetchInit): Promise<Answer> {
  const send = { 'http:': httpRequest, 'https:': httpsRequest }[url.protocol]
  if (!send) return Promise.reject(new TypeError(`cannot send a request to ${url.protocol} URLs`))
  const body = typeof init.body === 'string' ? Buffer.from(init.body) : (init.body ?? undefined)
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(init.headers ?? {})) {
    headers[name] = value.replace(EDGE_SPACE, '')
  }
  const has = (header: string) => Object.keys(headers).some((name) => name.toLowerCase() === header)
  if (body && !has('content-length')) headers['content-length'] = String(body.byteLength)
  // Nothing here decodes a compressed answer, so none is asked for.
  if (!has('accept-encoding')) headers['accept-encoding'] = 'identity'
  return new Promise((resolve, reject) => {
    let connected = false
    const fail = (e: unknown) => reject(connected ? e : new NotConnected(e))
    let request: ReturnType<typeof send>
    try {
      request = send(
        url,
        { method: init.method ?? 'GET', headers, ...(init.signal ? { signal: init.signal } : {}) },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('error', reject)
          // A connection that ends mid-body ends the answer without an 'end' or an error.
          res.on('close', () => {
            if (!res.complete) {
              reject(
                Object.assign(new Error('the connection closed mid-answer'), { code: 'ECONNRESET' })
              )
            }
          })
          res.on('end', () => {
            const pairs: [string, string][] = []
            for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
              pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!])
            }
            const headers = new AnswerHeaders(pairs)
            const bytes = Buffer.concat(chunks)
            resolve(
              new Answer(res.statusCode ?? 0, res.statusMessage ?? '', url.href, headers, bytes)
            )
          })
        }
      )
    } catch (e) {
      fail(e)
      return
    }
    request.on('socket', (socket) => {
      if (!socket.connecting) connected = true
      else
        socket.once(
          url.protocol === 'https:' ? 'secureConnect' : 'connect',
          () => (connected = true)
        )
    })
    request.on('error', fail)
    try {
      request.end(body)
    } catch (e) {
      request.destroy(e as Error)
    }
  })
}
