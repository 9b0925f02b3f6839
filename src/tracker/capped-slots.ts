// agent.max_concurrent_agents and agent.max_concurrent_agents_by_state together: a stage takes
// its state's slot first, then one of the repository's; it runs only holding both. A stage that
// gets its state's slot but none of the repository's gives the first back without waking anyone
// (it held it for a moment; a wake-up would only queue again), and waits in the shared queue.
import { sameState } from '../config/lookup.js'
import type { WorkflowConfig } from '../config/types.js'
import type { Issue, QueuedStage, Slots } from '../pipeline/ports.js'
import { GitHubSlots, statePool, type GitHubSlotsOptions } from './github-slots.js'

/** The slots a stage job takes, or undefined when WORKFLOW.md sets no limit. */
export function stageSlots(
  config: WorkflowConfig,
  o: Omit<GitHubSlotsOptions, 'max' | 'pool'>
): Slots | undefined {
  const caps = config.agent.maxConcurrentAgentsByState
  const max = config.agent.maxConcurrentAgents
  if (caps.length === 0) return max === undefined ? undefined : new GitHubSlots({ ...o, max })
  const all = max === undefined ? undefined : new GitHubSlots({ ...o, max })
  const byState = (state: string) => {
    const cap = caps.find((c) => sameState(c.state, state))
    return cap ? new GitHubSlots({ ...o, max: cap.max, pool: statePool(cap.state) }) : undefined
  }
  return new CappedSlots(all, byState)
}

class CappedSlots implements Slots {
  private held: Slots[] = []
  private full: Slots | undefined

  constructor(
    private readonly all: Slots | undefined,
    private readonly byState: (state: string) => Slots | undefined
  ) {}

  describe(): string {
    return this.full?.describe() ?? 'every agent slot is taken'
  }

  async claim(issue: Issue, stage: QueuedStage, wasQueued: boolean): Promise<boolean> {
    for (const pool of [this.byState(stage.state), this.all]) {
      if (!pool) continue
      if (!(await pool.claim(issue, stage, wasQueued || this.held.length > 0))) {
        this.full = pool
        await this.giveBack({ wake: false })
        return false
      }
      this.held.push(pool)
    }
    return true
  }

  release(): Promise<void> {
    return this.giveBack({})
  }

  private async giveBack(o: { wake?: boolean }): Promise<void> {
    for (const pool of this.held.splice(0).reverse()) await pool.release(o)
  }
}
