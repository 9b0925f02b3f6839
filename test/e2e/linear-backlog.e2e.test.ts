// issue_moved_to_backlog on Linear, through the bundled action and relay: a person moves the
// issue into Backlog, the webhook relay's dispatch runs the automation's profile once (again
// delivered, and after it the reconcile, nothing more); a later move the relay missed is found
// by the reconcile and run once, however many reconciles follow.
import { createHmac, randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from '@jest/globals'
import type { linearRelay } from '../../src/relay/linear-webhook.js'
import {
  OWNER,
  REPO,
  ROOT,
  runAction,
  sharedDir,
  sharedFile,
  type ActionRun
} from '../harness/action-run.js'
import { FakeLinear } from '../harness/fake-linear.js'
import { drive, wakeUp } from './drive.js'
import {
  helperProfile as HELPER,
  startPipeline,
  workflowMd,
  type Pipeline
} from './pipeline-fixture.js'

let p: Pipeline | undefined
let linear: FakeLinear | undefined
afterEach(async () => {
  await p?.gh.stop()
  await linear?.close()
  p = undefined
})

const SECRET = 'lin_wh_backlog-test-secret'

const GROOM = [
  '- id: groom',
  '  trigger: { type: issue_moved_to_backlog }',
  '  profile: helper'
].join('\n')

it('runs issue_moved_to_backlog once per move on Linear, from the relay and from the reconcile', async () => {
  linear = await FakeLinear.start()
  const team = linear.addTeam('ENG')
  const issue = linear.addIssue(team, { title: 'Add CSV export', state: 'Todo' })
  const md = workflowMd({ ...HELPER, automations: GROOM }).replace(
    'tracker:\n  kind: github\n',
    'tracker:\n  kind: linear\n  api_key: ${LINEAR_API_KEY}\n  project_slug: ENG\n'
  )
  p = await startPipeline({ ...HELPER, files: { ...HELPER.files, 'WORKFLOW.md': md } })
  const dir = sharedDir()
  for (const profile of ['researcher', 'helper']) sharedFile(dir, `${profile}.count`)
  const env = {
    LINEAR_API_KEY: linear.apiKey,
    LINEAR_API_URL: linear.url,
    ITERVOX_FAKE_AGENT_SCRIPT_DIR: dir
  }
  const runs = (profile: string) => Number(readFileSync(join(dir, `${profile}.count`), 'utf8')) || 0
  const reconcile = async (): Promise<ActionRun> => {
    const r = await runAction('main', p!.sb, p!.gh, {
      event: 'workflow_dispatch',
      eventOptions: { sender: 'ada' },
      inputs: { mode: 'reconcile' },
      env
    })
    expect(r.code).toBe(0)
    return r
  }

  const { linearRelay: relayOf } = (await import(join(ROOT, 'dist/relay/index.js'))) as {
    linearRelay: typeof linearRelay
  }
  const relay = relayOf({
    secret: SECRET,
    githubToken: 'github_pat_relay',
    repository: `${OWNER}/${REPO}`,
    githubApiUrl: p.gh.url,
    log: () => undefined
  })
  // Linear's webhook for the move the person just made, signed as Linear signs it.
  const deliver = async () => {
    const body = JSON.stringify({
      action: 'update',
      type: 'Issue',
      data: { identifier: issue.identifier, state: { name: linear!.stateOf(issue) } },
      updatedFrom: { stateId: randomUUID() },
      webhookTimestamp: Date.now()
    })
    const res = await relay(
      new Request('http://relay.test/linear', {
        method: 'POST',
        headers: {
          'linear-signature': createHmac('sha256', SECRET).update(body).digest('hex'),
          'linear-delivery': randomUUID()
        },
        body
      })
    )
    expect(res.status).toBe(200)
    return wakeUp(p!.gh.dispatches.at(-1)!)
  }

  linear.move(issue, 'Backlog')
  const wake = await deliver()
  const [groomed] = await drive(p, wake, env)
  expect(groomed!.outputs).toMatchObject({ profile: 'helper', outcome: 'succeeded' })
  // The same move relayed again, then the reconcile: nothing more runs.
  const [again] = await drive(p, await deliver(), env)
  expect(again!.outputs.outcome).toBe('skipped')
  expect(again!.stdout).toMatch(/automation groom already ran for backlog-\d+/)
  expect((await reconcile()).stdout).toMatch(/0 stages started/)
  expect(runs('helper')).toBe(1)

  // Out and back in while the relay is down: the reconcile finds the new move, once.
  linear.move(issue, "Won't Do")
  linear.move(issue, 'Backlog')
  const found = await reconcile()
  expect(found.stdout).toMatch(/ENG-1 Backlog: started Backlog, entry 0 \(moved into "Backlog"/)
  expect((await reconcile()).stdout).toMatch(/ENG-1 Backlog: another reconcile started/)
  const [late] = await drive(p, wakeUp(p.gh.dispatches.at(-1)!), env)
  expect(late!.outputs).toMatchObject({ profile: 'helper', outcome: 'succeeded' })
  expect((await reconcile()).stdout).toMatch(/0 stages started/)
  expect(runs('helper')).toBe(2)
  expect(runs('researcher')).toBe(0)
  expect(linear.stateOf(issue)).toBe('Backlog')
  expect(linear.violations).toEqual([])
  expect(p.gh.violations).toEqual([])
})
