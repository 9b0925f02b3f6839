// A loopback stand-in for a model API (Anthropic, OpenAI or Gemini alike): it records every
// request it gets, whole, and answers as the test says, so tests can see what the proxy sent.
import http from 'node:http'
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Seen {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}

export interface FakeModelApi {
  /** `http://127.0.0.1:PORT`. */
  url: string
  seen: Seen[]
  /** How the next requests are answered; by default 200 with `{"ok":true}`. */
  answer: (req: IncomingMessage, res: ServerResponse) => void
  close(): Promise<void>
}

export async function startFakeModelApi(): Promise<FakeModelApi> {
  const api: FakeModelApi = {
    url: '',
    seen: [],
    answer: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"ok":true}')
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString()
      api.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      api.answer(req, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return api
}

/** A loopback port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
