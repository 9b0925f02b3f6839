import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { BUDGET_SPENT, classify } from '../../src/agent/classify.js'
import { presetFor } from '../../src/agent/presets.js'
import { EXPECTED, scenariosFor } from '../contract/scenarios.js'

// The real CLIs' stdout and exit, recorded by scripts/record-agent-clis.ts: each preset's
// parser must make of them the outcome the stage expects of that end.
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'agent-clis')

interface Recorded {
  exitCode: number | null
  signal: string | null
  deliverableWritten: boolean
}

function replay(cli: string, scenario: string) {
  const dir = join(FIXTURES, cli, scenario)
  const recorded = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as Recorded
  const parser = presetFor([cli], { maxTurns: 5, isRoot: false }).parser
  for (const line of readFileSync(join(dir, 'stdout.jsonl'), 'utf8').split('\n')) parser.line(line)
  const findings = parser.finish()
  // A stall is the watchdog's call, which the stream alone cannot show.
  const cause = scenario === 'stall' ? { kind: 'stalled' as const, silentMs: 4000 } : undefined
  const { outcome, reason } = classify({
    cause,
    exitCode: recorded.exitCode,
    signal: recorded.signal,
    findings
  })
  return { outcome, reason, findings, recorded }
}

describe.each(['claude', 'codex', 'gemini'] as const)('the recorded %s streams', (cli) => {
  it.each(scenariosFor(cli))('%s ends as the stage expects', (scenario) => {
    const { outcome, findings, recorded } = replay(cli, scenario)
    expect(outcome).toBe(EXPECTED[scenario].outcome)
    expect(recorded.deliverableWritten).toBe(EXPECTED[scenario].file)
    if (scenario !== 'stall') expect(findings.error !== undefined).toBe(outcome !== 'succeeded')
  })
})

describe('figures from the recorded final events', () => {
  it('gives each CLI what it reports, under the same names', () => {
    expect(replay('claude', 'success').findings.stats).toEqual({
      turns: 2,
      inputTokens: 2400,
      outputTokens: 80,
      costUsd: 0.0112
    })
    // Codex and Gemini CLI report tokens only.
    expect(replay('codex', 'success').findings.stats).toEqual({
      inputTokens: 3000,
      outputTokens: 120
    })
    expect(replay('gemini', 'success').findings.stats).toEqual({
      inputTokens: 3900,
      outputTokens: 120
    })
  })

  it('reads a real claude run stopped at --max-budget-usd as a spent budget, with its figures', () => {
    // Its `usage` says 0 tokens; the turn it priced past the budget is under `modelUsage`.
    const { outcome, reason, findings, recorded } = replay('claude', 'over-budget')
    expect(recorded.exitCode).toBe(1)
    expect({ outcome, reason }).toEqual({
      outcome: 'failed',
      reason: `${BUDGET_SPENT}Reached maximum budget ($0.001)`
    })
    expect(findings.rateLimited).toBe(false)
    expect(findings.stats).toEqual({
      turns: 1,
      inputTokens: 1200,
      outputTokens: 40,
      costUsd: 0.0056
    })
  })

  it('reads a real Gemini 429 (exit 173, error type "unknown") as rate limited', () => {
    const { findings, recorded } = replay('gemini', 'rate-limited')
    expect(recorded.exitCode).toBe(173)
    expect(findings.rateLimited).toBe(true)
  })
})
