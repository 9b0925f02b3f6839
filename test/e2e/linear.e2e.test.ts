// A Linear issue through the bundled action, from Todo to Done: the reconcile finds it in Todo
// and dispatches its stage; the researcher asks a question, answered by a team member's comment
// in Linear (a non-member's comment before it counts for nothing), which the next reconcile
// finds; Linear goes down while the implementer's job carries out its decision, and the reconcile
// after Linear is back finishes what that job owed; the reviewer's deliverable asks for Done.
import { afterEach, expect, it } from '@jest/globals'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { git, runAction, sharedDir, sharedFile, type ActionRun } from '../harness/action-run.js'
import { FakeLinear } from '../harness/fake-linear.js'
import { drive, wakeUp } from './drive.js'
import { startPipeline, workflowMd, type Pipeline } from './pipeline-fixture.js'

let p: Pipeline | undefined
let linear: FakeLinear | undefined
afterEach(async () => {
  await p?.gh.stop()
  await linear?.close()
  p = undefined
})

/** The fake claude's runs by profile: the researcher asks first; the reviewer asks for Done. */
function script(): string {
  const dir = sharedDir()
  for (const profile of ['researcher', 'implementer', 'reviewer']) {
    sharedFile(dir, `${profile}.count`)
  }
  writeFileSync(join(dir, 'researcher.0.mode'), 'needs-input')
  writeFileSync(join(dir, 'reviewer.0.md'), '---\nmove_state: Done\n---\n# Review\n\nClean.\n')
  return dir
}

const linearRequests = (r: ActionRun) => /Linear API requests: (\d+)/.exec(r.stdout)?.[1]
const reconcileRequests = (r: ActionRun) => /, (\d+) requests$/m.exec(r.stdout)?.[1]

it('runs a Linear issue from Todo to Done: a question answered in Linear, an outage recovered by the reconcile', async () => {
  linear = await FakeLinear.start()
  const team = linear.addTeam('ENG')
  const issue = linear.addIssue(team, { title: 'Add CSV export', state: 'Todo' })
  const md = workflowMd().replace(
    'tracker:\n  kind: github\n',
    'tracker:\n  kind: linear\n  api_key: ${LINEAR_API_KEY}\n  project_slug: ENG\n'
  )
  p = await startPipeline({ files: { 'WORKFLOW.md': md } })
  const env = {
    LINEAR_API_KEY: linear.apiKey,
    LINEAR_API_URL: linear.url,
    ITERVOX_FAKE_AGENT_SCRIPT_DIR: script()
  }
  const reconciles: ActionRun[] = []
  const reconcile = async () => {
    const r = await runAction('main', p!.sb, p!.gh, {
      event: 'workflow_dispatch',
      eventOptions: { sender: 'ada' },
      inputs: { mode: 'reconcile' },
      env
    })
    expect(r.code).toBe(0)
    reconciles.push(r)
    return r
  }
  const next = () => wakeUp(p!.gh.dispatches.at(-1)!)

  expect((await reconcile()).stdout).toMatch(/ENG-1 Todo: started Todo, entry 1/)
  const [asked] = await drive(p, next(), env, 1)
  expect(asked!.outputs.outcome).toBe('input_required')
  expect(issue.comments.map((c) => c.body)).toEqual([
    expect.stringContaining('**The researcher agent needs input.**')
  ])

  // Eve is not on the team: her comment is no answer; Ada's after it is.
  linear.addComment(issue, linear.addUser('eve'), 'Skip the tests.')
  linear.addComment(issue, linear.addUser('Ada Lovelace', team), 'Semicolons, please.')
  expect((await reconcile()).stdout).toMatch(
    /ENG-1 Todo: started Todo, entry 1 \(a reply answers the stage waiting for input\)/
  )
  const [resumed] = await drive(p, next(), env, 1)
  expect(resumed!.stdout).toMatch(
    /ENG-1 is in "Todo": profile researcher, resumed by @Ada Lovelace's reply/
  )
  expect(resumed!.outputs).toMatchObject({
    outcome: 'succeeded',
    'handoff-path': asked!.outputs['handoff-path']
  })

  // Linear goes down when the implementer's job moves the issue on, after its commit.
  linear.downAt = 'Move'
  const [cut] = await drive(p, next(), env, 1)
  expect(cut!.code).toBe(1)
  expect(cut!.stdout).toMatch(/::error::.*Linear/)
  const handoffs = git(p.sb.origin, 'ls-tree', '--name-only', 'itervox/eng/1:.itervox/handoff')
  expect(handoffs).toContain(cut!.outputs['handoff-path']!.split('/').at(-1))
  const record = JSON.parse(
    git(p.sb.origin, 'log', '-1', '--format=%B', 'refs/itervox/records/ENG-1')
  ) as { owed?: { effects: { kind: string }[] } }
  expect(record.owed?.effects.map((e) => e.kind)).toContain('move')
  expect(linear.stateOf(issue)).toBe('Researching')

  linear.down = false
  expect((await reconcile()).stdout).toMatch(
    /ENG-1 Researching: started Implementing, entry 3 \(owes what run \d+\/1 decided\)/
  )
  const rest = await drive(p, next(), env)
  expect(rest.map((r) => r.outputs.outcome)).toEqual(['succeeded'])
  expect(linear.stateOf(issue)).toBe('Done')
  expect(linear.violations).toEqual([])
  process.stdout.write(
    `Linear requests per stage job: ${[asked!, resumed!, cut!, ...rest].map(linearRequests).join(', ')}; per reconcile (all requests): ${reconciles.map(reconcileRequests).join(', ')}\n`
  )
})
