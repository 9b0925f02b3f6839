import { describe, expect, it } from '@jest/globals'
import { GeminiParser } from '../../src/agent/parse-gemini.js'

// Lines shaped like Gemini CLI's `--output-format stream-json` output; whole recorded runs are
// read in recorded-streams.test.ts.
const ts = '"timestamp":"2026-01-02T03:04:05.678Z"'
const init = `{"type":"init",${ts},"session_id":"abc","model":"gemini-2.5-pro"}`
const user = `{"type":"message",${ts},"role":"user","content":"the prompt"}`
const delta = (content: string) =>
  JSON.stringify({ type: 'message', role: 'assistant', content, delta: true })
const toolUse = `{"type":"tool_use",${ts},"tool_name":"write_file","tool_id":"w1","parameters":{"file_path":"/r/x.md"}}`
const toolResult = `{"type":"tool_result",${ts},"tool_id":"w1","status":"success","output":"ok"}`
const success = `{"type":"result",${ts},"status":"success","stats":{"total_tokens":5350,"input_tokens":5120,"output_tokens":230,"duration_ms":3100,"tool_calls":1}}`

function parse(lines: string[]) {
  const p = new GeminiParser()
  const events = lines.map((l) => p.line(l))
  return { events, findings: p.finish() }
}

describe('GeminiParser', () => {
  it('reads a good run: tokens and the answer after the last tool call, joined from deltas', () => {
    const { events, findings } = parse([
      init,
      user,
      delta('Reading first.'),
      toolUse,
      toolResult,
      delta('The deliverable '),
      delta('is written.'),
      success
    ])
    expect(events).toEqual([
      'init',
      'user message',
      'assistant text',
      'tool write_file',
      'tool_result',
      'assistant text',
      'assistant text',
      'result success'
    ])
    expect(findings).toEqual({
      stats: { inputTokens: 5120, outputTokens: 230 },
      resultText: 'The deliverable is written.'
    })
  })

  it('reads the quota error result of a real 429 as rate limited', () => {
    // What gemini 0.61 prints for a 429 (recorded in test/fixtures/agent-clis): no status and
    // error type "unknown", only the wording.
    const { findings } = parse([
      init,
      `{"type":"result",${ts},"status":"error","error":{"type":"unknown","message":"[API Error: Resource has been exhausted (e.g. check quota).]\\nPlease wait and try again later."},"stats":{"input_tokens":300,"output_tokens":20}}`
    ])
    expect(findings).toMatchObject({
      error: '[API Error: Resource has been exhausted (e.g. check quota).]',
      rateLimited: true
    })
  })

  it('reads other error results as failures', () => {
    const { findings } = parse([
      init,
      `{"type":"result",${ts},"status":"error","error":{"type":"FatalAuthenticationError","message":"API key not valid."}}`
    ])
    expect(findings.error).toBe('API key not valid.')
    expect(findings.rateLimited).toBeUndefined()
  })

  it('treats a 429 warning the CLI recovered from as advisory', () => {
    const { findings } = parse([
      init,
      `{"type":"error","severity":"warning","message":"status 429, retrying"}`,
      delta('fine'),
      success
    ])
    expect(findings.error).toBeUndefined()
    expect(findings.resultText).toBe('fine')
  })

  it('finds the needs-input sentinel across delta chunks', () => {
    const answer = 'Which locale?\n\n<!-- itervox:needs-input -->\n'
    const chunks = answer.match(/.{1,7}/gs) ?? []
    const { findings } = parse([init, ...chunks.map(delta), success])
    expect(findings.needsInput).toEqual({ question: 'Which locale?' })
  })

  it('tolerates garbage', () => {
    const { findings } = parse([
      'YOLO mode is enabled. All tool calls will be automatically approved.',
      init,
      '{"type":"message","role":"assistant","content":null}',
      '{"type":"result","stats":"x"}',
      '{"type"'
    ])
    expect(findings).toEqual({ stats: {} })
  })
})
