import { afterEach, describe, expect, it } from '@jest/globals'
import { runJob, type JobResult } from '../../src/pipeline/job.js'
import type { JobTrigger } from '../../src/pipeline/ports.js'
import { MemoryWorkspace, MemoryWorld, memoryStage } from '../harness/memory-pipeline.js'
import { SecretScanner } from '../../src/secrets/scanner.js'
import { linearWorld, type LinearWorld } from '../tracker/linear-world.js'

let w: LinearWorld | undefined
afterEach(async () => {
  expect(w?.linear.violations).toEqual([])
  expect(w?.github.violations).toEqual([])
  await w?.stop()
  w = undefined
})

describe('the job loop on a Linear issue', () => {
  it('takes the issue from Todo through the seed pipeline to Done, each stage woken by dispatch', async () => {
    w = await linearWorld()
    w.github.addCollaborator('ada', 'write')
    const issue = w.linear.addIssue(w.team, {
      title: 'Add CSV export',
      description: 'Export the report as CSV.',
      state: 'Todo'
    })
    // The workspace and the agent in memory; the reviewer's deliverable asks for Done.
    const mem = new MemoryWorld(w.config, [], (k) =>
      k.profile === 'reviewer' ? { text: '---\nmove_state: Done\n---\n# Review\n\nClean.\n' } : {}
    )
    const ws = new MemoryWorkspace(mem)
    const tracker = await w.tracker()
    const bot = { login: 'github-actions[bot]', type: 'Bot' }
    const queue: JobTrigger[] = [
      {
        source: 'workflow_dispatch',
        issue: issue.identifier,
        actor: { login: 'ada', type: 'User' }
      }
    ]
    const results: JobResult[] = []
    for (let n = 0; queue.length > 0 && n < 10; n++) {
      const seen = w.github.dispatches.length
      results.push(
        await runJob({
          trigger: queue.shift()!,
          config: w.config,
          tracker,
          workspace: ws,
          run: { id: `run${n + 1}`, attempt: '1' },
          workDir: '/memory',
          workflowPath: 'WORKFLOW.md',
          trustedCommit: 'memory',
          parentEnv: {},
          secrets: new SecretScanner([]),
          stage: memoryStage(mem)
        })
      )
      for (const d of w.github.dispatches.slice(seen)) {
        const p = d.clientPayload as { issue: string; state: string; entry: number; step?: string }
        queue.push({ source: 'wake', issue: p.issue, actor: bot, state: p.state, wake: p })
      }
    }
    expect(results.map((r) => r.failure)).toEqual([undefined, undefined, undefined])
    expect(mem.agentRuns.map((k) => `${k.state}/${k.profile}`)).toEqual([
      'Todo/researcher',
      'Researching/implementer',
      'Implementing/reviewer'
    ])
    expect(w.linear.stateOf(issue)).toBe('Done')
    const record = await w.records.load(issue.identifier)
    expect(record?.stages.map((s) => s.outcome)).toEqual(['succeeded', 'succeeded', 'succeeded'])
    // One draft pull request on the key-free branch, readied at the end, linked once on Linear.
    expect(w.github.pulls()).toMatchObject([{ head: 'itervox/eng/1', draft: false }])
    expect(issue.attachments).toHaveLength(1)
    expect(
      w.github.dispatches.every(
        (d) => (d.clientPayload as { issue: string }).issue === issue.identifier
      )
    ).toBe(true)
    // Two requests make the tracker, then about four per stage (read, re-read, move, link).
    expect(w.linear.requests).toHaveLength(12)
    expect(w.github.requests).toHaveLength(5)
  })
})
