// What GitHub ordinarily answers that must not turn a stage against the wrong thing, through the
// bundled action: an issue transferred away (a redirect), listings whose `Link` headers loop or
// never end, and a pull request whose head is the default branch.
import { afterEach, describe, expect, it } from '@jest/globals'
import { git, runAction, shownLog } from '../harness/action-run.js'
import { startPipeline, type Pipeline } from './pipeline-fixture.js'

const COMMENTS = 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments'
const ISSUES = 'GET /repos/{owner}/{repo}/issues'

let p: Pipeline | undefined
afterEach(async () => {
  await p?.gh.stop()
  p = undefined
})

const labeled = (issue: number) => ({
  event: 'issues.labeled' as const,
  eventOptions: { issue, label: 'Todo', labels: ['Todo'], sender: 'ada', title: 'Add CSV export' }
})

const writes = (q: Pipeline) =>
  q.gh.requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql')

function heads(q: Pipeline): string {
  return git(q.sb.origin, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads')
}

/** The lines of the run's log that say it failed (`::error::`), without the prefix. */
function failures(run: { stdout: string; stderr: string }): string[] {
  return shownLog(run)
    .split('\n')
    .filter((l) => l.startsWith('::error::'))
    .map((l) => l.slice('::error::'.length))
}

describe('an issue transferred to another repository', () => {
  it("stops the stage with one line and touches neither issue nor this repository's issue of the new number", async () => {
    p = await startPipeline()
    const unrelated = p.gh.addIssue({ title: 'Unrelated', labels: ['Todo'], author: 'ada' })
    // GitHub redirects #1 to the issue's new place, where it has the number of this
    // repository's unrelated issue.
    p.gh.transferIssue(p.issue, 'elsewhere/other', unrelated)
    const before = heads(p)
    const run = await runAction('main', p.sb, p.gh, labeled(p.issue))
    expect(run.code).toBe(1)
    expect(failures(run)).toEqual([
      'issue #1 has moved out of octo-org/demo (GitHub redirects it, as it does for an issue transferred to another repository); nothing was done: start the stage where the issue is now'
    ])
    expect(writes(p)).toEqual([])
    // The redirect was answered, never followed.
    expect(p.gh.requests.filter((r) => r.path.startsWith('/repositories/'))).toEqual([])
    expect(p.gh.labels(unrelated)).toEqual(['Todo'])
    expect(p.gh.comments(unrelated)).toEqual([])
    expect(p.gh.dispatches).toEqual([])
    expect(heads(p)).toBe(before)
  })
})

describe('listings whose pages do not end', () => {
  it('stops a stage whose comment pages loop at the first page seen twice, in one line', async () => {
    p = await startPipeline()
    p.gh.linkPages(COMMENTS, 'loop')
    const run = await runAction('main', p.sb, p.gh, labeled(p.issue))
    expect(run.code).toBe(1)
    expect(failures(run)).toHaveLength(1)
    expect(failures(run)[0]).toMatch(
      /^GitHub's listing of the comments of #1 loops: its page http:\/\/127\.0\.0\.1:\d+\/repos\/octo-org\/demo\/issues\/1\/comments\?[^ ]*page=1[^ ]* links back to a page already read; stopped after 1 page$/
    )
    // Each read of the listing asked for its one page once.
    expect(p.gh.requestsTo(COMMENTS).length).toBeLessThanOrEqual(2)
    expect(writes(p)).toEqual([])
  })

  it('stops a stage whose comment pages never end after 100 pages, in one line', async () => {
    p = await startPipeline()
    p.gh.linkPages(COMMENTS, 'endless')
    const run = await runAction('main', p.sb, p.gh, labeled(p.issue))
    expect(run.code).toBe(1)
    expect(failures(run)).toEqual([
      "GitHub's listing of the comments of #1 has more than 100 pages; stopped there rather than read on"
    ])
    expect(p.gh.requestsTo(COMMENTS).length).toBeLessThanOrEqual(100)
    expect(writes(p)).toEqual([])
  })

  it('stops a reconcile whose issue pages loop, in one line', async () => {
    p = await startPipeline()
    p.gh.linkPages(ISSUES, 'loop')
    const run = await runAction('main', p.sb, p.gh, {
      event: 'workflow_dispatch',
      eventOptions: { sender: 'ada' },
      inputs: { mode: 'reconcile' }
    })
    expect(shownLog(run)).toMatch(/GitHub's listing of the issues labelled "[^"]+" loops/)
    expect(p.gh.requestsTo(ISSUES).length).toBeLessThanOrEqual(10)
    expect(p.gh.dispatches).toEqual([])
  })
})

describe('a pull request whose head is the default branch', () => {
  it('is denied in one line and the default branch is never pushed to', async () => {
    p = await startPipeline()
    const pr = p.gh.addPull({
      title: 'Release',
      head: 'main',
      base: 'release',
      labels: ['Todo'],
      author: 'ada'
    })
    const before = heads(p)
    const run = await runAction('main', p.sb, p.gh, {
      event: 'pull_request.labeled',
      eventOptions: { issue: pr, label: 'Todo', sender: 'ada', head: 'main', base: 'release' }
    })
    expect(run.outputs.outcome).toBe('denied')
    expect(run.summary).toContain(
      "the pull request's head is main, the default branch; a stage never pushes to the default branch or a pull request's base, so label a pull request from another branch"
    )
    expect(heads(p)).toBe(before)
    expect(p.gh.dispatches).toEqual([])
  })
})
