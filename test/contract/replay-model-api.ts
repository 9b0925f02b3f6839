// A loopback model API that answers each route with its replies in order (the last one again
// once they run out) and keeps a list of what it was asked. A WebSocket handshake gets 426,
// which sends Codex to HTTP streaming.
import http from 'node:http'
import type { IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import type { Reply } from './model-replies.js'

export interface ReplayModelApi {
  url: string
  /** `METHOD route` of every request, in the order they came. */
  seen: string[]
  close(): Promise<void>
}

/**
 * The route a request is replayed by: method and path without the query, with a Gemini
 * model name (which the CLI picks by itself) as `*`.
 */
function routeOf(method: string, url: string): string {
  const path = url.split('?')[0] ?? ''
  return `${method} ${path.replace(/\/models\/[^/:]+:/, '/models/*:')}`
}

export async function startReplayModelApi(
  replies: Record<string, Reply[]>,
  substitute: (text: string) => string
): Promise<ReplayModelApi> {
  const used = new Map<string, number>()
  const seen: string[] = []
  const server = http.createServer((req: IncomingMessage, res) => {
    req.resume()
    req.on('end', () => {
      const route = routeOf(req.method ?? '', req.url ?? '')
      seen.push(route)
      const list = replies[route]
      if (!list?.length) {
        res.writeHead(404, { 'content-type': 'application/json' })
        res.end('{"error":{"message":"not recorded"}}')
        return
      }
      const n = used.get(route) ?? 0
      used.set(route, n + 1)
      const reply = list[Math.min(n, list.length - 1)] as Reply
      res.writeHead(reply.status, reply.headers)
      for (const e of reply.events) res.write(substitute(e))
      if (!reply.stall) res.end()
    })
  })
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    seen.push(`${routeOf(req.method ?? '', req.url ?? '')} (websocket)`)
    socket.end('HTTP/1.1 426 Upgrade Required\r\nconnection: close\r\ncontent-length: 0\r\n\r\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
