// The record store in the repository and the reconcile of a Linear team, in-process against the
// fake Linear and the fake GitHub (whose refs act on a real bare origin).
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { loadWorkflowFile } from '../../src/config/load.js'
import { emptyRecord, type IssueRecord } from '../../src/pipeline/record.js'
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
