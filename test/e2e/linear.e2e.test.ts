// A Linear issue through the bundled action: the reconcile finds it in Todo and dispatches its
// stage; each stage's job wakes the next, until the reviewer's stage moves it on to Reviewing.
import { afterEach, expect, it } from '@jest/globals'
import { runAction } from '../harness/action-run.js'
import { FakeLinear } from '../harness/fake-linear.js'
import { drive } from './drive.js'
import { startPipeline, workflowMd, type Pipeline } from './pipeline-fixture.js'

let p: Pipeline | undefined
let linear: FakeLinear | undefined
afterEach(async () => {
  await p?.gh.stop()
  await linear?.close()
  p = undefined
})

it('runs a Linear issue from Todo through three stages, started by the reconcile', async () => {
  linear = await FakeLinear.start()
  const team = linear.addTeam('ENG')
  const issue = linear.addIssue(team, { title: 'Add CSV export', state: 'Todo' })
  const md = workflowMd().replace(
    'tracker:\n  kind: github\n',
    'tracker:\n  kind: linear\n  api_key: ${LINEAR_API_KEY}\n  project_slug: ENG\n'
  )
  p = await startPipeline({ files: { 'WORKFLOW.md': md } })
  const env = { LINEAR_API_KEY: linear.apiKey, LINEAR_API_URL: linear.url }
  const reconcile = await runAction('main', p.sb, p.gh, {
    event: 'workflow_dispatch',
    eventOptions: { sender: 'ada' },
    inputs: { mode: 'reconcile' },
    env
  })
  expect(reconcile.stdout).toMatch(/ENG-1 Todo: started Todo, entry 1/)
  expect(reconcile.code).toBe(0)
  const first = p.gh.dispatches[0]!
  const runs = await drive(
    p,
    {
      event: 'repository_dispatch',
      eventOptions: {
        eventType: first.eventType,
        clientPayload: first.clientPayload,
        sender: 'github-actions[bot]',
        senderType: 'Bot'
      }
    },
    env
  )
  expect(runs.map((r) => /Linear API requests: (\d+)/.exec(r.stdout)?.[1])).toEqual(['6', '5', '5'])
  expect(runs.map((r) => r.outputs.outcome)).toEqual(['succeeded', 'succeeded', 'succeeded'])
  expect(linear.stateOf(issue)).toBe('Reviewing')
  expect(linear.violations).toEqual([])
})
