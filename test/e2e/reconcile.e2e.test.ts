// mode: reconcile through the bundled action: a label event that started nothing is repaired
// by the reconcile's wake-up, whose job runs the stage; the post step does nothing.
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

it('starts the stage a lost label event left unstarted, once, with no agent of its own', async () => {
  p = await startPipeline()
  const reconcile = {
    event: 'workflow_dispatch' as const,
    eventOptions: { sender: 'ada' },
    inputs: { mode: 'reconcile' }
  }
  const run = await runAction('main', p.sb, p.gh, reconcile)
  expect(run.code).toBe(0)
  expect(run.stdout).toMatch(
    /#1 Todo: started Todo, entry 1 \(no stage started on entering "Todo"\)/
  )
  expect(run.stdout).toMatch(/reconcile: 1 issue looked at, 1 stage started, \d+ requests/)
  expect(p.gh.dispatches).toHaveLength(1)
  const post = await runAction('post', p.sb, p.gh, { ...reconcile, state: run.state })
  expect(post.code).toBe(0)
  expect(post.stdout.trim()).toBe('the stage finished in the main step; nothing to do')

  // The wake-up's job runs the researcher's stage for entry 1, as the label's would have.
  const [stage] = await drive(p, wakeUp(p.gh.dispatches[0]!), {}, 1)
  expect(stage?.outputs).toMatchObject({ outcome: 'succeeded', profile: 'researcher' })
  const status = p.gh.comments(p.issue).find((c) => c.body.startsWith('<!-- itervox:status -->'))
  expect(readRecordFromComment(status!.body)?.stages).toMatchObject([{ entry: 1, state: 'Todo' }])
  expect(p.gh.violations).toEqual([])
})
