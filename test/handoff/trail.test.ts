// The trail: a stage reads only the handoffs its issue branch added since it left the base
// branch, never the ones earlier issues' merged pull requests put on the base branch.
import { afterAll, describe, expect, it } from '@jest/globals'
import { UserError } from '../../src/errors.js'
import { prepareIssueBranch } from '../../src/git/branch.js'
import { forkPoint } from '../../src/git/fork-point.js'
import { GitObjects } from '../../src/git/objects.js'
import { buildHandoffBlock, DEFAULT_BLOCK_OPTIONS } from '../../src/handoff/block.js'
import { cleanup, makeOrigin, sh, shallowCheckout, tmp, write, type Origin } from '../git/repos.js'

afterAll(cleanup)

const H = '.itervox/handoff'
// Issue 1's trail, merged to main with its pull request.
const MERGED = `${H}/2026-01-01T00-00-00.000Z_planner.md`

/** A clone to commit in as a person would, pushing to `origin`. */
function dev(origin: Origin): string {
  const dir = tmp('dev-')
  sh(dir, 'clone', '--quiet', origin.url, '.')
  return dir
}

function commit(dir: string, files: Record<string, string>, message = 'work'): string {
  for (const [rel, text] of Object.entries(files)) write(dir, rel, text)
  sh(dir, 'add', '-A')
  sh(dir, 'commit', '--quiet', '--allow-empty', '-m', message)
  return sh(dir, 'rev-parse', 'HEAD')
}

/** The block a stage on `branch` would get, after preparing it in a fresh shallow checkout. */
async function trailOf(origin: Origin, branch: string, depth?: number) {
  const work = shallowCheckout(origin)
  const prepared = await prepareIssueBranch({
    repo: work,
    branch,
    base: 'main',
    ...(depth !== undefined ? { depth } : {})
  })
  const git = new GitObjects(work)
  try {
    const block = await buildHandoffBlock(
      git,
      { head: prepared.baseSha, since: prepared.forkSha },
      DEFAULT_BLOCK_OPTIONS
    )
    return { work, prepared, block }
  } finally {
    await git.close()
  }
}

describe('which handoffs are the issue branch’s own', () => {
  it('shows what the branch added, not what was on the default branch before it', async () => {
    const origin = makeOrigin({ 'README.md': '# demo\n', [MERGED]: '# Plan of issue 1\n' })
    const d = dev(origin)
    sh(d, 'checkout', '--quiet', '-b', 'itervox/2')
    commit(d, { [`${H}/2026-02-01T00-00-00.000Z_researcher.md`]: '# Research for 2\n' })
    sh(d, 'push', '--quiet', 'origin', 'itervox/2')

    const { prepared, block } = await trailOf(origin, 'itervox/2')
    expect(prepared.forkSha).toBe(origin.main)
    expect(block.included).toEqual(['2026-02-01T00-00-00.000Z_researcher.md'])
    expect(block.text).not.toContain('issue 1')
    expect(block.warnings).toEqual([])
  })

  it('shows nothing on a branch just made from the default branch', async () => {
    const origin = makeOrigin({ [MERGED]: '# Plan of issue 1\n' })
    const { prepared, block } = await trailOf(origin, 'itervox/3')
    expect(prepared).toMatchObject({ created: true, forkSha: origin.main })
    expect(block.text).toBe('')
  })

  it('leaves out, with a warning, a handoff from the default branch that the branch changed', async () => {
    const origin = makeOrigin({ [MERGED]: '# Plan of issue 1\n' })
    const d = dev(origin)
    sh(d, 'checkout', '--quiet', '-b', 'itervox/2')
    commit(d, {
      [MERGED]: '# Plan of issue 1, edited on issue 2\n',
      [`${H}/2026-02-01T00-00-00.000Z_researcher.md`]: '# Research for 2\n'
    })
    sh(d, 'push', '--quiet', 'origin', 'itervox/2')

    const { block } = await trailOf(origin, 'itervox/2')
    expect(block.included).toEqual(['2026-02-01T00-00-00.000Z_researcher.md'])
    expect(block.warnings).toEqual([
      'left out 1 handoff file that was on the base branch before this branch left it, though this branch changed it: 2026-01-01T00-00-00.000Z_planner.md'
    ])
  })

  it('keeps out what reached the default branch after the fork, also once it is merged in', async () => {
    const origin = makeOrigin({ 'README.md': '# demo\n' })
    const d = dev(origin)
    sh(d, 'checkout', '--quiet', '-b', 'itervox/2')
    commit(d, { [`${H}/2026-02-01T00-00-00.000Z_researcher.md`]: '# Research for 2\n' })
    sh(d, 'push', '--quiet', 'origin', 'itervox/2')
    // Meanwhile issue 3's pull request, with its trail, is merged to main.
    sh(d, 'checkout', '--quiet', 'main')
    const moved = commit(d, {
      [`${H}/2026-02-02T00-00-00.000Z_implementer.md`]: '# Implementation of issue 3\n'
    })
    sh(d, 'push', '--quiet', 'origin', 'main')

    const before = await trailOf(origin, 'itervox/2')
    expect(before.prepared.forkSha).toBe(origin.main)
    expect(before.block.included).toEqual(['2026-02-01T00-00-00.000Z_researcher.md'])

    // The base is merged into the issue branch: the fork point moves on with it.
    sh(d, 'checkout', '--quiet', 'itervox/2')
    sh(d, 'merge', '--quiet', '--no-edit', '--no-ff', 'main')
    commit(d, { [`${H}/2026-02-03T00-00-00.000Z_reviewer.md`]: '# Review for 2\n' })
    sh(d, 'push', '--quiet', 'origin', 'itervox/2')

    const after = await trailOf(origin, 'itervox/2')
    expect(after.prepared.forkSha).toBe(moved)
    expect(after.block.included).toEqual([
      '2026-02-01T00-00-00.000Z_researcher.md',
      '2026-02-03T00-00-00.000Z_reviewer.md'
    ])
    expect(after.block.text).not.toContain('issue 3')
  })

  it('deepens a shallow clone until it reaches the fork point', async () => {
    const origin = makeOrigin({ [MERGED]: '# Plan of issue 1\n' })
    const d = dev(origin)
    sh(d, 'checkout', '--quiet', '-b', 'itervox/2')
    for (let i = 0; i < 6; i++) commit(d, {}, `branch ${i}`)
    commit(d, { [`${H}/2026-02-01T00-00-00.000Z_researcher.md`]: '# Research for 2\n' })
    sh(d, 'push', '--quiet', 'origin', 'itervox/2')
    sh(d, 'checkout', '--quiet', 'main')
    for (let i = 0; i < 6; i++) commit(d, {}, `main ${i}`)
    sh(d, 'push', '--quiet', 'origin', 'main')

    // Three commits of each branch do not reach the fork point: git alone finds no merge-base.
    const work = shallowCheckout(origin)
    sh(work, 'fetch', '--quiet', '--depth=3', 'origin', '+refs/heads/*:refs/remotes/origin/*')
    const lost = await forkPoint({
      repo: work,
      head: 'refs/remotes/origin/itervox/2',
      base: 'refs/remotes/origin/main',
      branch: 'itervox/2',
      baseBranch: 'main'
    }).catch((e: unknown) => e)
    expect(lost).toBeInstanceOf(UserError)
    expect((lost as Error).message).toBe(
      "cannot tell which handoffs are itervox/2's own: this clone is shallow and does not reach where it left main; run git fetch --unshallow"
    )

    const { work: deepened, prepared, block } = await trailOf(origin, 'itervox/2', 3)
    expect(prepared.forkSha).toBe(origin.main)
    expect(sh(deepened, 'cat-file', '-t', origin.main)).toBe('commit')
    expect(block.included).toEqual(['2026-02-01T00-00-00.000Z_researcher.md'])
  })

  it('fails with one line for a branch that shares no history with the default branch', async () => {
    const origin = makeOrigin({ [MERGED]: '# Plan of issue 1\n' })
    const d = dev(origin)
    sh(d, 'checkout', '--quiet', '--orphan', 'itervox/2')
    commit(d, { [`${H}/2026-02-01T00-00-00.000Z_researcher.md`]: '# Research\n' })
    sh(d, 'push', '--quiet', 'origin', 'itervox/2')

    const err = await trailOf(origin, 'itervox/2').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UserError)
    expect((err as Error).message).toBe(
      "cannot tell which handoffs are itervox/2's own: it shares no history with main, so any of them may be another issue's; rebase it onto main"
    )
  })
})
