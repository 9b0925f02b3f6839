import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import * as z from '../../src/zod.js'
import { GitHubRefs } from '../../src/tracker/github-refs.js'
import { GitHubApi } from '../../src/tracker/github-api.js'
import { FAULTS, startFakeGitHub, type FakeGitHub } from '../harness/fake-github.js'
import { cleanup, makeOrigin, type Origin } from '../git/repos.js'

const OP = {
  createRef: 'POST /repos/{owner}/{repo}/git/refs',
  updateRef: 'PATCH /repos/{owner}/{repo}/git/refs/{ref}',
  createCommit: 'POST /repos/{owner}/{repo}/git/commits'
}
const Doc = z.object({ holder: z.string() })

let origin: Origin
let fake: FakeGitHub

function refs(): GitHubRefs {
  return new GitHubApi({
    token: 't',
    apiUrl: fake.url,
    owner: 'octo-org',
    repo: 'demo',
    states: [],
    secondMs: 1
  }).refs()
}

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString()
const originRef = (ref: string) =>
  execFileSync('git', ['--git-dir', origin.dir, 'rev-parse', `refs/itervox/${ref}`])
    .toString()
    .trim()

beforeEach(async () => {
  origin = makeOrigin()
  fake = await startFakeGitHub({ originDir: origin.dir })
})

afterEach(async () => {
  await fake.stop()
  cleanup()
})

describe('GitHubRefs: refs in the repository as compare-and-swap records', () => {
  it('creates a record, lists it by prefix, reads its document and advances it', async () => {
    const r = refs()
    const tree = await r.treeOf(origin.main)
    const first = await r.create('slots/1', { holder: 'a' }, { tree, at: at(1) })
    expect(first).toMatch(/^[0-9a-f]{40}$/)
    expect(originRef('slots/1')).toBe(first)
    await r.create('slots/10', { holder: 'z' }, { tree, at: at(1) })
    expect(await r.list('slots/')).toEqual([
      { ref: 'slots/1', sha: first },
      { ref: 'slots/10', sha: expect.any(String) }
    ])
    expect(await r.read(first!, Doc)).toEqual({ sha: first, tree, data: { holder: 'a' } })
    const next = await r.advance('slots/1', first!, { holder: 'b' }, { tree, at: at(2) })
    expect(originRef('slots/1')).toBe(next)
    expect((await r.read(next!, Doc)).data).toEqual({ holder: 'b' })
    expect(await r.remove('slots/10')).toBe(true)
    expect(await r.remove('slots/10')).toBe(false)
    expect(fake.violations).toEqual([])
    expect(fake.responseErrors).toEqual([])
  })

  it('two takers creating the same record: exactly one gets it', async () => {
    const [a, b] = [refs(), refs()]
    const tree = await a.treeOf(origin.main)
    const got = await Promise.all([
      a.create('dispatch/7/1', { holder: 'a' }, { tree, at: at(1) }),
      b.create('dispatch/7/1', { holder: 'b' }, { tree, at: at(1) })
    ])
    expect(got.filter((x) => x !== undefined)).toHaveLength(1)
    expect(originRef('dispatch/7/1')).toBe(got.find((x) => x !== undefined))
  })

  it('two takers advancing from the same head: the second, moving a head that moved, loses', async () => {
    const [a, b] = [refs(), refs()]
    const tree = await a.treeOf(origin.main)
    const head = (await a.create('slots/1', { holder: 'free' }, { tree, at: at(1) }))!
    // b's fast-forward lands between a's read of the head and a's update.
    let bWon: string | undefined
    fake.beforeNext(OP.updateRef, async () => {
      bWon = await b.advance('slots/1', head, { holder: 'b' }, { tree, at: at(2) })
    })
    const aWon = await a.advance('slots/1', head, { holder: 'a' }, { tree, at: at(3) })
    expect(bWon).toMatch(/^[0-9a-f]{40}$/)
    expect(aWon).toBeUndefined()
    expect(originRef('slots/1')).toBe(bWon)
    expect((await a.read(originRef('slots/1'), Doc)).data).toEqual({ holder: 'b' })
  })

  it('advancing a record that was deleted fails as lost, not as an error', async () => {
    const r = refs()
    const tree = await r.treeOf(origin.main)
    const head = (await r.create('slots/2', { holder: 'x' }, { tree, at: at(1) }))!
    await r.remove('slots/2')
    expect(await r.advance('slots/2', head, { holder: 'y' }, { tree, at: at(2) })).toBeUndefined()
  })

  it('a create whose answer was lost is won when the ref points at its commit', async () => {
    const r = refs()
    const tree = await r.treeOf(origin.main)
    fake.fail(OP.createRef, FAULTS.answerLost())
    const sha = await r.create('slots/3', { holder: 'me' }, { tree, at: at(1) })
    expect(sha).toBe(originRef('slots/3'))
  })

  it('retries a record commit whose answer was lost (the same content makes the same commit)', async () => {
    const r = refs()
    const tree = await r.treeOf(origin.main)
    fake.fail(OP.createCommit, FAULTS.answerLost())
    const sha = await r.create('slots/4', { holder: 'me' }, { tree, at: at(1) })
    expect(sha).toBe(originRef('slots/4'))
    expect(fake.requestsTo(OP.createCommit)).toHaveLength(2)
  })

  it('reads a document it cannot trust as no document: not JSON, wrong shape, or too long', async () => {
    const r = refs()
    const tree = await r.treeOf(origin.main)
    for (const [i, doc] of [['x'], { holder: 5 }, { holder: 'y'.repeat(5000) }].entries()) {
      const sha = (await r.create(`bad/${i}`, doc, { tree, at: at(1) }))!
      expect((await r.read(sha, Doc)).data).toBeUndefined()
    }
  })
})
