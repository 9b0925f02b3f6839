import { describe, expect, it } from '@jest/globals'
import type { LocalStage } from '../../src/cli/local-pipeline.js'
import { colourOn, outputMode, StageProgress } from '../../src/cli/progress.js'

function sink(isTTY: boolean) {
  const writes: string[] = []
  return { writes, out: { isTTY, columns: 60, write: (t: string) => writes.push(t) } }
}

const START = {
  issue: 'ENG-1',
  state: 'Implementing',
  profile: 'implementer',
  kind: 'work' as const,
  attempt: 1,
  branch: 'itervox/ENG-1'
}

const END: LocalStage = {
  ...START,
  outcome: 'failed',
  reason: 'exit code 1',
  durationMs: 83_400,
  handoffPath: '.itervox/handoff/2026-05-26T14-30-45.000Z_implementer.partial.md',
  commit: 'abc',
  next: { kind: 'retry', attempt: 2, why: 'failed: exit code 1' },
  summary: 'retry next (attempt 3)',
  stateAfter: 'Implementing',
  requests: {},
  refused: ['tmp/x was not committed: not in the allow-list'],
  warnings: [],
  logPath: '/tmp/w/agent.log'
}

describe('stage progress', () => {
  it('picks the mode from --json and the terminal', () => {
    expect(outputMode(true, { isTTY: true, write: () => true }, {})).toBe('json')
    expect(outputMode(false, { isTTY: true, write: () => true }, {})).toBe('tty')
    expect(outputMode(false, { write: () => true })).toBe('plain')
  })

  it('draws no live line for TERM=dumb, and no colour for NO_COLOR or off a terminal', () => {
    const tty = { isTTY: true, write: () => true }
    expect(outputMode(false, tty, { TERM: 'dumb' })).toBe('plain')
    expect(outputMode(false, tty, { TERM: 'xterm-256color' })).toBe('tty')
    expect(outputMode(false, { isTTY: false, write: () => true }, {})).toBe('plain')
    expect(colourOn('tty', {})).toBe(true)
    expect(colourOn('tty', { NO_COLOR: '1' })).toBe(false)
    // no-color.org: an empty NO_COLOR does not count.
    expect(colourOn('tty', { NO_COLOR: '' })).toBe(true)
    expect(colourOn('plain', {})).toBe(false)
    expect(colourOn('json', {})).toBe(false)
  })

  it('colours only the outcome mark, and only when asked', () => {
    const coloured = sink(true)
    new StageProgress(coloured.out, 'tty', true).end({ ...END, refused: [], logPath: undefined })
    expect(coloured.writes[0]).toMatch(/^\x1b\[31m✗\x1b\[39m implementer in "Implementing"/)
    const mono = sink(true)
    new StageProgress(mono.out, 'tty', false).end({ ...END, refused: [], logPath: undefined })
    expect(mono.writes[0]).toMatch(/^✗ implementer/)
    expect(mono.writes.join('')).not.toContain('\x1b')
  })

  it('rewrites one line with the time so far on a terminal, then leaves the outcome', () => {
    const { writes, out } = sink(true)
    const p = new StageProgress(out, 'tty')
    p.start(START)
    expect(writes[0]).toBe('\r\x1b[2K⠋ implementer in "Implementing" (attempt 2) · 0.0s')
    p.end(END)
    expect(writes.slice(1)).toEqual([
      '\r\x1b[2K',
      '✗ implementer in "Implementing" (attempt 2) · failed (exit code 1) · 1m 23s · retry next (attempt 3)\n    .itervox/handoff/2026-05-26T14-30-45.000Z_implementer.partial.md\n',
      '    tmp/x was not committed: not in the allow-list\n',
      '    agent log: /tmp/w/agent.log\n'
    ])
  })

  it("puts the stage's cost on its line, saying when it was priced from the tokens", () => {
    const priced = sink(false)
    const cost = { costUsd: 0.006, pricedFrom: 'table 2025-08-07' }
    new StageProgress(priced.out, 'plain').end({ ...END, refused: [], logPath: undefined, cost })
    expect(priced.writes[0]).toBe(
      '✗ implementer in "Implementing" (attempt 2) · failed (exit code 1) · 1m 23s · $0.0060 (the CLI reports no cost: priced from its tokens at the list prices of 2025-08-07; agent.prices sets others) · retry next (attempt 3)\n    .itervox/handoff/2026-05-26T14-30-45.000Z_implementer.partial.md\n'
    )
    const reported = sink(false)
    const own = { costUsd: 0.0112 }
    new StageProgress(reported.out, 'plain').end({ ...END, refused: [], cost: own })
    expect(reported.writes[0]).toContain(' · 1m 23s · $0.0112 · retry next')
  })

  it('prints plain lines elsewhere, and nothing for --json', () => {
    const plain = sink(false)
    const p = new StageProgress(plain.out, 'plain')
    p.start(START)
    p.end({ ...END, refused: [], logPath: undefined })
    expect(plain.writes.join('')).toBe(
      'implementer in "Implementing" (attempt 2): running\n' +
        '✗ implementer in "Implementing" (attempt 2) · failed (exit code 1) · 1m 23s · retry next (attempt 3)\n' +
        '    .itervox/handoff/2026-05-26T14-30-45.000Z_implementer.partial.md\n'
    )
    const json = sink(false)
    const q = new StageProgress(json.out, 'json')
    q.start(START)
    q.end(END)
    expect(json.writes).toEqual([])
  })
})
