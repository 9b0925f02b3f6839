// A cron automation through the bundled action: two scheduled reconciles that run at once
// fire its due slot once (one wake-up per issue its filter admits), the wake-up's job runs its
// profile once for that slot, and a second delivery of the wake-up runs nothing.
import { afterEach, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { git, runAction, sharedDir, sharedFile } from '../harness/action-run.js'
import { readRecordFromComment } from '../../src/tracker/comment-record.js'
import { wakeUp } from './drive.js'
import { helperProfile as helper, startPipeline, type Pipeline } from './pipeline-fixture.js'

let p: Pipeline | undefined
afterEach(async () => {
  await p?.gh.stop()
  p = undefined
})

it('fires a due slot once across two overlapping scheduled reconciles; its run happens once', async () => {
  // Monthly at midnight UTC; issue #1 waits in Reviewing, where no stage of the pipeline starts.
  p = await startPipeline({
    ...helper,
    state: 'Reviewing',
    automations: [
      '- id: monthly-sweep',
      '  trigger: { type: cron, cron: "0 0 1 * *", timezone: UTC }',
      '  filter: { states: [Reviewing] }',
      '  profile: helper'
    ].join('\n')
  })
  // An earlier reconcile judged the schedule two months ago (its ref, as cron-marks.ts writes it).
  const old = new Date()
  old.setUTCMonth(old.getUTCMonth() - 2)
  const stamp = old.toISOString().slice(0, 16).replace(/[-T:]/g, '')
  const head = git(p.sb.origin, 'rev-parse', 'main').trim()
  git(p.sb.origin, 'update-ref', `refs/itervox/cron/monthly-sweep/${stamp}`, head)

  const now = new Date()
  const slot = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
  const slotStamp = slot.toISOString().slice(0, 16).replace(/[-T:]/g, '')
  const reconcile = (runId: string, workspace: string) =>
    runAction('main', p!.sb, p!.gh, {
      event: 'workflow_dispatch',
      eventOptions: { sender: 'ada' },
      inputs: { mode: 'reconcile' },
      env: { GITHUB_RUN_ID: runId, GITHUB_WORKSPACE: workspace }
    })
  const [a, b] = await Promise.all([
    reconcile('3001', p.sb.workspace),
    reconcile('3002', mkdtempSync(join(p.sb.dir, 'workspace-b-')))
  ])
  expect([a.code, b.code]).toEqual([0, 0])
  const said = a.stdout + b.stdout
  expect(said.match(/cron monthly-sweep: fired the slot of /g)).toHaveLength(1)
  // The other found the slot taken: its create lost, or it looked after the ref was made.
  expect(said).toMatch(
    new RegExp(
      `cron monthly-sweep: (another reconcile fired the slot of|no slot since) ${slot.toISOString().replace(/[.]/g, '\\.')}`
    )
  )
  const step = `cron-${slotStamp}-monthly-sweep`
  expect(p.gh.dispatches.map((d) => d.clientPayload)).toEqual([
    { issue: String(p.issue), state: 'Reviewing', entry: 0, step }
  ])

  // The wake-up's job runs the helper once for the slot; delivered again, it runs nothing.
  const dir = sharedDir()
  sharedFile(dir, 'helper.count')
  const env = { ITERVOX_FAKE_AGENT_SCRIPT_DIR: dir }
  const wake = wakeUp(p.gh.dispatches[0]!)
  const first = await runAction('main', p.sb, p.gh, {
    ...wake,
    env: { ...env, GITHUB_RUN_ID: '3003' }
  })
  expect(first.outputs).toMatchObject({
    outcome: 'succeeded',
    profile: 'helper',
    state: 'Reviewing'
  })
  const again = await runAction('main', p.sb, p.gh, {
    ...wake,
    env: { ...env, GITHUB_RUN_ID: '3004' }
  })
  expect(again.outputs).toMatchObject({ outcome: 'skipped' })
  expect(again.stdout).toMatch(`automation monthly-sweep already ran for cron-${slotStamp}`)
  const count = join(dir, 'helper.count')
  expect(existsSync(count) ? Number(readFileSync(count, 'utf8')) : 0).toBe(1)
  const status = p.gh.comments(p.issue).find((c) => c.body.startsWith('<!-- itervox:status -->'))!
  expect(readRecordFromComment(status.body)?.stages).toMatchObject([
    {
      kind: 'automation',
      profile: 'helper',
      automation: { id: 'monthly-sweep', event: `cron-${slotStamp}` }
    }
  ])
  // The issue stays where it was: a helper run moves nothing it was not asked to.
  expect(p.gh.labels(p.issue)).toContain('Reviewing')

  // A third reconcile in the same month finds nothing new due.
  const third = await reconcile('3005', p.sb.workspace)
  expect(third.stdout).toContain(`cron monthly-sweep: no slot since ${slot.toISOString()}`)
  expect(p.gh.dispatches).toHaveLength(1)
  expect(p.gh.violations).toEqual([])
})
