import { afterAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { prepareIssueBranch } from '../../src/git/branch.js'
import { commitAllowed } from '../../src/git/commit.js'
import { PushError, pushWithRetry } from '../../src/git/push.js'
import { stageTrailers } from '../../src/git/trailers.js'
import {
  changesOf,
  cleanup,
  makeOrigin,
  pushFromElsewhere,
  sh,
  shallowCheckout,
  tmp,
  write,
  type Origin
} from './repos.js'

afterAll(cleanup)

const BRANCH = 'itervox/5'
const DELIVERABLE = '.itervox/handoff/2026-02-02T10-00-00.000Z_researcher.md'

/** An origin where the issue branch already holds one stage's commit. */
function originWithBranch(): Origin {
  const origin = makeOrigin()
  sh(origin.dir, 'branch', BRANCH, 'main')
  pushFromElsewhere(origin, BRANCH, { 'docs/stage1.md': 'stage one\n' })
  return origin
}

/** One stage up to its commit: checkout, prepare, the agent's files, commitAllowed. */
async function stage(origin: Origin, files: Record<string, string>, run = '123') {
  const work = shallowCheckout(origin)
  const prepared = await prepareIssueBranch({ repo: work, branch: BRANCH, base: 'main' })
  for (const [rel, content] of Object.entries(files)) write(work, rel, content)
  const { sha } = await commitAllowed({
    repo: work,
    branch: BRANCH,
    baseSha: prepared.baseSha,
    deliverablePaths: [DELIVERABLE],
    allowGlobs: ['docs/**'],
    forbiddenGlobs: [],
    message: 'researcher: findings',
    trailers: stageTrailers({ profile: 'researcher', run, outcome: 'succeeded' })
  })
  const push = (attempts?: number) =>
    pushWithRetry({
      repo: work,
      branch: BRANCH,
      sha: sha!,
      baseSha: prepared.baseSha,
      created: prepared.created,
      attempts,
      backoffMs: 0
    })
  return { work, prepared, sha: sha!, push }
}

const remoteHead = (origin: Origin) => sh(origin.dir, 'rev-parse', `refs/heads/${BRANCH}`)

async function failure(p: Promise<unknown>): Promise<PushError> {
  const err = await p.catch((e: unknown) => e)
  expect(err).toBeInstanceOf(PushError)
  return err as PushError
}

describe('pushWithRetry', () => {
  it('creates the branch on the remote with the first push', async () => {
    const origin = makeOrigin()
    const s = await stage(origin, { [DELIVERABLE]: '# Findings\n' })
    expect(s.prepared.created).toBe(true)
    expect(await s.push()).toEqual({ sha: s.sha, attempts: 1, rebased: false })
    expect(remoteHead(origin)).toBe(s.sha)
  })

  it('rebuilds its commit on top of a push made meanwhile, and keeps both', async () => {
    const origin = originWithBranch()
    const s = await stage(origin, { [DELIVERABLE]: '# Findings\n' })
    const theirs = pushFromElsewhere(origin, BRANCH, { 'docs/human.md': 'a human was here\n' })

    const r = await s.push()
    expect(r.attempts).toBe(2)
    expect(r.rebased).toBe(true)
    expect(remoteHead(origin)).toBe(r.sha)
    expect(sh(origin.dir, 'rev-parse', `${r.sha}^`)).toBe(theirs)
    expect(changesOf(origin.dir, r.sha)).toEqual([`A\t${DELIVERABLE}`])
    expect(sh(origin.dir, 'show', `${r.sha}:docs/human.md`)).toBe('a human was here')
    expect(sh(origin.dir, 'log', '-1', '--format=%an <%ae>%n%B', r.sha)).toBe(
      sh(s.work, 'log', '-1', '--format=%an <%ae>%n%B', s.sha)
    )
    expect(sh(s.work, 'rev-parse', 'HEAD')).toBe(r.sha)
    expect(readFileSync(path.join(s.work, 'docs/human.md'), 'utf8')).toBe('a human was here\n')
  })

  it('joins a branch another run created meanwhile', async () => {
    const origin = makeOrigin()
    const s = await stage(origin, { [DELIVERABLE]: '# Findings\n' })
    sh(origin.dir, 'branch', BRANCH, 'main')
    const theirs = pushFromElsewhere(origin, BRANCH, { 'docs/other.md': 'other\n' })
    const r = await s.push()
    expect(r).toMatchObject({ attempts: 2, rebased: true })
    expect(sh(origin.dir, 'rev-parse', `${remoteHead(origin)}^`)).toBe(theirs)
  })

  it('ends clearly when the branch moved in a conflicting way', async () => {
    const origin = originWithBranch()
    const s = await stage(origin, { 'docs/stage1.md': 'ours\n' })
    const theirs = pushFromElsewhere(origin, BRANCH, { 'docs/stage1.md': 'theirs\n' })
    const err = await failure(s.push())
    expect(err.kind).toBe('conflict')
    expect(err.paths).toEqual(['docs/stage1.md'])
    expect(err.message).toBe(
      "the branch itervox/5 moved and conflicts with this stage's commit in docs/stage1.md"
    )
    expect(remoteHead(origin)).toBe(theirs)
  })

  it('fails once, without retrying, when the remote refuses by policy', async () => {
    const origin = originWithBranch()
    const count = path.join(tmp(), 'count')
    write(
      origin.dir,
      'hooks/pre-receive',
      `#!/bin/sh\necho x >> '${count}'\necho 'error: GH013: Repository rule violations found for refs/heads/${BRANCH}.' >&2\nexit 1\n`,
      0o755
    )
    const s = await stage(origin, { [DELIVERABLE]: '# Findings\n' })
    const before = remoteHead(origin)
    const err = await failure(s.push())
    expect(err.kind).toBe('rejected')
    expect(err.attempts).toBe(1)
    expect(err.message).toBe(
      `origin refused the push to ${BRANCH}: [remote rejected] (pre-receive hook declined): error: GH013: Repository rule violations found for refs/heads/${BRANCH}.`
    )
    expect(readFileSync(count, 'utf8')).toBe('x\n')
    expect(remoteHead(origin)).toBe(before)
  })

  it('never pushes to a branch it is told is forbidden, and sends nothing', async () => {
    const origin = originWithBranch()
    const s = await stage(origin, { [DELIVERABLE]: '# Findings\n' })
    const before = remoteHead(origin)
    const err = await failure(
      pushWithRetry({
        repo: s.work,
        branch: BRANCH,
        sha: s.sha,
        baseSha: s.prepared.baseSha,
        created: false,
        forbidden: ['main', BRANCH]
      })
    )
    expect(err.kind).toBe('forbidden')
    expect(err.attempts).toBe(0)
    expect(err.message).toBe(
      `${BRANCH} is a protected branch (the default branch or a pull request's base); a stage never pushes to it`
    )
    expect(remoteHead(origin)).toBe(before)
  })

  it('does not re-create a branch deleted while the stage ran', async () => {
    const origin = originWithBranch()
    const s = await stage(origin, { [DELIVERABLE]: '# Findings\n' })
    sh(origin.dir, 'branch', '-D', BRANCH)
    const err = await failure(s.push())
    expect(err.kind).toBe('deleted')
    expect(err.message).toBe(
      `${BRANCH} was deleted on origin while this stage ran; not re-creating it from stale state`
    )
    expect(sh(origin.dir, 'branch', '--list', BRANCH)).toBe('')
  })

  it('does not push on top of a branch that was force-pushed', async () => {
    const origin = originWithBranch()
    const s = await stage(origin, { [DELIVERABLE]: '# Findings\n' })
    sh(origin.dir, 'update-ref', `refs/heads/${BRANCH}`, origin.main)
    const rewritten = pushFromElsewhere(origin, BRANCH, { 'docs/other.md': 'other\n' })
    const err = await failure(s.push())
    expect(err.kind).toBe('rewritten')
    expect(remoteHead(origin)).toBe(rewritten)
  })

  it('gives up after the allowed number of attempts', async () => {
    const origin = originWithBranch()
    const s = await stage(origin, { [DELIVERABLE]: '# Findings\n' })
    const theirs = pushFromElsewhere(origin, BRANCH, { 'docs/human.md': 'human\n' })
    const err = await failure(s.push(1))
    expect(err.kind).toBe('exhausted')
    expect(err.message).toBe(`${BRANCH} kept moving on origin; gave up after 1 push attempt`)
    expect(remoteHead(origin)).toBe(theirs)
  })
})
