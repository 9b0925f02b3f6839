import { afterEach, describe, expect, it } from '@jest/globals'
import { emptyRecord, type IssueRecord } from '../../src/pipeline/record/record.js'
import { readRecordFromComment } from '../../src/tracker/comment-record.js'
import { renderStatusComment } from '../../src/tracker/status-comment.js'
import { GitHubApi } from '../../src/tracker/github-api.js'
import { GitHubTracker, STATUS_MARKER } from '../../src/tracker/github-tracker.js'
import type { IssueRecordStore } from '../../src/tracker/repo-records.js'
import { startFakeGitHub, type FakeGitHub } from '../harness/fake-github.js'
import { MemoryRecordStore } from '../harness/memory-record-store.js'
import { seedConfig } from '../pipeline/pipeline-config.js'

const config = seedConfig()
let gh: FakeGitHub | undefined
afterEach(async () => {
  expect(gh?.violations).toEqual([])
  await gh?.stop()
})

function port(
  fake: FakeGitHub,
  records: IssueRecordStore = new MemoryRecordStore()
): GitHubTracker {
  const api = new GitHubApi({
    token: 't',
    apiUrl: fake.url,
    owner: 'octo-org',
    repo: 'demo',
    states: ['Todo', 'Researching'],
    secondMs: 1
  })
  return new GitHubTracker({
    api,
    records,
    config,
    owner: 'octo-org',
    repo: 'demo',
    serverUrl: 'https://github.com',
    runId: '1',
    runUrl: 'https://github.com/octo-org/demo/actions/runs/1',
    chain: 'dispatch'
  })
}

const status = (record: IssueRecord) =>
  renderStatusComment({ config, record, issueRef: '#1', marker: STATUS_MARKER })

// A record that would send a healthy issue to the failed state: the transition budget spent.
const FORGED: IssueRecord = { ...emptyRecord(), state: 'Todo', entry: 1, transitions: 30 }
const OURS: IssueRecord = { ...emptyRecord(), state: 'Todo', entry: 4, transitions: 2 }

describe('the record lives in the repository; the status comment is its view', () => {
  const living = (fake: FakeGitHub, n: number) =>
    fake.comments(n).filter((c) => c.body.startsWith(`<!-- ${STATUS_MARKER} -->`))

  it('is read back from the store whatever a person did to the comment', async () => {
    gh = await startFakeGitHub()
    const n = gh.addIssue({ title: 'x', labels: ['Todo'] })
    const records = new MemoryRecordStore()
    const first = port(gh, records)
    const issue = await first.getIssue(String(n))
    await first.saveRecord(issue, OURS)
    expect(living(gh, n)).toHaveLength(1)

    // Edited to another record, then deleted: neither reaches the next job's record.
    gh.editComment(living(gh, n)[0]!.id, status(FORGED))
    expect(await port(gh, records).loadRecord(issue)).toMatchObject({ entry: 4, transitions: 2 })
    gh.deleteComment(living(gh, n)[0]!.id)
    expect(await port(gh, records).loadRecord(issue)).toMatchObject({ entry: 4, transitions: 2 })
  })

  it('writes the view afresh when it was deleted, even during the job', async () => {
    gh = await startFakeGitHub()
    const n = gh.addIssue({ title: 'x', labels: ['Todo'] })
    const p = port(gh)
    const issue = await p.getIssue(String(n))
    await p.saveRecord(issue, OURS)
    gh.deleteComment(living(gh, n)[0]!.id)
    await p.saveRecord(issue, { ...OURS, entry: 5 })
    expect(living(gh, n)).toHaveLength(1)
    expect(readRecordFromComment(living(gh, n)[0]!.body)).toMatchObject({ entry: 5 })
  })

  it('reads a record begun before the upgrade from the comment once, then keeps it', async () => {
    gh = await startFakeGitHub()
    const n = gh.addIssue({ title: 'x', labels: ['Todo'] })
    gh.addComment(n, status(OURS))
    const records = new MemoryRecordStore()
    const p = port(gh, records)
    const issue = await p.getIssue(String(n))
    const before = await p.loadRecord(issue)
    expect(before).toMatchObject({ entry: 4 })
    await p.saveRecord(issue, before!)
    expect(records.stored.has(String(n))).toBe(true)
    gh.deleteComment(living(gh, n)[0]!.id)
    expect(await port(gh, records).loadRecord(issue)).toMatchObject({ entry: 4 })
  })
})

describe("a record from before the upgrade is read only from the pipeline's own comment", () => {
  it('ignores a status comment another bot wrote, and asks who the token is only then', async () => {
    gh = await startFakeGitHub()
    const n = gh.addIssue({ title: 'x', labels: ['Todo'] })
    gh.addComment(n, status(FORGED), 'renovate[bot]', 'Bot')
    gh.addComment(n, status(OURS))
    const p = port(gh)
    const issue = await p.getIssue(String(n))
    expect(await p.loadRecord(issue)).toMatchObject({ entry: 4, transitions: 2 })
    expect(gh.requests.filter((r) => r.path === '/graphql')).toHaveLength(1)
  })

  it("with an App's token, finds the App's own record and ignores github-actions[bot]'s", async () => {
    gh = await startFakeGitHub({ tokenLogin: 'my-app[bot]' })
    const n = gh.addIssue({ title: 'x', labels: ['Todo'] })
    gh.addComment(n, status(FORGED), 'github-actions[bot]', 'Bot')
    gh.addComment(n, status(OURS))
    const p = port(gh)
    expect(await p.loadRecord(await p.getIssue(String(n)))).toMatchObject({ entry: 4 })
  })

  it('never reads a marker a person typed', async () => {
    gh = await startFakeGitHub()
    const n = gh.addIssue({ title: 'x', labels: ['Todo'] })
    gh.addComment(n, status(FORGED), 'mallory', 'User')
    const p = port(gh)
    expect(await p.loadRecord(await p.getIssue(String(n)))).toBeNull()
    expect(gh.requests.filter((r) => r.path === '/graphql')).toHaveLength(0)
  })

  it('writes a keyed comment once, even when asked again', async () => {
    gh = await startFakeGitHub()
    const n = gh.addIssue({ title: 'x', labels: ['Todo'] })
    const p = port(gh)
    const issue = await p.getIssue(String(n))
    await p.loadRecord(issue)
    await p.comment(issue, { key: 'itervox:stopped:1:9.1', body: 'stopped' })
    await p.comment(issue, { key: 'itervox:stopped:1:9.1', body: 'stopped' })
    // A later job that did not write it sees it too.
    const later = port(gh)
    await later.loadRecord(issue)
    await later.comment(issue, { key: 'itervox:stopped:1:9.1', body: 'stopped' })
    expect(gh.comments(n)).toHaveLength(1)
  })
})

describe('the pull request at the completion state', () => {
  it('leaves draft and closes the issue: its state read, then one mutation', async () => {
    gh = await startFakeGitHub()
    const n = gh.addIssue({ title: 'x', labels: ['Done'] })
    const p = port(gh)
    const issue = await p.getIssue(String(n))
    const made = await p.publish(issue, {
      branch: 'itervox/1',
      baseBranch: 'main',
      commit: 'c',
      created: true
    })
    const pr = made.pullRequest!
    expect(gh.pulls()[0]).toMatchObject({ draft: true })
    expect(gh.pulls()[0]!.body).not.toContain('Closes')
    const before = gh.requests.length
    await p.readyForReview(issue, pr)
    await p.readyForReview(issue, pr)
    expect(gh.requests.slice(before).map((r) => r.operation)).toEqual([
      'GET /repos/{owner}/{repo}/pulls/{pull_number}',
      'POST /graphql',
      'GET /repos/{owner}/{repo}/pulls/{pull_number}',
      'POST /graphql'
    ])
    expect(gh.pulls()[0]).toMatchObject({ draft: false })
    expect(gh.pulls()[0]!.body).toContain(`Closes #${n}`)
  })

  it('looks the node id up when the record has only the number', async () => {
    gh = await startFakeGitHub()
    const n = gh.addIssue({ title: 'x', labels: ['Done'] })
    const pr = gh.addPull({ title: 'itervox', head: 'itervox/1', draft: true })
    const p = port(gh)
    await p.readyForReview(await p.getIssue(String(n)), { number: pr })
    expect(gh.requests.map((r) => r.operation).slice(-2)).toEqual([
      'GET /repos/{owner}/{repo}/pulls/{pull_number}',
      'POST /graphql'
    ])
    expect(gh.pulls().find((x) => x.number === pr)).toMatchObject({ draft: false })
  })
})
