import { describe, expect, it } from '@jest/globals'
import { renderSummary } from '../../src/action/report.js'
import { priceRun } from '../../src/agent/prices.js'

describe('renderSummary', () => {
  it('shows what the CLI reported, under the same names whichever CLI it was', () => {
    const base = {
      outcome: 'succeeded' as const,
      reason: 'exit code 0',
      refused: [],
      warnings: [],
      withheld: []
    }
    const claude = { turns: 2, inputTokens: 2400, outputTokens: 80, costUsd: 0.0112 }
    expect(renderSummary({ ...base, agentStats: claude })).toContain(
      '| Agent | 2 turns, 2400 input tokens, 80 output tokens, $0.0112 |'
    )
    // Codex and Gemini CLI give tokens only.
    expect(
      renderSummary({ ...base, agentStats: { inputTokens: 3000, outputTokens: 120 } })
    ).toContain('| Agent | 3000 input tokens, 120 output tokens |')
    expect(renderSummary({ ...base, agentStats: {} })).not.toContain('| Agent |')
  })

  it('says when a cost was priced from the tokens rather than reported, and from which prices', () => {
    const base = {
      outcome: 'succeeded' as const,
      reason: 'exit code 0',
      refused: [],
      warnings: [],
      withheld: []
    }
    const codex = { inputTokens: 4000, outputTokens: 100 }
    expect(renderSummary({ ...base, agentStats: codex, cost: priceRun('codex', codex) })).toContain(
      '| Agent | 4000 input tokens, 100 output tokens, $0.0060 (the CLI reports no cost: priced from its tokens at the list prices of 2025-08-07; agent.prices sets others) |'
    )
    const own = { gemini: { inputPerMTok: 2, outputPerMTok: 8 } }
    expect(
      renderSummary({ ...base, agentStats: codex, cost: priceRun('gemini', codex, own) })
    ).toContain(
      '$0.0088 (the CLI reports no cost: priced from its tokens at WORKFLOW.md agent.prices) |'
    )
    // Claude Code's own dollars need no note.
    const claude = { inputTokens: 2400, outputTokens: 80, costUsd: 0.0112 }
    expect(
      renderSummary({ ...base, agentStats: claude, cost: priceRun('claude', claude) })
    ).toContain('| Agent | 2400 input tokens, 80 output tokens, $0.0112 |')
  })

  it('opens with content: the first row is the header, never an empty one', () => {
    const md = renderSummary({
      outcome: 'succeeded',
      reason: 'exit code 0',
      issue: '7',
      profile: 'researcher',
      refused: [],
      warnings: [],
      withheld: []
    })
    expect(
      md.startsWith(
        '## itervox handoff: succeeded\n\n| Issue | 7 |\n|---|---|\n| Profile | researcher |\n'
      )
    ).toBe(true)
    expect(md).not.toContain('| | |')
  })

  it('leaves one escaped line for a denied run: who was refused, and why', () => {
    const base = { outcome: 'denied' as const, refused: [], warnings: [], withheld: [] }
    expect(
      renderSummary({
        ...base,
        reason:
          '@tim has triage permission on this repository; stages need write, maintain or admin',
        runUrl: 'https://github.com/o/r/actions/runs/1'
      })
    ).toBe(
      '## itervox handoff: denied\n\ndenied: @\u2060tim has triage permission on this repository; stages need write, maintain or admin\n'
    )
    const hostile = renderSummary({
      ...base,
      issue: '7',
      issueUrl: 'https://github.com/o/r/issues/7',
      reason: '@x\n\n| a | b |\n<img src=https://evil.example/p.png> [y](javascript:alert(1))',
      warnings: ['WORKFLOW.md:3: unknown key']
    })
    const [, , line, ...rest] = hostile.split('\n')
    expect(line).toBe(
      'denied on [#7](https://github.com/o/r/issues/7): @\u2060x &#124; a &#124; b &#124; &#60;img src=https://evil.example/p.png&#62; &#91;y&#93;(javascript:alert(1))'
    )
    expect(rest.join('\n')).toBe('\n### Warnings\n\n- WORKFLOW.md:3: unknown key\n')
  })
})
