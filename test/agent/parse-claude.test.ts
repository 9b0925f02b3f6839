import { describe, expect, it } from '@jest/globals'
import { ClaudeParser } from '../../src/agent/parse-claude.js'

// Lines shaped like Claude Code 2.1's stream-json output (trimmed to the fields that matter).
const init =
  '{"type":"system","subtype":"init","cwd":"/repo","session_id":"s1","tools":["Bash","Write"],"model":"claude-sonnet-4-5","permissionMode":"bypassPermissions"}'
const text = (t: string) =>
  JSON.stringify({
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'text', text: t }] },
    session_id: 's1'
  })
const toolUse =
  '{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Write","input":{"file_path":"/repo/x.md","content":"x"}}]},"session_id":"s1"}'
const toolResult =
  '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"File created successfully at: /repo/x.md"}]},"tool_use_result":{"type":"create","filePath":"/repo/x.md"}}'
const retry = (status: number) =>
  `{"type":"system","subtype":"api_retry","attempt":1,"max_retries":10,"retry_delay_ms":600,"error_status":${status},"error":"rate_limit"}`
const result = (fields: Record<string, unknown>) =>
  JSON.stringify({
    type: 'result',
    subtype: 'success',
    is_error: false,
    duration_ms: 5000,
    num_turns: 4,
    result: 'All done.',
    total_cost_usd: 0.125,
    usage: {
      input_tokens: 10,
      cache_creation_input_tokens: 200,
      cache_read_input_tokens: 3000,
      output_tokens: 456
    },
    permission_denials: [],
    ...fields
  })

function parse(lines: string[]) {
  const p = new ClaudeParser()
  const events = lines.map((l) => p.line(l))
  return { events, findings: p.finish() }
}

describe('ClaudeParser', () => {
  it('reads a good session: stats, final text, one description per event', () => {
    const { events, findings } = parse([init, text('Reading.'), toolUse, toolResult, result({})])
    expect(events).toEqual([
      'system init',
      'assistant text',
      'tool Write',
      'tool result',
      'result success'
    ])
    expect(findings).toEqual({
      stats: { turns: 4, inputTokens: 3210, outputTokens: 456, costUsd: 0.125 },
      resultText: 'All done.'
    })
  })

  it('calls exhausted 429 retries a rate limit although the subtype says success', () => {
    const msg = 'API Error: 429 {"type":"error","error":{"type":"rate_limit_error"}}'
    const { findings } = parse([
      init,
      retry(429),
      text(msg),
      result({ is_error: true, api_error_status: 429, result: msg, total_cost_usd: 0 })
    ])
    expect(findings.error).toBe('API error 429 (rate limited)')
    expect(findings.rateLimited).toBe(true)
  })

  it('calls 529 and other API errors failures, not rate limits', () => {
    const { findings } = parse([
      init,
      retry(529),
      result({ is_error: true, api_error_status: 529, result: 'API Error: 529 overloaded' })
    ])
    expect(findings.error).toBe('API error 529')
    expect(findings.rateLimited).toBe(false)
  })

  it('treats api_retry events alone as advisory', () => {
    const { findings } = parse([init, retry(429), retry(429), text('ok'), result({})])
    expect(findings.error).toBeUndefined()
    expect(findings.rateLimited).toBeUndefined()
  })

  it('names the turn limit and other error subtypes', () => {
    const maxTurns = parse([
      init,
      result({ subtype: 'error_max_turns', is_error: true, num_turns: 60, result: undefined })
    ]).findings
    expect(maxTurns.error).toBe('reached the turn limit (60 turns)')
    const during = parse([init, result({ subtype: 'error_during_execution', is_error: true })])
    expect(during.findings.error).toBe('error during execution')
    const usage = parse([
      init,
      result({ is_error: true, result: 'Claude AI usage limit reached|1767225600' })
    ])
    expect(usage.findings).toMatchObject({
      error: 'Claude AI usage limit reached|1767225600',
      rateLimited: true
    })
  })

  it('takes a rejected rate_limit_event as the reason of a failure without a result', () => {
    const { findings } = parse([
      init,
      '{"type":"rate_limit_event","rate_limit_info":{"status":"rejected","resetsAt":1767225600}}'
    ])
    expect(findings.rateLimited).toBe(true)
    expect(findings.error).toBeUndefined()
  })

  it('finds the needs-input sentinel in the final text, not inside a code fence', () => {
    const asked = parse([
      init,
      result({ result: 'Postgres or SQLite?\n\n<!-- itervox:needs-input -->' })
    ])
    expect(asked.findings.needsInput).toEqual({ question: 'Postgres or SQLite?' })
    const fenced = parse([
      init,
      result({ result: 'Example:\n```\n<!-- itervox:needs-input -->\n```\nDone.' })
    ])
    expect(fenced.findings.needsInput).toBeUndefined()
  })

  it('ignores the sentinel of a run that ended in error', () => {
    const { findings } = parse([
      init,
      result({ is_error: true, api_error_status: 500, result: 'x\n<!-- itervox:needs-input -->' })
    ])
    expect(findings.needsInput).toBeUndefined()
    expect(findings.error).toBe('API error 500')
  })

  it('reports a denied AskUserQuestion as a question for a human', () => {
    const { findings } = parse([
      init,
      result({
        permission_denials: [
          {
            tool_name: 'AskUserQuestion',
            tool_use_id: 'toolu_9',
            tool_input: { questions: [{ question: 'Which region?', options: [] }] }
          }
        ]
      })
    ])
    expect(findings.needsInput).toEqual({ question: 'Which region?' })
  })

  it('uses the last assistant text when the stream ends without a result', () => {
    const { findings } = parse([init, text('first'), toolUse, text('last words')])
    expect(findings.resultText).toBe('last words')
    expect(findings.stats).toEqual({})
  })

  it('tolerates garbage, cut lines and unknown events', () => {
    const { events, findings } = parse([
      'Warning: update available',
      '',
      '{"type":"assis',
      '[1,2]',
      'null',
      '{"no_type":1}',
      '{"type":"stream_event","event":{}}',
      '{"type":"assistant","message":"not an object"}',
      '{"type":"result","usage":"bad","num_turns":-1,"total_cost_usd":"1"}'
    ])
    expect(events.slice(0, 6)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined
    ])
    expect(findings).toEqual({ stats: {} })
  })

  it('reads output without any event (a user chose --output-format text) as plain text', () => {
    const { findings } = parse(['Which one?', '<!-- itervox:needs-input -->'])
    expect(findings.needsInput).toEqual({ question: 'Which one?' })
  })

  it('reads the single object of --output-format json', () => {
    expect(parse([result({ result: 'json mode' })]).findings.resultText).toBe('json mode')
  })
})
