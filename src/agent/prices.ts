import type { TokenPrice } from '../config/types.js'
import type { AgentStats, PresetName } from './types.js'

/**
 * List prices (USD per million tokens) of the default models of the CLIs that report tokens
 * but no dollars: gpt-5 / gpt-5-codex for Codex, gemini-2.5-pro (prompts up to 200k tokens)
 * for Gemini. A price changes; WORKFLOW.md's `agent.prices` replaces these.
 */
const PRICES_AS_OF = '2025-08-07'
const TABLE = 'table '
const OVERRIDE = 'WORKFLOW.md agent.prices'
const PRICES: Record<'codex' | 'gemini', TokenPrice> = {
  codex: { inputPerMTok: 1.25, outputPerMTok: 10 },
  gemini: { inputPerMTok: 1.25, outputPerMTok: 10 }
}

/** What a run cost and where the figure came from: the CLI itself, or a price table. */
export interface PricedRun {
  costUsd?: number
  /** `table 2025-08-07` or `WORKFLOW.md agent.prices`; absent when the CLI gave the dollars. */
  pricedFrom?: string
}

export function priceRun(
  preset: PresetName,
  stats: AgentStats,
  overrides: Partial<Record<'codex' | 'gemini', TokenPrice>> = {}
): PricedRun {
  if (stats.costUsd !== undefined) return { costUsd: stats.costUsd }
  if (preset !== 'codex' && preset !== 'gemini') return {}
  if (stats.inputTokens === undefined && stats.outputTokens === undefined) return {}
  const own = overrides[preset]
  const price = own ?? PRICES[preset]
  const cost =
    ((stats.inputTokens ?? 0) * price.inputPerMTok +
      (stats.outputTokens ?? 0) * price.outputPerMTok) /
    1_000_000
  return { costUsd: cost, pricedFrom: own ? OVERRIDE : `${TABLE}${PRICES_AS_OF}` }
}

/**
 * A cost in words for people (the job summary, the CLI's stage line): one the CLI reported is
 * just the dollars; one priced here says so, and from which prices.
 */
export function costWords(run: PricedRun | undefined): string {
  if (run?.costUsd === undefined) return ''
  const dollars = `$${run.costUsd.toFixed(4)}`
  if (!run.pricedFrom) return dollars
  const prices = run.pricedFrom.startsWith(TABLE)
    ? `the list prices of ${run.pricedFrom.slice(TABLE.length)}; agent.prices sets others`
    : run.pricedFrom
  return `${dollars} (the CLI reports no cost: priced from its tokens at ${prices})`
}
