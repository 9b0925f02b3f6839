// Blockers through the bundled action: a Todo issue with an open blocker (GitHub's issue
// dependencies) does not start, and says so once; closing the last blocker (the `issues:
// closed` event, shaped like GitHub's) moves it by blockers_resolved's policy.move_to_state, and
// the new state's stage runs.
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
  expect(p.gh.dispatches.map((d) => d.clientPayload)).toEqual([
    { issue: String(p.issue), state: 'Researching', entry: 1 }
  ])
  const [stage] = await drive(p, wakeUp(p.gh.dispatches[0]!), {}, 1)
  expect(stage?.outputs).toMatchObject({ outcome: 'succeeded', profile: 'implementer' })
  expect(p.gh.violations).toEqual([])
})
