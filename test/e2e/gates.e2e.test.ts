// Approval gates and the stop switch through the bundled action, each in as few jobs as shows
// it: the gate waits, refuses the person who started the pipeline, and runs once another
// writer approves; the repository's switch holds the stage the pipeline dispatched next, and
// the reconcile starts it once the switch is off.
import { afterEach, expect, it } from '@jest/globals'
import { readRecordFromComment } from '../../src/tracker/comment-record.js'
import { runAction } from '../harness/action-run.js'
import { drive, wakeUp } from './drive.js'
import { startPipeline, type Pipeline } from './pipeline-fixture.js'

let p: Pipeline | undefined
afterEach(async () => {
  await p?.gh.stop()
  p = undefined
})

const status = (q: Pipeline) =>
  q.gh.comments(q.issue).find((c) => c.body.startsWith('<!-- itervox:status -->'))!.body

const labeled = (q: Pipeline, label = 'Todo') => ({
  event: 'issues.labeled' as const,
  eventOptions: { issue: q.issue, label, labels: [label], sender: 'ada' }
})

it('waits for approval, refuses the requester, and runs when another writer approves', async () => {
  // From Researching, whose implementer stage waits: a stage before it would add nothing.
  p = await startPipeline({ gate: true, state: 'Researching' })
  p.gh.addCollaborator('grace', 'write')
  const [gated] = await drive(p, labeled(p, 'Researching'), {}, 1)
  expect([gated!.outputs.state, gated!.outputs.outcome]).toEqual(['Researching', 'skipped'])
  expect(gated!.stdout).toContain('the implementer stage in "Researching" waits for approval')
  expect(status(p)).toContain('**Waiting for approval:**')
  // Named, not mentioned: the status comment pings nobody.
  expect(status(p)).toContain('(@\u2060ada started it)')

  const approve = (sender: string) => ({
    event: 'issue_comment.created' as const,
    eventOptions: { issue: p!.issue, comment: '/approve', sender, labels: p!.gh.labels(p!.issue) }
  })
  const [refused] = await drive(p, approve('ada'), {}, 1)
  expect(refused?.outputs.outcome).toBe('skipped')
  expect(status(p)).toMatch(
    /\*\*Approval refused:\*\* @\u2060?ada started this pipeline and cannot approve it/
  )

  const [approved] = await drive(p, approve('grace'), {}, 1)
  expect(approved?.outputs).toMatchObject({ profile: 'implementer', outcome: 'succeeded' })
  expect(readRecordFromComment(status(p))?.approval).toMatchObject({
    state: 'Researching',
    by: 'grace'
  })
  expect(p.gh.violations).toEqual([])
})

it('the repository switch holds the next stage mid-pipeline; the reconcile resumes it', async () => {
  p = await startPipeline()
  const [research] = await drive(p, labeled(p), {}, 1)
  expect(research?.outputs).toMatchObject({ profile: 'researcher', outcome: 'succeeded' })
  // ITERVOX_PAUSED=true is set while the researcher's wake-up is on its way.
  const paused = { INPUT_PAUSED: 'true' }
  const [held] = await drive(p, wakeUp(p.gh.dispatches[0]!), paused, 1)
  expect(held?.outputs).toMatchObject({ outcome: 'skipped', state: 'Researching' })
  expect(held?.summary + held!.stdout).toContain('paused for the whole repository')
  expect(status(p)).toContain('**Paused:** new stages do not start')

  const reconcile = (env: Record<string, string>) =>
    runAction('main', p!.sb, p!.gh, {
      event: 'workflow_dispatch',
      eventOptions: { sender: 'ada' },
      inputs: { mode: 'reconcile' },
      env
    })
  const before = p.gh.dispatches.length
  expect((await reconcile(paused)).stdout).toContain('the repository is paused')
  expect(p.gh.dispatches).toHaveLength(before)

  // Unset: the reconcile starts the held stage, for the entry the pipeline was in.
  await reconcile({})
  expect(p.gh.dispatches).toHaveLength(before + 1)
  const [resumed] = await drive(p, wakeUp(p.gh.dispatches[before]!), {}, 1)
  expect(resumed?.outputs).toMatchObject({ profile: 'implementer', outcome: 'succeeded' })
  const record = readRecordFromComment(status(p))
  expect(record?.paused).toBeUndefined()
  expect(record?.stages.map((s) => [s.entry, s.profile])).toEqual([
    [1, 'researcher'],
    [2, 'implementer']
  ])
  expect(p.gh.violations).toEqual([])
})

it('the reconcile resumes a paused issue only when whoever took the label off may start stages', async () => {
  p = await startPipeline()
  const [research] = await drive(p, labeled(p), {}, 1)
  expect(research?.outputs).toMatchObject({ profile: 'researcher', outcome: 'succeeded' })
  // ada pauses the issue while the researcher's wake-up is on its way: the next stage is held.
  p.gh.addIssueLabels(p.issue, ['itervox-paused'], p.gh.user('ada'))
  const [held] = await drive(p, wakeUp(p.gh.dispatches[0]!), {}, 1)
  expect(held?.outputs).toMatchObject({ outcome: 'skipped', state: 'Researching' })
  expect(status(p)).toContain('**Paused:** new stages do not start')

  // tim, with triage only, takes the label off: the job of that event denies him.
  p.gh.removeIssueLabel(p.issue, 'itervox-paused', p.gh.user('tim'))
  const unlabeled = await runAction('main', p.sb, p.gh, {
    event: 'issues.unlabeled',
    eventOptions: {
      issue: p.issue,
      label: 'itervox-paused',
      labels: ['Researching'],
      sender: 'tim'
    }
  })
  expect(unlabeled.outputs.outcome).toBe('denied')

  const reconcile = () =>
    runAction('main', p!.sb, p!.gh, {
      event: 'workflow_dispatch',
      eventOptions: { sender: 'ada' },
      inputs: { mode: 'reconcile' }
    })
  const before = p.gh.dispatches.length
  const refused = await reconcile()
  expect(refused.code).toBe(0)
  expect(refused.stdout).toContain(
    '#1 Researching: not resumed: itervox-paused was taken off, but @tim has triage permission on this repository; stages need write, maintain or admin; put the itervox-paused label back'
  )
  expect(p.gh.dispatches).toHaveLength(before)
  // The issue shows it is still paused, and why.
  expect(p.gh.labels(p.issue)).toEqual(['Researching', 'itervox-paused'])
  const said = p.gh.comments(p.issue).filter((c) => c.body.startsWith('**Still paused:**'))
  expect(said.map((c) => c.body)).toEqual([
    '**Still paused:** itervox-paused was taken off, but @\u2060tim has triage permission on this repository; stages need write, maintain or admin. The label is back; someone with write access may take it off to resume the pipeline.'
  ])
  expect(status(p)).toContain('**Paused:** new stages do not start')
  // The next reconcile finds the label and says nothing more.
  expect((await reconcile()).stdout).toContain('#1 Researching: nothing to start (is paused')
  expect(p.gh.comments(p.issue).filter((c) => c.body.startsWith('**Still paused:**'))).toHaveLength(
    1
  )

  // ada, a writer, takes it off: the reconcile resumes the held stage.
  p.gh.removeIssueLabel(p.issue, 'itervox-paused', p.gh.user('ada'))
  await reconcile()
  expect(p.gh.dispatches).toHaveLength(before + 1)
  const [resumed] = await drive(p, wakeUp(p.gh.dispatches[before]!), {}, 1)
  expect(resumed?.outputs).toMatchObject({ profile: 'implementer', outcome: 'succeeded' })
  expect(readRecordFromComment(status(p))?.paused).toBeUndefined()
  expect(p.gh.violations).toEqual([])
})
