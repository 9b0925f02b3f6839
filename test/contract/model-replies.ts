// What the contract suite's loopback model APIs answer, in each vendor's public wire format:
// Anthropic Messages and OpenAI Responses as server-sent events, Gemini's
// streamGenerateContent (`alt=sse`) and its plain generateContent. Only the recorder builds
// answers from here; the suite replays what the recorder stored.

/** One answer to one request; `events` are written as they are, `stall` keeps it open after. */
export interface Reply {
  status: number
  headers: Record<string, string>
  /** The body in pieces, each written at once (a server-sent event, or the whole JSON). */
  events: string[]
  /** Write the events, then never end the response. */
  stall?: boolean
}

const sse = (events: Array<[string | null, unknown]>): Reply => ({
  status: 200,
  headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
  events: events.map(([e, d]) => `${e ? `event: ${e}\n` : ''}data: ${JSON.stringify(d)}\n\n`)
})

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  events: [JSON.stringify(body)]
})

/** Keeps only the first `n` events and leaves the response open. */
export function stalled(reply: Reply, n = 1): Reply {
  return { ...reply, events: reply.events.slice(0, n), stall: true }
}

export const anthropic = {
  text: (text: string) =>
    anthropicMessage('end_turn', { type: 'text', text: '' }, [{ type: 'text_delta', text }]),
  write: (path: string, content: string) =>
    anthropicMessage(
      'tool_use',
      { type: 'tool_use', id: 'toolu_01contract', name: 'Write', input: {} },
      [{ type: 'input_json_delta', partial_json: JSON.stringify({ file_path: path, content }) }]
    ),
  error: (status: number, type: string, message: string) =>
    json(status, { type: 'error', error: { type, message } }, { 'retry-after': '0' })
}

function anthropicMessage(stop: string, block: unknown, deltas: unknown[]): Reply {
  return sse([
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id: 'msg_01contract',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1200, output_tokens: 1 }
        }
      }
    ],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: block }],
    ...deltas.map((delta): [string, unknown] => [
      'content_block_delta',
      { type: 'content_block_delta', index: 0, delta }
    ]),
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: 40 }
      }
    ],
    ['message_stop', { type: 'message_stop' }]
  ])
}

export const openai = {
  text: (text: string) =>
    openaiResponse({
      type: 'message',
      id: 'msg_contract',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }]
    }),
  // Codex 0.171 offers its file tools inside one JavaScript `exec` tool.
  write: (relativePath: string, content: string) =>
    openaiResponse({
      type: 'custom_tool_call',
      id: 'ctc_contract',
      call_id: 'call_contract',
      name: 'exec',
      status: 'completed',
      input: `await tools.apply_patch(${JSON.stringify(
        `*** Begin Patch\n*** Add File: ${relativePath}\n${content
          .split('\n')
          .map((l) => `+${l}`)
          .join('\n')}\n*** End Patch\n`
      )})`
    }),
  error: (status: number, type: string, code: string, message: string) =>
    json(status, { error: { message, type, code, param: null } })
}

function openaiResponse(item: Record<string, unknown>): Reply {
  const response = { id: 'resp_contract', object: 'response', model: 'gpt-5-codex' }
  return sse([
    [
      'response.created',
      { type: 'response.created', response: { ...response, status: 'in_progress' } }
    ],
    ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item }],
    ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
    [
      'response.completed',
      {
        type: 'response.completed',
        response: {
          ...response,
          status: 'completed',
          output: [item],
          usage: {
            input_tokens: 1500,
            input_tokens_details: { cached_tokens: 300 },
            output_tokens: 60,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 1560
          }
        }
      }
    ]
  ])
}

const geminiUsage = { promptTokenCount: 1800, candidatesTokenCount: 50, totalTokenCount: 1850 }

export const gemini = {
  text: (text: string) => geminiStream([{ text }]),
  write: (path: string, content: string) =>
    geminiStream([{ functionCall: { name: 'write_file', args: { file_path: path, content } } }]),
  // The model router's classifier call (plain generateContent with a JSON schema).
  route: () =>
    json(200, {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              {
                text: JSON.stringify({
                  complexity_reasoning: 'A single file to write.',
                  complexity_score: 10
                })
              }
            ]
          },
          finishReason: 'STOP',
          index: 0
        }
      ],
      usageMetadata: { promptTokenCount: 300, candidatesTokenCount: 20, totalTokenCount: 320 },
      modelVersion: 'gemini-3.5-flash-lite'
    }),
  error: (status: number, reason: string, message: string) =>
    json(status, { error: { code: status, message, status: reason } })
}

function geminiStream(parts: unknown[]): Reply {
  return sse([
    [
      null,
      {
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: geminiUsage,
        modelVersion: 'gemini-3.1-pro-preview'
      }
    ]
  ])
}
