import { afterAll, afterEach, describe, expect, it } from '@jest/globals'
import { cpSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { prepareIssueBranch } from '../../src/git/branch.js'
import { commitAllowed } from '../../src/git/commit.js'
import { PushError, pushWithRetry, type PushOptions } from '../../src/git/push.js'
import { refRejection, remoteFailure } from '../../src/git/remote-failure.js'
import {
  GIT_FAULTS,
  serveRepos,
  type GitFault,
  type GitRequest,
  type HttpOrigin
} from './http-origin.js'
import { cleanup, makeOrigin, pushFromElsewhere, sh, tmp, write, type Origin } from './repos.js'

afterAll(cleanup)

const BRANCH = 'itervox/5'
const DELIVERABLE = '.itervox/handoff/2026-02-02T10-00-00.000Z_researcher.md'

let served: HttpOrigin | undefined
afterEach(async () => {
  await served?.close()
  served = undefined
})

interface Made {
  originRoot: string
  main: string
  work: string
  prepared: Awaited<ReturnType<typeof prepareIssueBranch>>
  sha: string
}

/**
 * A stage up to its commit, in a workspace whose origin was served over HTTP, made once per
 * file for each case (the branch on origin or not): each test gets copies of its repositories,
 * since what a test takes apart is the push, which the copies have yet to make.
 */
const made = new Map<boolean, Promise<Made>>()
function template(branchExists: boolean): Promise<Made> {
  let m = made.get(branchExists)
  if (!m) {
    m = (async () => {
      const origin = makeOrigin()
      if (branchExists) {
        sh(origin.dir, 'branch', BRANCH, 'main')
        pushFromElsewhere(origin, BRANCH, { 'docs/stage1.md': 'stage one\n' })
      }
      const originRoot = path.dirname(origin.dir)
      const http = await serveRepos(originRoot)
      try {
        const work = tmp()
        sh(work, 'init', '--quiet')
        sh(work, 'remote', 'add', 'origin', `${http.server}/origin.git`)
        const prepared = await prepareIssueBranch({ repo: work, branch: BRANCH, base: 'main' })
        write(work, DELIVERABLE, '# Findings\n')
        const { sha } = await commitAllowed({
          repo: work,
          branch: BRANCH,
          baseSha: prepared.baseSha,
          deliverablePaths: [DELIVERABLE],
          allowGlobs: ['docs/**'],
          forbiddenGlobs: [],
          message: 'researcher: findings',
          trailers: []
        })
        return { originRoot, main: origin.main, work, prepared, sha: sha! }
      } finally {
        await http.close()
      }
    })()
    made.set(branchExists, m)
  }
  return m
}

/** A copy of the template's repositories, the origin served over HTTP on a port of its own. */
async function stage(opts: { branchExists?: boolean } = {}) {
  const t = await template(opts.branchExists ?? false)
  const originRoot = tmp('origin-')
  cpSync(t.originRoot, originRoot, { recursive: true })
  const work = tmp()
  cpSync(t.work, work, { recursive: true })
  const dir = path.join(originRoot, 'origin.git')
  const origin: Origin = { dir, url: pathToFileURL(dir).href, main: t.main }
  const http = await serveRepos(originRoot)
  served = http
  sh(work, 'remote', 'set-url', 'origin', `${http.server}/origin.git`)
  const { prepared, sha } = t
  const push = (extra: Partial<PushOptions> = {}) =>
    pushWithRetry({
      repo: work,
      branch: BRANCH,
      sha,
      baseSha: prepared.baseSha,
      created: prepared.created,
      backoffMs: 1,
      stallSeconds: 1,
      ...extra
    })
  const requests = (kind: GitRequest) => http.seen.filter((r) => r.request === kind).length
  return { origin, http, work, prepared, sha, push, requests }
}

const remoteHead = (origin: Origin) => sh(origin.dir, 'rev-parse', `refs/heads/${BRANCH}`)

async function failure(p: Promise<unknown>): Promise<PushError> {
  const err = await p.catch((e: unknown) => e)
  expect(err).toBeInstanceOf(PushError)
  return err as PushError
}

describe('pushWithRetry over HTTP: failures on the way are retried', () => {
  it.each<[string, GitRequest, GitFault, number]>([
    ['a 502 to the ref advertisement', 'push-refs', GIT_FAULTS.serverError(502), 1],
    ['a 503 to the pack', 'push', GIT_FAULTS.serverError(503), 1],
    ['a connection reset before the refs', 'push-refs', GIT_FAULTS.connectionReset(), 1],
    // curl sends a request again itself once when a reused connection drops.
    ['a connection reset while sending the pack', 'push', GIT_FAULTS.connectionReset(), 2],
    ['[remote rejected] (Internal Server Error)', 'push', GIT_FAULTS.internalServerError(), 1],
    ['fatal error in commit_refs', 'push', GIT_FAULTS.commitRefsFailed(), 1],
    ['a connection that stalls', 'push', GIT_FAULTS.hang(), 1]
  ])(
    'pushes after %s',
    async (_name, request, fault, times) => {
      const s = await stage({ branchExists: true })
      s.http.fail(request, fault, times)
      expect(await s.push()).toEqual({ sha: s.sha, attempts: 2, rebased: false })
      expect(remoteHead(s.origin)).toBe(s.sha)
    },
    20_000
  )

  it.each<[string, boolean, number, number]>([
    ['to an existing branch', true, 2, 2],
    ['creating the branch', false, 2, 2],
    // curl itself sends the pack again on a new connection; the lease refuses that copy.
    ['whose copy curl sent again', true, 1, 1]
  ])(
    'does not push twice when a push %s landed but its answer was lost',
    async (_name, branchExists, times, attempts) => {
      const s = await stage({ branchExists })
      s.http.fail('push', GIT_FAULTS.answerLost(), times)
      expect(await s.push()).toEqual({ sha: s.sha, attempts, rebased: false })
      expect(remoteHead(s.origin)).toBe(s.sha)
      expect(sh(s.origin.dir, 'rev-parse', `${s.sha}^`)).toBe(s.prepared.baseSha)
    }
  )

  it('retries a failed fetch while catching up with a branch that moved', async () => {
    const s = await stage({ branchExists: true })
    const theirs = pushFromElsewhere(s.origin, BRANCH, { 'docs/human.md': 'human\n' })
    s.http.fail('fetch-refs', GIT_FAULTS.serverError(502))
    const fetchedBefore = s.requests('fetch-refs')
    const r = await s.push()
    expect(r).toMatchObject({ attempts: 2, rebased: true })
    expect(sh(s.origin.dir, 'rev-parse', `${remoteHead(s.origin)}^`)).toBe(theirs)
    expect(s.requests('fetch-refs') - fetchedBefore).toBe(2)
  })

  it('says the remote is unavailable once the retries are spent, and leaves the branch alone', async () => {
    const s = await stage({ branchExists: true })
    const before = remoteHead(s.origin)
    s.http.fail('push-refs', GIT_FAULTS.serverError(502), Infinity)
    const e = await failure(s.push({ retries: 2 }))
    expect(e.kind).toBe('unavailable')
    expect(e.message).toBe(
      `origin is unavailable: gave up pushing ${BRANCH} after 2 retries: fatal: unable to access '${s.http.server}/origin.git/': The requested URL returned error: 502: Server Error`
    )
    expect(s.requests('push-refs')).toBe(3)
    expect(remoteHead(s.origin)).toBe(before)
  })

  it('says so when fetching keeps failing', async () => {
    const s = await stage({ branchExists: true })
    pushFromElsewhere(s.origin, BRANCH, { 'docs/human.md': 'human\n' })
    s.http.fail('fetch', GIT_FAULTS.connectionReset(), Infinity)
    const e = await failure(s.push({ retries: 1 }))
    expect(e.kind).toBe('unavailable')
    expect(e.message).toMatch(
      new RegExp(`^origin is unavailable: gave up fetching ${BRANCH} after 1 retry: `)
    )
  })
})

describe('pushWithRetry over HTTP: refusals are not retried', () => {
  it.each<[string, GitRequest]>([
    ['the ref advertisement', 'push-refs'],
    ['the pack', 'push']
  ])('stops at once when the token may not push (403 to %s)', async (_name, request) => {
    const s = await stage({ branchExists: true })
    s.http.fail(request, GIT_FAULTS.permissionDenied(), Infinity)
    const e = await failure(s.push())
    expect(e.kind).toBe('rejected')
    expect(e.attempts).toBe(1)
    expect(e.message).toMatch(
      /^origin refused the push to itervox\/5: .*403.*; the token needs write access to the repository \(`permissions: contents: write`\)$/
    )
    expect(s.requests(request)).toBe(1)
  })

  it("takes a hook's refusal for a refusal, even when the hook's words sound transient", async () => {
    const s = await stage({ branchExists: true })
    const count = path.join(tmp(), 'count')
    write(
      s.origin.dir,
      'hooks/pre-receive',
      `#!/bin/sh\necho x >> '${count}'\necho 'Internal Server Error' >&2\necho 'error: GH006: Protected branch update failed for refs/heads/${BRANCH}.' >&2\nexit 1\n`,
      0o755
    )
    const e = await failure(s.push())
    expect(e.kind).toBe('rejected')
    expect(e.message).toBe(
      `origin refused the push to ${BRANCH}: [remote rejected] (pre-receive hook declined): Internal Server Error error: GH006: Protected branch update failed for refs/heads/${BRANCH}.`
    )
    expect(readFileSync(count, 'utf8')).toBe('x\n')
  })
})

describe('remoteFailure and refRejection: git 2.39 and GitHub, word for word', () => {
  it.each([
    [
      'error: RPC failed; HTTP 413 curl 22 The requested URL returned error: 413\nfatal: the remote end hung up unexpectedly',
      'refused'
    ],
    [
      "fatal: unable to access 'https://github.com/o/r/': The requested URL returned error: 403",
      'refused'
    ],
    ['remote: Write access to repository not granted.\nfatal: unable to access ...', 'refused'],
    ["fatal: Authentication failed for 'https://github.com/o/r/'", 'refused'],
    [
      'git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.',
      'refused'
    ],
    ['error: RPC failed; HTTP 429 curl 22 The requested URL returned error: 429', 'transient'],
    [
      "fatal: unable to access 'https://github.com/o/r/': Could not resolve host: github.com",
      'transient'
    ],
    [
      'error: RPC failed; curl 56 Recv failure: Connection reset by peer\nfatal: early EOF',
      'transient'
    ],
    [
      'error: RPC failed; curl 92 HTTP/2 stream 5 was not closed cleanly: CANCEL (err 8)',
      'transient'
    ],
    ['remote: Internal Server Error\nEverything up-to-date', 'transient'],
    ["fatal: 'nowhere' does not appear to be a git repository", undefined]
  ])('reads %j as %s', (stderr, kind) => {
    expect(remoteFailure(stderr)?.kind).toBe(kind)
  })

  it('reads a ref GitHub failed to update as transient, and any other reason as a refusal', () => {
    const kind = (summary: string, says = '') => refRejection(summary, says).kind
    expect(kind('[remote failure] (remote failed to report status)')).toBe('transient')
    expect(kind('[remote rejected] (failure)', 'fatal error in commit_refs')).toBe('transient')
    expect(kind('[remote rejected] (failure)')).toBe('refused')
    expect(
      kind(
        '[remote rejected] (refusing to allow a GitHub App to create or update workflow `.github/workflows/ci.yml` without `workflows` permission)'
      )
    ).toBe('refused')
    expect(kind('[remote rejected] (shallow update not allowed)')).toBe('refused')
  })
})
