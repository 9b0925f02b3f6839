// Blockers through the bundled action: a Todo issue with an open blocker (GitHub's issue
// dependencies, or a "blocked by #N" in its description) does not start, and says so once;
// closing the last blocker (the `issues: closed` event, shaped like GitHub's) moves each by
// blockers_resolved's policy.move_to_state, and the new state's stage runs.
import { afterEach, expect, it } from '@jest/globals'
import { runAction } from '../harness/action-run.js'
import { drive, wakeUp } from './drive.js'
import { startPipeline, type Pipeline } from './pipeline-fixture.js'

let p: Pipeline | undefined
afterEach(async () => {
  await p?.gh.stop()
  p = undefined
})

it('holds a Todo issue while a blocker is open; its closing moves it by move_to_state', async () => {
  p = await startPipeline({
    automations: [
      '- id: unblocked',
      '  trigger: { type: blockers_resolved }',
      '  filter: { states: [Todo] }',
      '  profile: researcher',
      '  policy: { move_to_state: Researching }'
    ].join('\n')
  })
  const blocker = p.gh.addIssue({ title: 'Ship the API first', author: 'ada' })
  p.gh.addDependency(p.issue, blocker)
  // Another issue says so in its description, as itervox reads it.
  const phrased = p.gh.addIssue({
    title: 'Document the export',
    body: `Blocked by #${blocker}.`,
    labels: ['Todo'],
    author: 'ada'
  })

  const labelled = {
    event: 'issues.labeled' as const,
    eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada' }
  }
  const held = await runAction('main', p.sb, p.gh, { ...labelled, env: { GITHUB_RUN_ID: '4001' } })
  expect(held.outputs).toMatchObject({ outcome: 'skipped' })
  expect(held.stdout).toMatch(`#${p.issue} is blocked by #${blocker}`)
  const notices = () =>
    p!.gh.comments(p!.issue).filter((c) => c.body.startsWith('<!-- itervox:blocked:1 -->'))
  expect(notices()).toHaveLength(1)
  // Delivered again: still held, and the issue is told once.
  await runAction('main', p.sb, p.gh, { ...labelled, env: { GITHUB_RUN_ID: '4002' } })
  expect(notices()).toHaveLength(1)
  expect(p.gh.dispatches).toEqual([])
  const byPhrase = await runAction('main', p.sb, p.gh, {
    event: 'issues.labeled',
    eventOptions: { issue: phrased, label: 'Todo', labels: ['Todo'], sender: 'ada' },
    env: { GITHUB_RUN_ID: '4005' }
  })
  expect(byPhrase.outputs).toMatchObject({ outcome: 'skipped' })
  expect(byPhrase.stdout).toMatch(`#${phrased} is blocked by #${blocker}`)

  p.gh.closeIssue(blocker, 'ada')
  const closed = await runAction('main', p.sb, p.gh, {
    event: 'issues.closed',
    eventOptions: { issue: blocker, sender: 'ada' },
    env: { GITHUB_RUN_ID: '4003' }
  })
  expect(closed.code).toBe(0)
  expect(closed.stdout).toContain(
    `#${p.issue} Todo: moved to "Researching" (automation unblocked: every blocker is done)`
  )
  expect(p.gh.labels(p.issue)).toEqual(['Researching'])
  expect(p.gh.labels(phrased)).toEqual(['Researching'])
  expect(p.gh.dispatches.map((d) => d.clientPayload)).toEqual(
    expect.arrayContaining([
      { issue: String(p.issue), state: 'Researching', entry: 1 },
      { issue: String(phrased), state: 'Researching', entry: 1 }
    ])
  )
  expect(p.gh.dispatches).toHaveLength(2)
  const first = p.gh.dispatches.find((d) => d.clientPayload.issue === String(p!.issue))!
  const [stage] = await drive(p, wakeUp(first), {}, 1)
  expect(stage?.outputs).toMatchObject({ outcome: 'succeeded', profile: 'implementer' })
  expect(p.gh.violations).toEqual([])
})
