import { describe, expect, it } from '@jest/globals'
import { CodexParser } from '../../src/agent/parse-codex.js'

// Lines shaped like `codex exec --json` output (codex-rs exec_events).
const started = '{"type":"thread.started","thread_id":"0199a213-81c0-7800-8aa1-bbab2a035a53"}'
const turnStarted = '{"type":"turn.started"}'
const reasoning =
  '{"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"**Scanning**"}}'
const command =
  '{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}'
const message = (text: string) =>
  JSON.stringify({ type: 'item.completed', item: { id: 'item_3', type: 'agent_message', text } })
const completed = (input: number, output: number) =>
  JSON.stringify({
    type: 'turn.completed',
    usage: { input_tokens: input, cached_input_tokens: 100, output_tokens: output }
  })

function parse(lines: string[]) {
  const p = new CodexParser()
  const events = lines.map((l) => p.line(l))
  return { events, findings: p.finish() }
}

describe('CodexParser', () => {
  it('reads a good run: tokens (no turns: codex counts none) and the last agent message', () => {
    const { events, findings } = parse([
      started,
      turnStarted,
      reasoning,
      command,
      message('first'),
      message('Wrote the deliverable.'),
      completed(24763, 122)
    ])
    expect(events).toEqual([
      'thread.started',
      'turn.started',
      'reasoning completed',
      'command_execution started',
      'agent_message completed',
      'agent_message completed',
      'turn completed'
    ])
    expect(findings).toEqual({
      stats: { inputTokens: 24763, outputTokens: 122 },
      resultText: 'Wrote the deliverable.'
    })
  })

  it('adds usage over turns', () => {
    const { findings } = parse([started, completed(10, 1), completed(20, 2)])
    expect(findings.stats).toEqual({ inputTokens: 30, outputTokens: 3 })
  })

  it('reads a failed turn with 429 wording as a rate-limited error', () => {
    const { findings } = parse([
      started,
      turnStarted,
      '{"type":"item.completed","item":{"id":"item_0","type":"error","message":"Reconnecting... 1/5 (stream error: 429 Too Many Requests)"}}',
      '{"type":"turn.failed","error":{"message":"exceeded retry limit, last status: 429 Too Many Requests"}}'
    ])
    expect(findings.error).toBe('exceeded retry limit, last status: 429 Too Many Requests')
    expect(findings.rateLimited).toBe(true)
  })

  it('reads a usage limit as a rate limit and an auth error as a plain failure', () => {
    const usage = parse([
      started,
      `{"type":"error","message":"You've hit your usage limit. Try again in 3 hours."}`
    ])
    expect(usage.findings.rateLimited).toBe(true)
    const auth = parse([started, '{"type":"error","message":"unexpected status 401 Unauthorized"}'])
    expect(auth.findings).toMatchObject({ error: 'unexpected status 401 Unauthorized' })
    expect(auth.findings.rateLimited).toBeUndefined()
  })

  it('forgets an error the run recovered from', () => {
    const { findings } = parse([
      started,
      '{"type":"error","message":"stream disconnected before completion"}',
      message('done'),
      completed(1, 1)
    ])
    expect(findings.error).toBeUndefined()
  })

  it('finds the needs-input sentinel in the last agent message', () => {
    const { findings } = parse([
      started,
      message('Which branch?\n\n<!-- itervox:needs-input -->'),
      completed(1, 1)
    ])
    expect(findings.needsInput).toEqual({ question: 'Which branch?' })
  })

  it('tolerates garbage and partial events', () => {
    const { findings } = parse([
      'Reading prompt from stdin...',
      '{"type":"item.completed"}',
      '{"type":"item.completed","item":{"type":"agent_message","text":42}}',
      '{"type":"turn.completed","usage":null}',
      '{"type":"turn.comp'
    ])
    expect(findings).toEqual({ stats: {} })
  })
})
