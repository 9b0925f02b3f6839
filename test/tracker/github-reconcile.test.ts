import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { knownStates } from '../../src/config/lookup.js'
import { DISPATCH_TYPE } from '../../src/pipeline/names.js'
import { planStage } from '../../src/pipeline/decision/plan.js'
import {
  emptyRecord,
  recordStart,
  type IssueRecord,
  type StageRecord
} from '../../src/pipeline/record/record.js'
import { GitHubApi } from '../../src/tracker/github-api.js'
import { GitHubTracker } from '../../src/tracker/github-tracker.js'
import { GitHubSlots } from '../../src/tracker/github-slots.js'
import { RepoRecordStore } from '../../src/tracker/repo-records.js'
import {
  reconcileRepository,
  type RepositoryReconcile
} from '../../src/tracker/github-reconcile.js'
import { summaryLine } from '../../src/tracker/reconcile.js'
import { startFakeGitHub, type FakeGitHub } from '../harness/fake-github.js'
import { cleanup, makeOrigin, type Origin } from '../git/repos.js'
import { seedConfig } from '../pipeline/pipeline-config.js'

const config = seedConfig()
let origin: Origin
let fake: FakeGitHub

const stage = (over: Partial<StageRecord> = {}): StageRecord => ({
  entry: 1,
  state: 'Todo',
  profile: 'researcher',
  kind: 'work',
  attempt: 0,
  round: 0,
  outcome: 'succeeded',
  reason: 'done',
  run: '10/1',
  startedAt: '2026-11-30T00:00:00.000Z',
  durationMs: 1,
  ...over
})
// The researcher's stage in Todo decided to move the issue to Researching and wake its stage.
const decided: IssueRecord = {
  ...emptyRecord(),
  state: 'Researching',
  entry: 2,
  transitions: 1,
  stages: [stage()],
  owed: {
    run: '10/1',
    effects: [
      { kind: 'move', from: 'Todo', to: 'Researching' },
      { kind: 'wake', state: 'Researching', entry: 2 }
    ]
  }
}

function api(): GitHubApi {
  return new GitHubApi({
    token: 't',
    apiUrl: fake.url,
    owner: 'octo-org',
    repo: 'demo',
    states: knownStates(config),
    secondMs: 1
  })
}

/** Writes the record as a stage's job does: into the repository, and the status comment. */
async function saveRecord(issue: number, record: IssueRecord): Promise<void> {
  const tracker = api()
  const refs = tracker.refs()
  const port = new GitHubTracker({
    api: tracker,
    records: new RepoRecordStore({ refs, tree: () => refs.treeOf(origin.main) }),
    config,
    owner: 'octo-org',
    repo: 'demo',
    serverUrl: 'https://github.com',
    runId: '10',
    runUrl: 'https://github.com/octo-org/demo/actions/runs/10',
    chain: 'dispatch'
  })
  const found = await tracker.getIssue(String(issue))
  await port.loadRecord(found)
  await port.saveRecord(found, record)
}

function reconcile(over: Partial<RepositoryReconcile> = {}) {
  const lines: string[] = []
  const run = reconcileRepository({
    config,
    client: { token: 't', apiUrl: fake.url, secondMs: 1 },
    owner: 'octo-org',
    repo: 'demo',
    serverUrl: 'https://github.com',
    by: 'run 7',
    dryRun: false,
    log: (l) => lines.push(l),
    ...over
  })
  return run.then((summary) => ({ summary, lines }))
}

const woken = () =>
  fake.dispatches.map((d) => {
    expect(d.eventType).toBe(DISPATCH_TYPE)
    return d.clientPayload
  })
const claims = () =>
  execFileSync('git', ['--git-dir', origin.dir, 'for-each-ref', '--format=%(refname)'])
    .toString()
    .split('\n')
    .filter((r) => r.startsWith('refs/itervox/dispatch/'))

beforeEach(async () => {
  origin = makeOrigin()
  fake = await startFakeGitHub({ originDir: origin.dir })
  fake.addCollaborator('ada', 'write')
})

afterEach(async () => {
  expect(fake.violations).toEqual([])
  await fake.stop()
  cleanup()
})

describe('reconcile of GitHub issues', () => {
  it('repairs a lost label event: the wake-up it sends starts the new entry, once', async () => {
    const n = fake.addIssue({ labeller: 'ada', title: 'Add CSV export', labels: ['Todo'] })
    const { summary, lines } = await reconcile()
    expect(woken()).toEqual([{ issue: String(n), state: 'Todo', entry: 1 }])
    expect(lines[0]).toMatch(
      /^#1 Todo: started Todo, entry 1 \(no stage started on entering "Todo"\); \d+ requests$/
    )
    expect(summary).toMatchObject({ issues: 1, started: 1, failed: 0 })
    expect(summaryLine(summary, false)).toBe(
      `reconcile: 1 issue looked at, 1 stage started, ${summary.requests} requests`
    )
    expect(summaryLine({ issues: 2, started: 0, failed: 0, requests: 1 }, false)).toBe(
      'reconcile: 2 issues looked at, 0 stages started, 1 request'
    )
    // The job this wake-up starts runs the stage of entry 1, as a label event's would.
    const plan = planStage({
      config,
      record: emptyRecord(),
      state: 'Todo',
      automation: config.automations[0]!,
      trigger: { source: 'wake', actorIsBot: true, wake: { entry: 1 } },
      runId: '11',
      chain: 'dispatch'
    })
    expect(plan).toMatchObject({ entry: 1, newEntry: true, profile: 'researcher' })

    // The next reconcile finds the claim: the job has not run yet, so nothing is sent again.
    const again = await reconcile()
    expect(woken()).toHaveLength(1)
    expect(again.lines[0]).toMatch(/another reconcile started Todo, entry 1/)
  })

  it('starts nothing for a label that someone who cannot start stages added', async () => {
    // An issue form, or a triage user: the label event's own job was denied, so the record
    // never saw the issue enter; a repair would run the agent on an outsider's issue.
    fake.addCollaborator('tina', 'triage')
    fake.addIssue({ labeller: 'mallory', title: 'Please run this', labels: ['Todo'] })
    fake.addIssue({ labeller: 'tina', title: 'Triaged', labels: ['Todo'] })
    const { summary, lines } = await reconcile()
    expect(woken()).toEqual([])
    expect(claims()).toEqual([])
    // The listing is newest first.
    expect(lines).toEqual([
      expect.stringMatching(
        /^#2 Todo: not started: @tina has triage permission on this repository/
      ),
      expect.stringMatching(
        /^#1 Todo: not started: @mallory is not a collaborator on this repository/
      )
    ])
    expect(summary).toMatchObject({ issues: 2, started: 0, failed: 0 })
  })

  it('judges by whoever added the state label last, among the newest pages of events', async () => {
    // Mallory's label, 150 other labels, then a writer takes Todo off and adds it again: the
    // writer's event is on the second page, and it is the one that counts.
    const n = fake.addIssue({ labeller: 'mallory', title: 'x', labels: ['Todo'] })
    const names = Array.from({ length: 150 }, (_, i) => `topic-${i}`)
    fake.addIssueLabels(n, names, fake.user('mallory'))
    fake.removeIssueLabel(n, 'Todo')
    fake.addIssueLabels(n, ['Todo'], fake.user('ada'))
    const { lines } = await reconcile()
    expect(woken()).toEqual([{ issue: String(n), state: 'Todo', entry: 1 }])
    expect(lines[0]).toMatch(/^#1 Todo: started Todo, entry 1/)
  })

  it('sends one wake-up for a decision whose effects were never carried out', async () => {
    const n = fake.addIssue({ labeller: 'ada', title: 'Add CSV export', labels: ['Todo'] })
    await saveRecord(n, decided)
    const { summary } = await reconcile()
    // The job finishes the move first, then runs the stage the wake-up was for.
    expect(woken()).toEqual([{ issue: String(n), state: 'Researching', entry: 2 }])
    expect(summary.started).toBe(1)
  })

  it('sends nothing for an entry whose stage finished, and drops its served claim', async () => {
    const n = fake.addIssue({ labeller: 'ada', title: 'Add CSV export', labels: ['Researching'] })
    await saveRecord(n, decided)
    await reconcile()
    expect(woken()).toHaveLength(1)
    expect(claims()).toEqual([`refs/itervox/dispatch/${n}/2`])
    // The woken job ran the stage of entry 2.
    await saveRecord(n, {
      ...decided,
      stages: [...decided.stages, stage({ entry: 2, state: 'Researching', run: '11/1' })]
    })
    const { summary, lines } = await reconcile()
    expect(woken()).toHaveLength(1)
    expect(lines[0]).toMatch(/nothing to start \(a stage finished for this entry\)/)
    expect(summary).toMatchObject({ issues: 1, started: 0 })
    expect(claims()).toEqual([])
  })

  it('two overlapping reconciles start each owed stage once', async () => {
    const issues = [1, 2, 3].map(() =>
      fake.addIssue({ labeller: 'ada', title: 'x', labels: ['Todo'] })
    )
    const [a, b] = await Promise.all([reconcile({ by: 'run 7' }), reconcile({ by: 'run 8' })])
    expect(
      woken()
        .map((p) => p.issue)
        .sort()
    ).toEqual(issues.map(String))
    expect(a!.summary.started + b!.summary.started).toBe(3)
  })

  it('takes over a claim older than a stage job may take, and sends the lost wake-up again once', async () => {
    const n = fake.addIssue({ labeller: 'ada', title: 'x', labels: ['Todo'] })
    const t0 = Date.UTC(2026, 11, 1)
    await reconcile({ now: () => new Date(t0), staleAfterMs: 60_000 })
    await reconcile({ now: () => new Date(t0 + 60_000) })
    expect(woken()).toHaveLength(1)
    const later = () => new Date(t0 + 60_001)
    await Promise.all([
      reconcile({ now: later, staleAfterMs: 60_000, by: 'run 8' }),
      reconcile({ now: later, staleAfterMs: 60_000, by: 'run 9' })
    ])
    expect(woken()).toEqual([1, 2].map(() => ({ issue: String(n), state: 'Todo', entry: 1 })))
  })

  it('prints what a dry run would start and claims and sends nothing', async () => {
    fake.addIssue({ labeller: 'ada', title: 'x', labels: ['Todo'] })
    const { summary, lines } = await reconcile({ dryRun: true })
    expect(lines[0]).toBe(
      '#1 Todo: would start Todo, entry 1 (no stage started on entering "Todo")'
    )
    expect(summaryLine(summary, true)).toMatch(
      /^reconcile: 1 issue looked at, 1 would start, \d+ requests$/
    )
    expect(woken()).toEqual([])
    expect(claims()).toEqual([])
  })
})

describe('reconcile with agent.max_concurrent_agents', () => {
  const slotted = { ...config, agent: { ...config.agent, maxConcurrentAgents: 1 } }
  const todo = { state: 'Todo', entry: 1 }

  /** The slots of a job of run `run`, as a stage's job has them. */
  function slots(run: number): GitHubSlots {
    fake.setRun(run, 'in_progress')
    const tracker = api()
    return new GitHubSlots({
      refs: tracker.refs(),
      max: 1,
      run: { id: String(run), attempt: '1' },
      baseCommit: origin.main,
      runEnded: (id) => tracker.workflowRunEnded(id),
      wake: () => Promise.reject(new Error('the test sends no wake-up from a slot')),
      log: () => undefined
    })
  }
  const claim = async (run: number, n: number, wasQueued = false) =>
    slots(run).claim((await api().getIssue(String(n)))!, todo, wasQueued)

  it('starts a queued stage whose wake-up was lost; its job takes the dead holder’s slot', async () => {
    const other = fake.addIssue({ labeller: 'ada', title: 'y', labels: ['Implementing'] })
    const n = fake.addIssue({ labeller: 'ada', title: 'x', labels: ['Todo', 'itervox-queued'] })
    expect(await claim(50, other)).toBe(true)
    // #n's job found the slot held: it queued the stage and recorded the entry, as job.ts does.
    expect(await claim(51, n)).toBe(false)
    await saveRecord(n, recordStart(emptyRecord(), 'Todo', { entry: 1, newEntry: true }))
    // The holder's job died before it gave the slot back and woke the queue.
    fake.setRun(50, 'completed')
    fake.setRun(51, 'completed')
    const { lines } = await reconcile({ config: slotted })
    // Both: the queued stage, and the killed holder's, which no record shows finished.
    expect(woken()).toEqual([
      { issue: String(n), ...todo },
      { issue: String(other), state: 'Implementing', entry: 1 }
    ])
    expect(lines.join('\n')).toMatch(/started Todo, entry 1 \(no stage ran for this entry\)/)
    expect(await claim(52, n, true)).toBe(true)
    expect(await api().refs().list('queue/')).toEqual([])
  })

  it('does not start a second job for a stage that holds a slot, and starts it once its run died', async () => {
    const n = fake.addIssue({ labeller: 'ada', title: 'x', labels: ['Todo'] })
    // The label event's job runs the stage; its record shows it only when it ends.
    expect(await claim(60, n)).toBe(true)
    for (let i = 0; i < 2; i++) {
      const { lines } = await reconcile({ config: slotted })
      expect(lines[0]).toMatch(/nothing to start \(its stage holds an agent slot and runs\)/)
    }
    expect(woken()).toEqual([])
    // Killed with no post step: GitHub ends the run, and the stage is owed again.
    fake.setRun(60, 'completed')
    await reconcile({ config: slotted })
    await reconcile({ config: slotted })
    expect(woken()).toEqual([{ issue: String(n), ...todo }])
  })
})
