import { describe, expect, it } from '@jest/globals'
import { priceRun } from '../../src/agent/prices.js'

describe('pricing a run', () => {
  it("keeps Claude Code's own dollars, prices Codex and Gemini tokens from the dated table or WORKFLOW.md", () => {
    expect(priceRun('claude', { costUsd: 0.05, inputTokens: 9 })).toEqual({ costUsd: 0.05 })
    expect(priceRun('codex', { inputTokens: 1_000_000, outputTokens: 100_000 })).toEqual({
      costUsd: 2.25,
      pricedFrom: 'table 2025-08-07'
    })
    const own = { gemini: { inputPerMTok: 2, outputPerMTok: 0 } }
    expect(priceRun('gemini', { inputTokens: 500_000, outputTokens: 7 }, own)).toEqual({
      costUsd: 1,
      pricedFrom: 'WORKFLOW.md agent.prices'
    })
    expect(priceRun('generic', { inputTokens: 5 })).toEqual({})
  })
})
