import { sameState } from '../../config/lookup.js'
import type { ProfileConfig, WorkflowConfig } from '../../config/types.js'
import type { Provenance } from '../record/provenance.js'

/** What the issue and this stage spent so far, against their caps. */
export interface BudgetFigures {
  spentUsd: number
  /** agent.max_cost_usd */
  issueCapUsd?: number
  /** This stage's earlier attempts (same profile, same state). */
  stageSpentUsd: number
  /** agent.profiles.<name>.max_cost_usd */
  stageCapUsd?: number
  /** Stages whose cost is unknown (a generic command, a CLI that reported nothing). */
  unpriced: number
}

export type BudgetCheck =
  | { ok: true; figures: BudgetFigures; remainingUsd?: number }
  | { ok: false; figures: BudgetFigures; why: string }

/**
 * The spend is summed from the provenance the pipeline committed on the branch, so a re-run,
 * the CLI and the action all count the same stages. A stage starts only with some budget left.
 */
export function checkBudget(
  config: WorkflowConfig,
  profile: ProfileConfig,
  state: string,
  rows: readonly Provenance[]
): BudgetCheck {
  const cost = (r: Provenance) => r.costUsd ?? 0
  const mine = rows.filter((r) => r.profile === profile.name && sameState(r.state, state))
  const figures: BudgetFigures = {
    spentUsd: sum(rows.map(cost)),
    stageSpentUsd: sum(mine.map(cost)),
    unpriced: rows.filter((r) => r.costUsd === undefined).length,
    issueCapUsd: config.agent.maxCostUsd,
    stageCapUsd: profile.maxCostUsd
  }
  const caps = [
    {
      cap: figures.issueCapUsd,
      spent: figures.spentUsd,
      whose: 'the issue',
      key: 'agent.max_cost_usd'
    },
    {
      cap: figures.stageCapUsd,
      spent: figures.stageSpentUsd,
      whose: `the ${profile.name} stage`,
      key: `agent.profiles.${profile.name}.max_cost_usd`
    }
  ]
  const left: number[] = []
  for (const { cap, spent, whose, key } of caps) {
    if (cap === undefined) continue
    const rest = micro(cap - spent)
    if (rest <= 0) {
      return {
        ok: false,
        figures,
        why: `${whose} has spent ${usd(spent)} of its ${usd(cap)} budget (${key})`
      }
    }
    left.push(rest)
  }
  return left.length > 0
    ? { ok: true, figures, remainingUsd: Math.min(...left) }
    : { ok: true, figures }
}

export function usd(n: number): string {
  return `$${n.toFixed(4)}`
}

const micro = (n: number) => Math.round(n * 1e6) / 1e6

// Summed in integer micro-dollars, so that many small costs add up to the same figure anywhere.
function sum(values: number[]): number {
  return values.reduce((a, v) => a + Math.round(v * 1e6), 0) / 1e6
}
