import type { AgentStats } from '../agent/types.js'

/**
 * What an agent's CLI reported in its last event, in words, the same for every CLI: turns and
 * a cost only where the CLI gives them (Claude Code), tokens for all. Empty when it gave none.
 */
export function agentFigures(s: AgentStats | undefined): string {
  if (!s) return ''
  return [
    s.turns !== undefined ? `${s.turns} turns` : '',
    s.inputTokens !== undefined ? `${s.inputTokens} input tokens` : '',
    s.outputTokens !== undefined ? `${s.outputTokens} output tokens` : '',
    s.costUsd !== undefined ? `$${s.costUsd.toFixed(4)}` : ''
  ]
    .filter(Boolean)
    .join(', ')
}
