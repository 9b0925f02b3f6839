// The job loop's last check before the tracker: whatever reached a comment body or the record
// without being redacted (the stand-in stage below commits what it is told, unscreened) is
// redacted there, and the job says where.
import { describe, expect, it } from '@jest/globals'
import type { JobTrigger } from '../../src/pipeline/ports.js'
import { SecretScanner } from '../../src/secrets/scanner.js'
import { job, MemoryWorld, type AgentScript } from '../harness/memory-pipeline.js'
import { seedConfig } from './pipeline-config.js'

const TOKEN = 'ghs_job_token_for_tests'
const STATES = ['Todo', 'Researching', 'Implementing', 'Reviewing', 'Done', "Won't Do"]
const todo: JobTrigger = {
  source: 'label',
  issue: '7',
  actor: { login: 'ada', type: 'User' },
  label: 'Todo'
}

function world(script: AgentScript): MemoryWorld {
  const w = new MemoryWorld(seedConfig(), STATES, script)
  w.labels.set('7', ['Todo'])
  w.secrets = new SecretScanner([{ name: 'GITHUB_TOKEN', value: TOKEN }])
  return w
}

describe('the tracker behind the job loop', () => {
  it("redacts a secret in the agent's comment and says so", async () => {
    const w = world(() => ({ text: `---\ncomment: "the token is ${TOKEN}"\n---\n# Done\n` }))
    const r = await job(w, todo, { id: 'run1', attempt: '1' })
    const agent = w.comments.find((c) => c.agent === 'researcher')
    expect(agent?.body).toBe('the token is (redacted GITHUB_TOKEN)')
    expect(r.withheld).toContain(
      "the researcher agent's comment: the value of GITHUB_TOKEN redacted"
    )
  })

  it('redacts a secret in what the record keeps (a reason) before the status comment is written', async () => {
    const w = world(() => ({ outcome: 'failed', reason: `exit 1: ${TOKEN} refused` }))
    const r = await job(w, todo, { id: 'run1', attempt: '1' })
    expect(w.stored).not.toBeNull()
    expect(w.stored).not.toContain(TOKEN)
    expect(w.record()?.stages[0]?.reason).toBe('exit 1: (redacted GITHUB_TOKEN) refused')
    expect(r.withheld).toContain('the status comment: the value of GITHUB_TOKEN redacted')
    for (const c of w.comments) expect(c.body).not.toContain(TOKEN)
  })

  it('changes nothing and reports nothing when no secret is there', async () => {
    const w = world(() => ({ text: '---\ncomment: "all done"\n---\n# Done\n' }))
    const r = await job(w, todo, { id: 'run1', attempt: '1' })
    expect(w.comments.find((c) => c.agent === 'researcher')?.body).toBe('all done')
    expect(r.withheld).toEqual([])
  })
})
