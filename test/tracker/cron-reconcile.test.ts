// The reconcile's cron pass against the loopback GitHub: the first look records the present
// and fires nothing; a later reconcile fires the latest due slot once (earlier missed slots
// collapse into it), also when two reconciles run at once; the wake-up names the automation
// and the slot, and the job reads it back as that automation's run for that slot only.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { emptyRecord } from '../../src/pipeline/record/record.js'
import { automationRun } from '../../src/pipeline/triggers/run.js'
import {
  reconcileRepository,
  type RepositoryReconcile
} from '../../src/tracker/github-reconcile.js'
import type { Issue } from '../../src/pipeline/ports.js'
import { startFakeGitHub, type FakeGitHub } from '../harness/fake-github.js'
import { cleanup, makeOrigin, type Origin } from '../git/repos.js'
import { seedConfig } from '../pipeline/pipeline-config.js'

const config = seedConfig({
  profiles: `triager:
  soul_file: .itervox/agents/researcher/SOUL.md
  instructions_file: .itervox/agents/researcher/INSTRUCTIONS.md`,
  automations: `- id: nightly-triage
  trigger: { type: cron, cron: "0 * * * *", timezone: UTC }
  filter: { states: [Todo, Researching], labels_any: [triage] }
  profile: triager`
})
let origin: Origin
let fake: FakeGitHub

const T0 = new Date('2026-12-01T09:20:00Z')
const hours = (n: number) => new Date(T0.getTime() + n * 3600_000)

function reconcile(at: Date, over: Partial<RepositoryReconcile> = {}) {
  const lines: string[] = []
  return reconcileRepository({
    config,
    client: { token: 't', apiUrl: fake.url, secondMs: 1 },
    owner: 'octo-org',
    repo: 'demo',
    serverUrl: 'https://github.com',
    by: 'run 7',
    dryRun: false,
    log: (l) => lines.push(l),
    now: () => at,
    ...over
  }).then((summary) => ({ summary, lines }))
}

const cronRefs = () =>
  execFileSync('git', ['--git-dir', origin.dir, 'for-each-ref', '--format=%(refname)'])
    .toString()
    .split('\n')
    .filter((r) => r.startsWith('refs/itervox/cron/'))
const steps = () => fake.dispatches.map((d) => d.clientPayload.step).filter(Boolean)

beforeEach(async () => {
  origin = makeOrigin()
  fake = await startFakeGitHub({ originDir: origin.dir })
  fake.addCollaborator('ada', 'write')
  fake.addIssue({ labeller: 'ada', title: 'Triage me', labels: ['Todo', 'triage'] })
  fake.addIssue({ labeller: 'ada', title: 'Not for triage', labels: ['Todo'] })
  fake.addIssue({ labeller: 'ada', title: 'Triage me too', labels: ['Researching', 'triage'] })
})

afterEach(async () => {
  expect(fake.violations).toEqual([])
  await fake.stop()
  cleanup()
})

describe('cron automations in the reconcile', () => {
  it('records the first look without firing, then fires the latest due slot once', async () => {
    const first = await reconcile(T0)
    expect(steps()).toEqual([])
    expect(cronRefs()).toEqual(['refs/itervox/cron/nightly-triage/202612010920'])
    expect(first.lines).toContain(
      'cron nightly-triage: first look; recorded 2026-12-01T09:20:00.000Z, fires from the next slot'
    )

    // Three slots came (10:00, 11:00, 12:00): one fire, for 12:00, on the two triage issues.
    const later = await reconcile(hours(3))
    expect(later.lines).toContain(
      'cron nightly-triage: fired the slot of 2026-12-01T12:00:00.000Z (2 earlier slot(s) since the last fire collapse into it)'
    )
    expect(fake.dispatches.map((d) => d.clientPayload)).toEqual(
      expect.arrayContaining([
        { issue: '1', state: 'Todo', entry: 0, step: 'cron-202612011200-nightly-triage' },
        { issue: '3', state: 'Researching', entry: 0, step: 'cron-202612011200-nightly-triage' }
      ])
    )
    expect(steps()).toHaveLength(2)

    // The same time again: nothing new is due.
    const again = await reconcile(hours(3))
    expect(steps()).toHaveLength(2)
    expect(again.lines).toContain('cron nightly-triage: no slot since 2026-12-01T12:00:00.000Z')
  })

  it('fires a slot once when two reconciles run at the same time', async () => {
    await reconcile(T0)
    const [a, b] = await Promise.all([
      reconcile(hours(1), { by: 'run 8' }),
      reconcile(hours(1), { by: 'run 9' })
    ])
    expect(steps()).toEqual([
      'cron-202612011000-nightly-triage',
      'cron-202612011000-nightly-triage'
    ])
    const said = [...a.lines, ...b.lines]
    expect(said.filter((l) => l.includes(': fired the slot of'))).toHaveLength(1)
    expect(said).toContain(
      'cron nightly-triage: another reconcile fired the slot of 2026-12-01T10:00:00.000Z'
    )
  })

  it('runs the automation a wake-up names, for a slot of its schedule only', () => {
    const issue: Issue = {
      id: '1',
      identifier: '#1',
      title: 't',
      description: '',
      state: 'Todo',
      labels: ['Todo', 'triage'],
      url: '',
      closed: false
    } as Issue
    const wake = (step: string) =>
      automationRun(
        config,
        {
          source: 'wake',
          issue: '1',
          actor: { login: 'x', type: 'Bot' },
          wake: { entry: 0, step }
        },
        issue,
        emptyRecord(),
        hours(1)
      )
    expect(wake('cron-202612011000-nightly-triage')).toMatchObject({
      state: 'Todo',
      automation: { id: 'nightly-triage' },
      plan: { kind: 'automation', profile: 'triager', automation: { key: 'cron-202612011000' } }
    })
    // 10:05 is no slot of "0 * * * *"; 11:00 has not come at 10:20.
    expect(wake('cron-202612011005-nightly-triage')).toMatchObject({
      skip: expect.stringMatching(/^cron: no cron automation's filter admits/)
    })
    expect(wake('cron-202612011100-nightly-triage')).toEqual({
      skip: 'cron: the slot 2026-12-01T11:00:00.000Z has not come yet'
    })
    expect(wake('cron-202612011000-other')).toMatchObject({ skip: expect.stringMatching(/admits/) })
  })
})
