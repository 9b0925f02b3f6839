import { afterAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { UserError } from '../../src/errors.js'
import { prepareIssueBranch } from '../../src/git/branch.js'
import { validateBranchName } from '../../src/git/branch-name.js'
import { cleanup, makeOrigin, pushFromElsewhere, sh, shallowCheckout, tmp, write } from './repos.js'

afterAll(cleanup)

describe('prepareIssueBranch', () => {
  it('creates the issue branch from the default branch after a shallow, detached checkout', async () => {
    const origin = makeOrigin()
    const work = shallowCheckout(origin)
    const r = await prepareIssueBranch({ repo: work, branch: 'itervox/7', base: 'main' })
    expect(r).toEqual({
      branch: 'itervox/7',
      baseSha: origin.main,
      forkSha: origin.main,
      created: true
    })
    expect(sh(work, 'symbolic-ref', 'HEAD')).toBe('refs/heads/itervox/7')
    expect(sh(work, 'rev-parse', 'HEAD')).toBe(origin.main)
    expect(sh(origin.dir, 'branch', '--list', 'itervox/7')).toBe('')
  })

  it('fetches and checks out the branch when the remote has it', async () => {
    const origin = makeOrigin()
    sh(origin.dir, 'branch', 'itervox/7', 'main')
    const head = pushFromElsewhere(origin, 'itervox/7', { 'docs/stage1.md': 'from stage one\n' })
    const work = shallowCheckout(origin)

    const r = await prepareIssueBranch({ repo: work, branch: 'itervox/7', base: 'main' })
    expect(r).toEqual({ branch: 'itervox/7', baseSha: head, forkSha: origin.main, created: false })
    expect(sh(work, 'rev-parse', 'HEAD')).toBe(head)
    expect(readFileSync(path.join(work, 'docs/stage1.md'), 'utf8')).toBe('from stage one\n')
    expect(sh(work, 'status', '--porcelain')).toBe('')
  })

  it('keeps a full clone full', async () => {
    const origin = makeOrigin()
    const work = tmp()
    sh(work, 'clone', '--quiet', origin.url, '.')
    await prepareIssueBranch({ repo: work, branch: 'itervox/7', base: 'main' })
    expect(sh(work, 'rev-parse', '--is-shallow-repository')).toBe('false')
    expect(sh(work, 'rev-list', '--count', 'HEAD')).toBe('2')
  })

  it('starts from an empty workspace: init, add the remote, fetch', async () => {
    const origin = makeOrigin()
    sh(origin.dir, 'branch', 'itervox/9', 'main')
    const head = pushFromElsewhere(origin, 'itervox/9', { 'docs/x.md': 'x\n' })
    const work = path.join(tmp(), 'not-yet')

    const r = await prepareIssueBranch({
      repo: work,
      branch: 'itervox/9',
      base: 'main',
      remoteUrl: origin.url
    })
    expect(r).toEqual({ branch: 'itervox/9', baseSha: head, forkSha: origin.main, created: false })
    expect(sh(work, 'remote', 'get-url', 'origin')).toBe(origin.url)
    expect(readFileSync(path.join(work, 'docs/x.md'), 'utf8')).toBe('x\n')

    const other = tmp()
    const created = await prepareIssueBranch({
      repo: other,
      branch: 'itervox/10',
      base: 'main',
      remoteUrl: origin.url
    })
    expect(created).toEqual({
      branch: 'itervox/10',
      baseSha: origin.main,
      forkSha: origin.main,
      created: true
    })
  })

  it('lists the remote it adds, not a folder of the checkout named like it', async () => {
    const origin = makeOrigin()
    sh(origin.dir, 'branch', 'itervox/7', 'main')
    const head = pushFromElsewhere(origin, 'itervox/7', { 'docs/stage1.md': 'from stage one\n' })
    const work = shallowCheckout(origin)
    sh(work, 'remote', 'remove', 'origin')
    // A repository at ./origin, without the issue branch: `git ls-remote origin` would list it.
    cpSync(makeOrigin({ 'README.md': 'not the remote\n' }).dir, path.join(work, 'origin'), {
      recursive: true
    })
    const r = await prepareIssueBranch({
      repo: work,
      branch: 'itervox/7',
      base: 'main',
      remoteUrl: origin.url
    })
    expect(r).toEqual({ branch: 'itervox/7', baseSha: head, forkSha: origin.main, created: false })
  })

  it('needs a remote URL when there is nothing to reuse', async () => {
    const work = tmp()
    await expect(
      prepareIssueBranch({ repo: work, branch: 'itervox/1', base: 'main' })
    ).rejects.toThrow(/has no remote "origin"/)
  })

  it('says so when the base branch does not exist', async () => {
    const origin = makeOrigin()
    const work = shallowCheckout(origin)
    const err = await prepareIssueBranch({ repo: work, branch: 'itervox/1', base: 'trunk' }).catch(
      (e: unknown) => e
    )
    expect(err).toBeInstanceOf(UserError)
    expect((err as Error).message).toBe('the base branch "trunk" does not exist on origin')
  })

  it('clears stale locks and local changes a cancelled run left in a reused workspace', async () => {
    const origin = makeOrigin()
    sh(origin.dir, 'branch', 'itervox/7', 'main')
    const head = pushFromElsewhere(origin, 'itervox/7', { 'docs/notes.md': 'updated\n' })
    const work = shallowCheckout(origin)
    write(work, '.git/index.lock', '')
    write(work, '.git/shallow.lock', '')
    write(work, 'docs/notes.md', 'uncommitted edit\n')

    const r = await prepareIssueBranch({ repo: work, branch: 'itervox/7', base: 'main' })
    expect(r.baseSha).toBe(head)
    expect(existsSync(path.join(work, '.git/index.lock'))).toBe(false)
    expect(existsSync(path.join(work, '.git/shallow.lock'))).toBe(false)
    expect(readFileSync(path.join(work, 'docs/notes.md'), 'utf8')).toBe('updated\n')
  })

  it('treats a branch name that looks like shell as data', async () => {
    const origin = makeOrigin()
    const work = shallowCheckout(origin)
    const marker = path.join(tmp(), 'x')
    const name = `zzz";touch${'${IFS}'}${marker};#`
    const r = await prepareIssueBranch({ repo: work, branch: name, base: 'main' })
    expect(r.created).toBe(true)
    expect(sh(work, 'symbolic-ref', 'HEAD')).toBe(`refs/heads/${name}`)
    expect(existsSync(marker)).toBe(false)
  })
})

describe('validateBranchName', () => {
  it.each([
    '-x',
    '--upload-pack=touch',
    'a..b',
    'a b',
    '@{-1}',
    'x@{y',
    'foo.lock',
    '',
    'HEAD',
    'a/'
  ])('rejects %j', async (name) => {
    await expect(validateBranchName(name)).rejects.toThrow(UserError)
  })

  it.each(['itervox/12', 'feature/a.b_c-d'])('accepts %j', async (name) => {
    await expect(validateBranchName(name)).resolves.toBe(name)
  })

  it('agrees with git check-ref-format --branch, which it no longer starts', async () => {
    // Every rule's characters, each alone and in small random names (seeded, so repeatable).
    const parts = ['a', 'b/', '/', '.', '..', '.lock', '@', '@{', '{', '-', ' ', '~', '^', ':']
    parts.push('?', '*', '[', '\\', '\x7f', '\t', 'é', 'HEAD')
    let seed = 7
    const pick = () => parts[((seed = (seed * 1103515245 + 12345) % 2 ** 31) >> 16) % parts.length]!
    const edges = ['a.lock', 'a.lock/b', 'b/a.lock', 'a/.b', 'a//b', 'a.', '/a', 'a/', 'a@b', 'a{b']
    const names = [
      ...parts,
      ...edges,
      ...Array.from({ length: 300 }, () => pick() + pick() + pick())
    ]
    const unique = [...new Set(names)]
    // One shell starts every git: forking this large test process for each name cost more.
    const each =
      'for n do if out=$(git check-ref-format --branch "$n"); ' +
      'then printf "%s\\0" "$out"; else printf "\\1\\0"; fi; done'
    const answers = spawnSync('sh', ['-c', each, 'sh', ...unique], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore']
    }).stdout.split('\0')
    expect(answers).toHaveLength(unique.length + 1)
    for (const [i, name] of unique.entries()) {
      const gitSays = answers[i]!.trim() === name
      const oursSays = await validateBranchName(name).then(
        () => true,
        () => false
      )
      // HEAD and @, which git takes as branch names, name the current commit in a revision.
      const valid = gitSays && name !== 'HEAD' && name !== '@'
      expect({ name, valid: oursSays }).toEqual({ name, valid })
    }
  })
})
