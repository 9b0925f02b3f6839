import { costWords, type PricedRun } from '../../agent/prices.js'
import type { AgentStats } from '../../agent/types.js'

/**
 * What an agent's CLI reported in its last event, in words, the same for every CLI: turns and
 * a cost only where the CLI gives them (Claude Code), tokens for all. Empty when it gave none.
 * Given the run's priced cost (what its provenance records), that is the cost shown, with
 * where it came from when the CLI did not report it.
 */
export function agentFigures(s: AgentStats | undefined, cost?: PricedRun): string {
  if (!s) return ''
  return [
    s.turns !== undefined ? `${s.turns} turns` : '',
    s.inputTokens !== undefined ? `${s.inputTokens} input tokens` : '',
    s.outputTokens !== undefined ? `${s.outputTokens} output tokens` : '',
    costWords(cost ?? { costUsd: s.costUsd })
  ]
    .filter(Boolean)
    .join(', ')
}
