import { afterEach, describe, expect, it } from '@jest/globals'
import { symlinkSync } from 'node:fs'
import path from 'node:path'
import { prepareIssueBranch } from '../../src/git/branch.js'
import { commitAllowed } from '../../src/git/commit.js'
import type { CommitSigner } from '../../src/git/commit-signer.js'
import { fileChangesOf } from '../../src/git/file-changes.js'
import { pushWithRetry } from '../../src/git/push.js'
import { stageTrailers } from '../../src/git/trailers.js'
import { GitHubApi } from '../../src/tracker/github-api.js'
import { startFakeGitHub, type FakeGitHub } from '../harness/fake-github.js'
import {
  cleanup,
  makeOrigin,
  pushFromElsewhere,
  sh,
  shallowCheckout,
  write,
  type Origin
} from './repos.js'

const BRANCH = 'itervox/5'
const DELIVERABLE = '.itervox/handoff/2026-02-02T10-00-00.000Z_researcher.md'

let gh: FakeGitHub | undefined
afterEach(async () => {
  await gh?.stop()
  gh = undefined
  cleanup()
})

function originWithBranch(): Origin {
  const origin = makeOrigin()
  sh(origin.dir, 'branch', BRANCH, 'main')
  pushFromElsewhere(origin, BRANCH, { 'docs/stage1.md': 'stage one\n' })
  return origin
}

async function signerFor(origin: Origin): Promise<CommitSigner> {
  gh = await startFakeGitHub({ originDir: origin.dir })
  return new GitHubApi({
    token: 't',
    apiUrl: gh.url,
    owner: 'octo-org',
    repo: 'demo',
    states: []
  }).commitSigner()
}

/** One stage up to its commit; `files` may be a function that changes the worktree. */
async function stage(origin: Origin, files: (work: string) => void) {
  const work = shallowCheckout(origin)
  const prepared = await prepareIssueBranch({ repo: work, branch: BRANCH, base: 'main' })
  files(work)
  const { sha } = await commitAllowed({
    repo: work,
    branch: BRANCH,
    baseSha: prepared.baseSha,
    deliverablePaths: [DELIVERABLE],
    allowGlobs: ['docs/**', 'tools/**', 'seed.txt'],
    forbiddenGlobs: [],
    message: 'researcher: findings',
    trailers: stageTrailers({ profile: 'researcher', run: '7', outcome: 'succeeded' })
  })
  const push = (signer: CommitSigner) =>
    pushWithRetry({
      repo: work,
      branch: BRANCH,
      sha: sha!,
      baseSha: prepared.baseSha,
      created: prepared.created,
      backoffMs: 0,
      signer
    })
  return { work, prepared, sha: sha!, push }
}

const remote = (origin: Origin, format: string) =>
  sh(origin.dir, 'log', '-1', `--format=${format}`, `refs/heads/${BRANCH}`)

describe('fileChangesOf', () => {
  it('says each added or changed file whole, in base64, and each deleted path', async () => {
    const origin = makeOrigin({ 'seed.txt': 'seed\n', 'docs/old.md': 'old\n' })
    const s = await stage(origin, (work) => {
      write(work, DELIVERABLE, '# Findings\n')
      write(work, 'docs/new.md', Buffer.from([0, 255, 10]))
      write(work, 'seed.txt', 'changed\n')
      sh(work, 'rm', '--quiet', 'docs/old.md')
    })
    expect(await fileChangesOf(s.work, s.prepared.baseSha, s.sha)).toEqual({
      additions: [
        { path: DELIVERABLE, contents: Buffer.from('# Findings\n').toString('base64') },
        { path: 'docs/new.md', contents: 'AP8K' },
        { path: 'seed.txt', contents: Buffer.from('changed\n').toString('base64') }
      ],
      deletions: [{ path: 'docs/old.md' }]
    })
  })

  it('cannot say a symlink, an executable file, a mode change, or too many bytes', async () => {
    const origin = makeOrigin()
    const cases: [(work: string) => void, RegExp][] = [
      [(w) => write(w, 'tools/run.sh', '#!/bin/sh\n', 0o755), /tools\/run.sh is executable/],
      [(w) => symlinkSync('../first.txt', path.join(w, 'docs/link')), /docs\/link is a symlink/],
      [(w) => write(w, 'docs/big.md', 'x'.repeat(2000)), /2002 bytes, more than the 1000/]
    ]
    for (const [change, why] of cases) {
      const s = await stage(origin, (w) => {
        write(w, 'docs/keep.md', 'k\n')
        change(w)
      })
      const got = await fileChangesOf(s.work, s.prepared.baseSha, s.sha, 1000)
      expect(got).toEqual({ unsupported: expect.stringMatching(why) })
    }
    const withTool = makeOrigin({ 'tools/run.sh': '#!/bin/sh\n' })
    const work = shallowCheckout(withTool)
    sh(work, 'checkout', '--quiet', '-b', 'x', 'origin/main')
    sh(work, 'update-index', '--chmod=+x', 'tools/run.sh')
    sh(work, 'commit', '--quiet', '-m', 'exec')
    sh(work, 'update-index', '--chmod=-x', 'tools/run.sh')
    sh(work, 'commit', '--quiet', '-m', 'not exec')
    expect(await fileChangesOf(work, 'HEAD^', 'HEAD')).toEqual({
      unsupported: 'tools/run.sh changes from mode 100755 to 100644'
    })
  })
})

describe('pushWithRetry with a signer', () => {
  it('has GitHub create the commit on the branch, and names its commit', async () => {
    const origin = originWithBranch()
    const signer = await signerFor(origin)
    const s = await stage(origin, (w) => write(w, DELIVERABLE, '# Findings\n'))
    const r = await s.push(signer)
    expect(r).toEqual({ sha: remote(origin, '%H'), attempts: 1, rebased: false, signed: true })
    expect(r.sha).not.toBe(s.sha)
    expect(remote(origin, '%P %T')).toBe(sh(s.work, 'log', '-1', '--format=%P %T', s.sha))
    expect(remote(origin, '%cn <%ce>')).toBe('GitHub <noreply@github.com>')
    expect(remote(origin, '%B')).toBe(sh(s.work, 'log', '-1', '--format=%B', s.sha))
    expect(sh(s.work, 'rev-parse', BRANCH)).toBe(r.sha)
    expect(gh!.violations).toEqual([])
  })

  it('creates a missing branch at the base first, then the commit on it', async () => {
    const origin = makeOrigin()
    const signer = await signerFor(origin)
    const s = await stage(origin, (w) => write(w, DELIVERABLE, '# Findings\n'))
    expect(s.prepared.created).toBe(true)
    const r = await s.push(signer)
    expect(r).toMatchObject({ attempts: 2, signed: true })
    expect(remote(origin, '%H %P')).toBe(`${r.sha} ${origin.main}`)
  })

  it('replays the change on a head someone pushed meanwhile and sends it again', async () => {
    const origin = originWithBranch()
    const real = await signerFor(origin)
    let human = ''
    const racing: CommitSigner = {
      createCommit: (c) => {
        human ||= pushFromElsewhere(origin, BRANCH, { 'docs/human.md': 'human\n' }, 'human')
        return real.createCommit(c)
      }
    }
    const s = await stage(origin, (w) => write(w, DELIVERABLE, '# Findings\n'))
    const r = await s.push(racing)
    expect(r).toMatchObject({ attempts: 2, rebased: true, signed: true })
    expect(remote(origin, '%P')).toBe(human)
    const files = sh(origin.dir, 'ls-tree', '-r', '--name-only', `refs/heads/${BRANCH}`)
    expect(files).toContain('docs/human.md')
    expect(files).toContain(DELIVERABLE)
    expect(gh!.requests.filter((q) => q.path === '/graphql')).toHaveLength(2)
  })

  it('takes the commit an earlier send made when its answer was lost', async () => {
    const origin = originWithBranch()
    const real = await signerFor(origin)
    let sent = 0
    const losing: CommitSigner = {
      createCommit: async (c) => {
        const v = await real.createCommit(c)
        return sent++ === 0 ? { kind: 'transient', why: 'the answer was lost' } : v
      }
    }
    const s = await stage(origin, (w) => write(w, DELIVERABLE, '# Findings\n'))
    const r = await s.push(losing)
    expect(r).toMatchObject({ sha: remote(origin, '%H'), attempts: 2, signed: true })
    expect(sh(origin.dir, 'rev-list', '--count', `main..refs/heads/${BRANCH}`)).toBe('2')
  })

  it('pushes a change the mutation cannot say, and says why', async () => {
    const origin = originWithBranch()
    const signer = await signerFor(origin)
    const s = await stage(origin, (w) => {
      write(w, DELIVERABLE, '# Findings\n')
      write(w, 'tools/run.sh', '#!/bin/sh\n', 0o755)
    })
    const r = await s.push(signer)
    expect(r).toEqual({
      sha: s.sha,
      attempts: 1,
      rebased: false,
      notice:
        "sign-commits: the stage's commit was pushed unsigned, because tools/run.sh is executable (mode 100755), which createCommitOnBranch cannot express"
    })
    expect(remote(origin, '%H')).toBe(s.sha)
    expect(gh!.requests).toEqual([])
  })
})
