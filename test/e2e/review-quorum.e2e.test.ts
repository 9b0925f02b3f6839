// agent.reviewer_profiles with agent.review_quorum through the bundled action: two reviewers
// run one after another on the work, and their verdicts combine as the quorum says.
import { afterEach, expect, it } from '@jest/globals'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { sharedDir, sharedFile } from '../harness/action-run.js'
import { readRecordFromComment } from '../../src/tracker/comment-record.js'
import { drive } from './drive.js'
import { startPipeline, type Pipeline } from './pipeline-fixture.js'

let p: Pipeline | undefined
afterEach(async () => {
  await p?.gh.stop()
  p = undefined
})

/** Scripts each profile's successive runs for the fake claude (see fake-claude.mjs). */
function script(runs: Record<string, string[]>): Record<string, string> {
  const dir = sharedDir()
  for (const profile of ['researcher', 'implementer', 'reviewer'])
    sharedFile(dir, `${profile}.count`)
  for (const [profile, list] of Object.entries(runs)) {
    list.forEach((md, n) => writeFileSync(join(dir, `${profile}.${n}.md`), md))
  }
  return { ITERVOX_FAKE_AGENT_SCRIPT_DIR: dir }
}

const verdict = (v: 'PASS' | 'FAIL', why: string) => `---\nverdict: ${v}\n---\n# Review\n\n${why}\n`

it('runs two reviewers in sequence and sends the work back when only one of two passes (majority), then moves on when both pass', async () => {
  p = await startPipeline({
    agent: 'auto_review: true\nreviewer_profiles: [reviewer, implementer]\nreview_quorum: majority'
  })
  const env = script({
    reviewer: [
      verdict('FAIL', '## Critical\n- src/a.ts:1 breaks the build'),
      verdict('PASS', 'Clean.')
    ],
    implementer: [verdict('PASS', 'Fine by me.'), verdict('PASS', 'Still fine.')]
  })
  const runs = await drive(
    p,
    {
      event: 'issues.labeled',
      eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada', title: 'x' }
    },
    env,
    6
  )
  expect(runs.map((r) => `${r.outputs.profile}:${r.outputs['next-state'] ?? ''}`)).toEqual([
    'researcher:',
    'reviewer:',
    // The first reviewer's FAIL does not decide under majority: the second one is heard.
    'implementer:',
    // One PASS of two is no majority: the work goes back to its profile.
    'researcher:',
    'reviewer:',
    'implementer:Researching'
  ])
  const status = p.gh.comments(p.issue).find((c) => c.body.startsWith('<!-- itervox:status -->'))
  const stages = readRecordFromComment(status!.body)!.stages
  expect(stages.map((s) => [s.profile, s.kind, s.round, s.verdict ?? null])).toEqual([
    ['researcher', 'work', 0, null],
    ['reviewer', 'review', 0, 'FAIL'],
    ['implementer', 'review', 0, 'PASS'],
    ['researcher', 'work', 1, null],
    ['reviewer', 'review', 1, 'PASS'],
    ['implementer', 'review', 1, 'PASS']
  ])
  expect(p.gh.labels(p.issue)).toContain('Researching')
  expect(p.gh.violations).toEqual([])
})
