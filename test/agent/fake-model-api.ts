// A loopback stand-in for a model API (Anthropic, OpenAI or Gemini alike): it records every
// request it gets, whole, and answers as the test says, so tests can see what the proxy sent.
import http from 'node:http'
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'

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
  // A WebSocket handshake is recorded and refused with 426, which sends Codex to HTTP streaming.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    api.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' })
    socket.end('HTTP/1.1 426 Upgrade Required\r\nconnection: close\r\ncontent-length: 0\r\n\r\n')
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

export type ModelApiKind = 'anthropic' | 'openai' | 'gemini'

/**
 * An answer that streams `text` as server-sent events in the provider's public shape, the few
 * events a client needs: Anthropic Messages (`message_start` ... `content_block_delta`
 * text_delta ... `message_stop`), OpenAI Responses (`response.created`,
 * `response.output_text.delta`, `response.completed`) or Gemini `streamGenerateContent?alt=sse`
 * (one `GenerateContentResponse` per event). The text goes out in two pieces.
 */
export function streamedReply(kind: ModelApiKind, text: string): FakeModelApi['answer'] {
  const half = Math.ceil(text.length / 2)
  const pieces = [text.slice(0, half), text.slice(half)]
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    for (const [event, data] of streamEvents(kind, pieces)) {
      res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`)
    }
    res.end()
  }
}

function streamEvents(kind: ModelApiKind, pieces: string[]): Array<[string | null, unknown]> {
  const text = pieces.join('')
  switch (kind) {
    case 'anthropic': {
      const usage = { input_tokens: 12, output_tokens: 0 }
      return [
        [
          'message_start',
          {
            type: 'message_start',
            message: {
              id: 'msg_fake',
              type: 'message',
              role: 'assistant',
              model: 'claude-sonnet-4-5',
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage
            }
          }
        ],
        [
          'content_block_start',
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }
        ],
        ...pieces.map((p): [string, unknown] => [
          'content_block_delta',
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: p } }
        ]),
        ['content_block_stop', { type: 'content_block_stop', index: 0 }],
        [
          'message_delta',
          {
            type: 'message_delta',
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: 7 }
          }
        ],
        ['message_stop', { type: 'message_stop' }]
      ]
    }
    case 'openai': {
      const response = { id: 'resp_fake', object: 'response', model: 'gpt-5-codex' }
      return [
        [
          'response.created',
          { type: 'response.created', response: { ...response, status: 'in_progress' } }
        ],
        ...pieces.map((p): [string, unknown] => [
          'response.output_text.delta',
          {
            type: 'response.output_text.delta',
            item_id: 'msg_fake',
            output_index: 0,
            content_index: 0,
            delta: p
          }
        ]),
        [
          'response.output_text.done',
          {
            type: 'response.output_text.done',
            item_id: 'msg_fake',
            output_index: 0,
            content_index: 0,
            text
          }
        ],
        [
          'response.completed',
          {
            type: 'response.completed',
            response: {
              ...response,
              status: 'completed',
              usage: { input_tokens: 12, output_tokens: 7, total_tokens: 19 }
            }
          }
        ]
      ]
    }
    case 'gemini':
      return pieces.map((p, i): [null, unknown] => [
        null,
        {
          candidates: [
            {
              content: { parts: [{ text: p }], role: 'model' },
              index: 0,
              ...(i === pieces.length - 1 ? { finishReason: 'STOP' } : {})
            }
          ],
          usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 7, totalTokenCount: 19 },
          modelVersion: 'gemini-2.5-pro'
        }
      ])
  }
}
