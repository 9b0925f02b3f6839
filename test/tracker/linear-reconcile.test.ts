// The record store in the repository and the reconcile of a Linear team, in-process against the
// fake Linear and the fake GitHub (whose refs act on a real bare origin).
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { parseCron } from '../../src/config/cron.js'
import { loadWorkflowFile } from '../../src/config/load.js'
import type { WorkflowConfig } from '../../src/config/types.js'
import { emptyRecord, type IssueRecord } from '../../src/pipeline/record/record.js'
import { GitHubApi } from '../../src/tracker/github-api.js'
import { reconcileRepository } from '../../src/tracker/github-reconcile.js'
import { RecordConflictError, RepoRecordStore } from '../../src/tracker/repo-records.js'
import { startFakeGitHub, type FakeGitHub } from '../harness/fake-github.js'
import { FakeLinear } from '../harness/fake-linear.js'
import { cleanup, makeOrigin, type Origin } from '../git/repos.js'

const { config: seed } = loadWorkflowFile('test/fixtures/workflows/seed/WORKFLOW.md', {
  LINEAR_API_KEY: 'set below'
})
let origin: Origin
let gh: FakeGitHub
let linear: FakeLinear

beforeEach(async () => {
  origin = makeOrigin()
  gh = await startFakeGitHub({ originDir: origin.dir })
  linear = await FakeLinear.start()
})
afterEach(async () => {
  expect(linear.violations).toEqual([])
  expect(gh.violations).toEqual([])
  await linear.close()
  await gh.stop()
  cleanup()
})

function store(): RepoRecordStore {
  const api = new GitHubApi({
    token: 't',
    apiUrl: gh.url,
    owner: 'octo-org',
    repo: 'demo',
    states: [],
    secondMs: 1
  })
  return new RepoRecordStore({ refs: api.refs(), tree: () => api.refs().treeOf(origin.main) })
}

const withEntry = (entry: number): IssueRecord => ({ ...emptyRecord(), state: 'Todo', entry })

describe('RepoRecordStore: the record of a Linear issue in refs/itervox/records/<key>', () => {
  it('writes by fast-forward; of two writers from one head, the second fails and overwrites nothing', async () => {
    const a = store()
    expect(await a.load('ENG-1')).toBeNull()
    await a.save('ENG-1', withEntry(1))
    const [b, c, d] = [store(), store(), store()]
    for (const s of [b, c, d]) expect(await s.load('ENG-1')).toEqual(withEntry(1))
    await b.save('ENG-1', withEntry(2))
    await expect(c.save('ENG-1', withEntry(3))).rejects.toThrow(RecordConflictError)
    // The same write again (as after a lost answer) is no conflict.
    await d.save('ENG-1', withEntry(2))
    expect(await store().load('ENG-1')).toEqual(withEntry(2))
    // Two records whose keys share a prefix stay apart.
    await a.save('ENG-10', withEntry(7))
    expect(await store().load('ENG-1')).toEqual(withEntry(2))
    const chain = execFileSync('git', [
      '--git-dir',
      origin.dir,
      'rev-list',
      'refs/itervox/records/ENG-1'
    ])
    expect(chain.toString().trim().split('\n')).toHaveLength(2)
  })

  it('refuses a record someone else wrote there: not JSON, not a record, or too long', async () => {
    const tree = execFileSync('git', [
      '--git-dir',
      origin.dir,
      'rev-parse',
      `${origin.main}^{tree}`
    ])
      .toString()
      .trim()
    const hostile = (message: string) =>
      execFileSync('git', ['--git-dir', origin.dir, 'commit-tree', tree, '-m', message], {
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'm',
          GIT_AUTHOR_EMAIL: 'm@x',
          GIT_COMMITTER_NAME: 'm',
          GIT_COMMITTER_EMAIL: 'm@x'
        }
      })
        .toString()
        .trim()
    const cases = [
      'not json',
      JSON.stringify({ ...withEntry(1), entry: -1 }),
      JSON.stringify({ ...withEntry(1), halted: 'x'.repeat(70_000) })
    ]
    for (const [i, message] of cases.entries()) {
      execFileSync('git', [
        '--git-dir',
        origin.dir,
        'update-ref',
        `refs/itervox/records/ENG-${i + 1}`,
        hostile(message)
      ])
      await expect(store().load(`ENG-${i + 1}`)).rejects.toThrow(
        `refs/itervox/records/ENG-${i + 1} holds no record this action wrote; delete the ref`
      )
    }
    await expect(store().load('../heads/main')).rejects.toThrow('is not an issue number or key')
  })
})

describe('the reconcile of a Linear team', () => {
  it('finds the Todo issues, wakes each once, and an overlapping reconcile wakes nothing again', async () => {
    const team = linear.addTeam('ENG')
    const todo = linear.addIssue(team, { title: 'CSV export', state: 'Todo' })
    linear.addIssue(team, { title: 'Later', state: 'Backlog' })
    const config = {
      ...seed,
      tracker: { ...seed.tracker, apiKey: linear.apiKey, projectSlug: 'ENG' }
    }
    const lines: string[] = []
    const run = (by: string) =>
      reconcileRepository({
        config,
        client: { token: 't', apiUrl: gh.url, secondMs: 1 },
        owner: 'octo-org',
        repo: 'demo',
        serverUrl: 'https://github.com',
        by,
        linearUrl: linear.url,
        dryRun: false,
        log: (l) => lines.push(l)
      })
    const [one, two] = await Promise.all([run('r1'), run('r2')])
    expect(gh.dispatches.map((d) => d.clientPayload)).toEqual([
      { issue: todo.identifier, state: 'Todo', entry: 1 }
    ])
    expect(one.started + two.started).toBe(1)
    expect(lines).toContainEqual(expect.stringMatching(/^ENG-1 Todo: started Todo, entry 1/))
    // Linear: viewer, team, one listing; GitHub: the records, the claims, a claim, the wake-up.
    const third = await run('r3')
    expect(third).toMatchObject({ issues: 1, started: 0, failed: 0 })
    expect(gh.dispatches).toHaveLength(1)
    process.stdout.write(
      `reconcile requests: ${one.requests}, ${two.requests}, ${third.requests}\n`
    )
  })
})

describe('cron automations on a Linear team', () => {
  it('fires a due slot once across two overlapping reconciles, on the Linear issues it admits', async () => {
    const team = linear.addTeam('ENG')
    const first = linear.addIssue(team, { title: 'Sweep me', state: 'Todo' })
    const second = linear.addIssue(team, { title: 'Sweep me too', state: 'Todo' })
    const sweep = parseCron('30 * * * *')
    if (!('schedule' in sweep)) throw new Error(sweep.error)
    const config: WorkflowConfig = {
      ...seed,
      tracker: { ...seed.tracker, apiKey: linear.apiKey, projectSlug: 'ENG' },
      automations: [
        {
          ...seed.automations[0]!,
          id: 'sweep',
          trigger: { type: 'cron', schedule: sweep.schedule },
          states: [],
          filter: { ...seed.automations[0]!.filter, states: ['Todo'], limit: 1 }
        }
      ]
    }
    const lines: string[] = []
    const run = (by: string, at: string) =>
      reconcileRepository({
        config,
        client: { token: 't', apiUrl: gh.url, secondMs: 1 },
        owner: 'octo-org',
        repo: 'demo',
        serverUrl: 'https://github.com',
        by,
        linearUrl: linear.url,
        dryRun: false,
        log: (l) => lines.push(l),
        now: () => new Date(at)
      })
    await run('r1', '2026-12-01T09:00:00Z')
    expect(gh.dispatches).toEqual([])
    await Promise.all([run('r2', '2026-12-01T10:45:00Z'), run('r3', '2026-12-01T10:45:00Z')])
    // filter.limit 1: one of the two Todo issues (the reconcile's own wake-ups name no step).
    const woken = gh.dispatches.map((d) => d.clientPayload).filter((p) => p.step)
    expect(woken).toHaveLength(1)
    expect(woken[0]).toMatchObject({ state: 'Todo', step: 'cron-202612011030-sweep' })
    expect([first.identifier, second.identifier]).toContain(woken[0]!.issue)
    expect(lines.filter((l) => l.includes(': fired the slot of'))).toHaveLength(1)
  })
})
