import { describe, expect, it } from '@jest/globals'
import type { JobTrigger } from '../../../src/pipeline/ports.js'
import {
  job,
  MemoryWorkspace,
  MemoryWorld,
  type AgentScript
} from '../../harness/memory-pipeline.js'
import { seedConfig } from '../pipeline-config.js'

const STATES = ['Todo', 'Researching', 'Implementing', 'Reviewing', 'Done', "Won't Do"]
const ada = { login: 'ada', type: 'User' }
const bot = { login: 'github-actions[bot]', type: 'Bot' }

/** Every wake-up becomes the next job, as GitHub would run them. */
async function drive(w: MemoryWorld) {
  const ws = new MemoryWorkspace(w)
  const triggers: JobTrigger[] = [{ source: 'label', issue: '7', actor: ada, label: 'Todo' }]
  const results = []
  for (let n = 1; triggers.length > 0 && n < 10; n++) {
    const seen = w.wakeups.length
    results.push(await job(w, triggers.shift()!, { id: `run${n}`, attempt: '1' }, ws))
    for (const wk of w.wakeups.slice(seen)) {
      triggers.push({ source: 'wake', issue: wk.issue, actor: bot, state: wk.state, wake: wk })
    }
  }
  return results
}

function world(agent: string, script: AgentScript, reviewer = ''): MemoryWorld {
  const w = new MemoryWorld(seedConfig({ agent, reviewer }), STATES, script)
  w.labels.set('7', ['Todo'])
  return w
}

describe('the cost budget', () => {
  it('stops the third stage once the first two spent the issue budget, and escalates with the figures', async () => {
    const w = world('max_cost_usd: 2.5', () => ({ costUsd: 1.3 }))
    const results = await drive(w)
    expect(w.agentRuns.map((k) => k.profile)).toEqual(['researcher', 'implementer'])
    // Each run is told what is left of the budget.
    expect(w.budgets).toEqual([2.5, 1.2])
    const last = results.at(-1)!
    expect(last.outcome).toBe('skipped')
    expect(last.reason).toBe(
      'over budget: the issue has spent $2.6000 of its $2.5000 budget (agent.max_cost_usd)'
    )
    expect(w.labels.get('7')).toContain('needs-attention')
    const note = w.comments.find((c) => c.key.startsWith('itervox:over-budget:'))
    expect(note?.body).toContain('| Issue | $2.6000 | $2.5000 |')
    expect(note?.body).toContain('The reviewer stage did not start')
    expect(w.record()?.halted).toContain('over budget')
    // A later event for the issue starts nothing: the pipeline waits for a person.
    await job(
      w,
      { source: 'label', issue: '7', actor: ada, label: 'Implementing' },
      {
        id: 'run9',
        attempt: '1'
      }
    )
    expect(w.agentRuns).toHaveLength(2)
  })

  it("caps one profile's stage on its own: the reviewer's retries share its budget", async () => {
    const w = world(
      '',
      (k) => (k.profile === 'reviewer' ? { outcome: 'failed', costUsd: 0.4 } : { costUsd: 5 }),
      'max_cost_usd: 0.5'
    )
    await drive(w)
    expect(w.agentRuns.map((k) => `${k.profile}/${k.attempt}`)).toEqual([
      'researcher/0',
      'implementer/0',
      'reviewer/0',
      'reviewer/1'
    ])
    expect(w.budgets).toEqual([undefined, undefined, 0.5, 0.1])
  })

  it('counts nothing and passes no budget when WORKFLOW.md sets none', async () => {
    const w = world('', () => ({ costUsd: 100 }))
    await drive(w)
    expect(w.agentRuns).toHaveLength(3)
    expect(w.budgets).toEqual([undefined, undefined, undefined])
  })
})
