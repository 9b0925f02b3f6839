import { afterEach, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { git } from '../harness/action-run.js'
import { readRecordFromComment } from '../../src/tracker/comment-record.js'
import { drive } from './drive.js'
import { startPipeline, type Pipeline } from './pipeline-fixture.js'

let current: Pipeline | undefined
afterEach(async () => {
  await current?.gh.stop()
  current = undefined
})

describe('the cost budget, end to end', () => {
  it('stops the third stage once the first two spent agent.max_cost_usd, and escalates', async () => {
    // The fake claude reports $0.0421 a run: two runs spend $0.0842 of $0.08.
    const p = (current = await startPipeline({ agent: 'max_cost_usd: 0.08' }))
    const runs = await drive(p, {
      event: 'issues.labeled',
      eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada' }
    })
    expect(runs.map((r) => [r.outputs.profile, r.outputs.outcome])).toEqual([
      ['researcher', 'succeeded'],
      ['implementer', 'succeeded'],
      ['reviewer', 'skipped']
    ])
    expect(p.gh.labels(p.issue)).toEqual(
      expect.arrayContaining(['Implementing', 'needs-attention'])
    )
    const note = p.gh.comments(p.issue).find((c) => c.body.includes('stage did not start'))
    expect(note?.body).toContain('| Issue | $0.0842 | $0.0800 |')

    // The spend came from the trailers the action wrote on the stages' commits.
    const log = git(
      p.sb.origin,
      'log',
      '--format=%(trailers:key=Itervox-Provenance,valueonly)',
      `refs/heads/itervox/${p.issue}`
    )
    const rows = log
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(rows.map((r) => [r.profile, r.reason, r.costUsd, r.turns])).toEqual([
      ['implementer', 'specialization', 0.0421, 3],
      ['researcher', 'specialization', 0.0421, 3]
    ])

    // The implementer saw the researcher's provenance after Run Context, and was given the rest.
    const status = p.gh.comments(p.issue).find((c) => c.body.startsWith('<!-- itervox:status -->'))
    const [id, attempt] = readRecordFromComment(status!.body)!.stages[1]!.run.split('/')
    const prompt = readFileSync(
      join(p.sb.dir, 'runner-temp', 'itervox-handoff', `${id}-${attempt}-${p.issue}`, 'prompt.md'),
      'utf8'
    )
    expect(prompt.indexOf('## Pipeline Provenance')).toBeGreaterThan(
      prompt.indexOf('## Run Context')
    )
    expect(prompt).toMatch(
      /\| 1 \| researcher \| Todo \| Researching \| specialization \| succeeded \|/
    )
  })
})
