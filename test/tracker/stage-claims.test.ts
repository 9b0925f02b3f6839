import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import type { StageKey } from '../../src/git/trailers.js'
import { GitHubApi } from '../../src/tracker/github-api.js'
import { refStageClaims } from '../../src/tracker/stage-claims.js'
import { startFakeGitHub, type FakeGitHub } from '../harness/fake-github.js'
import { cleanup, makeOrigin, type Origin } from '../git/repos.js'

let origin: Origin
let fake: FakeGitHub

beforeEach(async () => {
  origin = makeOrigin()
  fake = await startFakeGitHub({ originDir: origin.dir })
})

afterEach(async () => {
  expect(fake.violations).toEqual([])
  await fake.stop()
  cleanup()
})

const KEY: StageKey = {
  issue: '42',
  state: 'Todo',
  entry: 3,
  kind: 'work',
  profile: 'researcher',
  attempt: 0,
  round: 0,
  resume: 0
}

/** The claims of one job of run `id`, attempt `attempt`. */
function claimsOf(id: string, attempt = '1') {
  const api = new GitHubApi({
    token: 't',
    apiUrl: fake.url,
    owner: 'octo-org',
    repo: 'demo',
    states: [],
    secondMs: 1
  })
  const refs = api.refs()
  return refStageClaims({
    refs,
    tree: () => refs.treeOf(origin.main),
    run: { id, attempt },
    runEnded: (run) => api.workflowRunEnded(run)
  })
}

describe("a stage's claim", () => {
  it('names a profile git would refuse in a ref in hex', async () => {
    expect(await claimsOf('10').take({ ...KEY, profile: 'a..b.lock' })).toEqual({ won: true })
    expect(await claimsOf('11').take({ ...KEY, profile: 'a..b.lock' })).toMatchObject({
      won: false
    })
  })

  it('goes to one of two jobs that take it at once', async () => {
    const taken = await Promise.all([claimsOf('10').take(KEY), claimsOf('11').take(KEY)])
    expect(taken.filter((t) => t.won)).toHaveLength(1)
  })

  it('is refused to another run, which learns whether the holder has ended', async () => {
    fake.setRun(10, 'in_progress')
    expect(await claimsOf('10').take(KEY)).toEqual({ won: true })
    expect(await claimsOf('11').take(KEY)).toEqual({ won: false, holder: '10/1', ended: false })
    fake.setRun(10, 'completed', 'failure')
    expect(await claimsOf('11').take(KEY)).toEqual({ won: false, holder: '10/1', ended: true })
  })

  it("is taken over by a re-run of the holder's own run, and by nothing else", async () => {
    fake.setRun(10, 'completed', 'failure')
    expect(await claimsOf('10').take(KEY)).toEqual({ won: true })
    expect(await claimsOf('10', '2').take(KEY)).toEqual({ won: true })
    expect(await claimsOf('9', '2').take(KEY)).toMatchObject({ won: false, holder: '10/2' })
  })

  it('is one per stage: a retry, a resumed stage, a new entry or a fallback is claimed afresh', async () => {
    const claims = claimsOf('10')
    expect(await claims.take(KEY)).toEqual({ won: true })
    const other = claimsOf('11')
    const fallback = { profile: 'implementer' }
    for (const next of [{ attempt: 1 }, { resume: 1 }, { entry: 4 }, { round: 1 }, fallback]) {
      expect(await other.take({ ...KEY, ...next })).toEqual({ won: true })
    }
  })
})
