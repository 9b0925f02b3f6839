import { afterAll, describe, expect, it } from '@jest/globals'
import { prepareIssueBranch } from '../../src/git/branch.js'
import { commitAllowed } from '../../src/git/commit.js'
import { pushWithRetry } from '../../src/git/push.js'
import { findLandedStage, stageTrailers, type StageKey } from '../../src/git/trailers.js'
import { cleanup, makeOrigin, pushFromElsewhere, shallowCheckout, sh, write } from './repos.js'

afterAll(cleanup)

const BRANCH = 'itervox/5'
const DELIVERABLE = '.itervox/handoff/2026-02-02T10-00-00.000Z_researcher.md'
const KEY: StageKey = {
  issue: '5',
  state: 'In Research',
  entry: 3,
  kind: 'work',
  profile: 'researcher',
  attempt: 1,
  round: 0,
  resume: 0
}

describe('findLandedStage', () => {
  it('finds the commit of exactly this stage, as a re-run after a kill would', async () => {
    const origin = makeOrigin()
    const work = shallowCheckout(origin)
    const prepared = await prepareIssueBranch({ repo: work, branch: BRANCH, base: 'main' })
    write(work, DELIVERABLE, '# Findings\n')
    const { sha } = await commitAllowed({
      repo: work,
      branch: BRANCH,
      baseSha: prepared.baseSha,
      deliverablePaths: [DELIVERABLE],
      allowGlobs: [],
      forbiddenGlobs: [],
      message: 'researcher: findings',
      trailers: stageTrailers({
        profile: 'researcher',
        run: '777/1',
        outcome: 'failed',
        key: KEY,
        handoff: DELIVERABLE,
        reason: 'the deliverable is not acceptable:\nmissing ## Summary'
      })
    })
    await pushWithRetry({
      repo: work,
      branch: BRANCH,
      sha: sha!,
      baseSha: prepared.baseSha,
      created: prepared.created,
      backoffMs: 0
    })
    pushFromElsewhere(origin, BRANCH, { 'docs/later.md': 'later\n' })

    const rerun = shallowCheckout(origin)
    const again = await prepareIssueBranch({ repo: rerun, branch: BRANCH, base: 'main' })
    expect(await findLandedStage(rerun, again.baseSha, KEY)).toEqual({
      sha,
      outcome: 'failed',
      run: '777/1',
      handoffPath: DELIVERABLE,
      reason: 'the deliverable is not acceptable: missing ## Summary'
    })
    for (const other of [
      { attempt: 2 },
      { issue: '6' },
      { profile: 'reviewer' },
      { state: 'Todo' },
      { kind: 'review' as const },
      { entry: 4 },
      { resume: 1 }
    ]) {
      expect(await findLandedStage(rerun, again.baseSha, { ...KEY, ...other })).toBeNull()
    }
    expect(sh(rerun, 'rev-parse', 'HEAD')).toBe(again.baseSha)
  })
})
