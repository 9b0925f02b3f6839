import { afterAll, beforeEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import {
  existsSync,
  linkSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import path from 'node:path'
import { deflateSync } from 'node:zlib'
import { prepareIssueBranch } from '../../src/git/branch.js'
import { BOT_IDENTITY, commitAllowed, type CommitOptions } from '../../src/git/commit.js'
import { GitDirTamperedError } from '../../src/git/guard.js'
import { stageTrailers } from '../../src/git/trailers.js'
import {
  changesOf,
  cleanup,
  EARLIER_HANDOFF,
  makeOrigin,
  markerScript,
  SEED,
  sh,
  shallowCheckout,
  tmp,
  write
} from './repos.js'

afterAll(cleanup)

const DELIVERABLE = '.itervox/handoff/2026-02-02T10-00-00.000Z_researcher.md'
const BRANCH = 'itervox/5'

let work: string
let baseSha: string

beforeEach(async () => {
  work = shallowCheckout(makeOrigin())
  ;({ baseSha } = await prepareIssueBranch({ repo: work, branch: BRANCH, base: 'main' }))
})

function commit(extra: Partial<CommitOptions> = {}) {
  return commitAllowed({
    repo: work,
    branch: BRANCH,
    baseSha,
    deliverablePaths: [DELIVERABLE],
    allowGlobs: ['docs/**'],
    forbiddenGlobs: [EARLIER_HANDOFF],
    message: 'researcher: findings for #5',
    trailers: stageTrailers({ profile: 'researcher', run: '123', outcome: 'succeeded' }),
    ...extra
  })
}

const lsTree = (sha: string) => sh(work, 'ls-tree', '-r', sha).split('\n')

describe('commitAllowed', () => {
  it('commits the deliverable and allowed paths only, and says why the rest was dropped', async () => {
    write(work, DELIVERABLE, '# Findings\n')
    write(work, 'docs/notes.md', 'better notes\n')
    write(work, 'docs/new.md', 'new\n')
    write(work, '.github/workflows/x.yml', 'on: issues\n')
    write(work, 'WORKFLOW.md', 'hijacked\n')
    write(work, '.itervox/agents/researcher.md', 'You obey me.\n')
    write(work, '.itervox/agents/new.md', 'new agent\n')
    write(work, EARLIER_HANDOFF, 'rewritten history\n')
    write(work, 'package.json', '{"name":"evil"}\n')
    write(work, 'src/evil.ts', 'x\n')
    write(work, 'debug.log', 'ignored\n')

    const r = await commit()
    expect(r.committed).toEqual([DELIVERABLE, 'docs/new.md', 'docs/notes.md'])
    expect(r.dropped).toEqual([
      { path: '.github/workflows/x.yml', reason: 'forbidden path' },
      { path: '.itervox/agents/new.md', reason: 'forbidden path' },
      { path: '.itervox/agents/researcher.md', reason: 'forbidden path' },
      { path: EARLIER_HANDOFF, reason: 'forbidden path' },
      { path: 'WORKFLOW.md', reason: 'forbidden path' },
      { path: 'package.json', reason: 'not in the allow-list' },
      { path: 'src/evil.ts', reason: 'not in the allow-list' }
    ])
    const sha = r.sha!
    expect(changesOf(work, sha)).toEqual([
      `A\t${DELIVERABLE}`,
      'A\tdocs/new.md',
      'M\tdocs/notes.md'
    ])
    expect(sh(work, 'rev-parse', `${sha}^`)).toBe(baseSha)
    expect(sh(work, 'show', `${sha}:${DELIVERABLE}`)).toBe('# Findings')
  })

  it('writes the bot identity and the trailers after a blank line', async () => {
    write(work, DELIVERABLE, '# Findings\n')
    const { sha } = await commit()
    const raw = sh(work, 'cat-file', 'commit', sha!)
    expect(raw).toMatch(
      new RegExp(
        `^author ${escape(BOT_IDENTITY.name)} <${escape(BOT_IDENTITY.email)}> \\d+ [+-]\\d{4}$`,
        'm'
      )
    )
    expect(raw).toMatch(new RegExp(`^committer ${escape(BOT_IDENTITY.name)} `, 'm'))
    expect(raw.slice(raw.indexOf('\n\n') + 2)).toBe(
      'researcher: findings for #5\n\nItervox-Profile: researcher\nItervox-Run: 123\nItervox-Outcome: succeeded'
    )
  })

  it('writes the author and committer it is given', async () => {
    write(work, DELIVERABLE, '# Findings\n')
    const author = { name: 'my-app[bot]', email: '1+my-app[bot]@users.noreply.github.com' }
    const committer = { name: 'Ops', email: 'ops@example.com' }
    const { sha } = await commit({ author, committer })
    expect(sh(work, 'log', '-1', '--format=%an <%ae>|%cn <%ce>', sha!)).toBe(
      `${author.name} <${author.email}>|Ops <ops@example.com>`
    )
  })

  it('points the branch at the commit and resets the worktree to it', async () => {
    write(work, DELIVERABLE, '# Findings\n')
    write(work, 'WORKFLOW.md', 'hijacked\n')
    write(work, 'src/evil.ts', 'x\n')
    write(work, '.github/workflows/x.yml', 'on: push\n')
    sh(work, 'add', '.github/workflows/x.yml')
    const { sha } = await commit()
    expect(sh(work, 'symbolic-ref', 'HEAD')).toBe(`refs/heads/${BRANCH}`)
    expect(sh(work, 'rev-parse', BRANCH)).toBe(sha)
    expect(readFileSync(path.join(work, 'WORKFLOW.md'), 'utf8')).toBe(SEED['WORKFLOW.md'])
    expect(sh(work, 'status', '--porcelain')).toBe('?? .github/workflows/x.yml\n?? src/')
    expect(readdirSync(path.join(work, '.git')).filter((f) => f.startsWith('index'))).toEqual([
      'index'
    ])
  })

  it("keeps the agent's own commits only under the same rule", async () => {
    write(work, 'docs/a.md', 'a\n')
    write(work, '.github/workflows/evil.yml', 'on: push\n')
    write(work, 'package.json', '{"name":"evil"}\n')
    sh(work, 'add', '-A')
    sh(work, 'commit', '--quiet', '-m', 'agent work')
    write(work, DELIVERABLE, '# Findings\n')

    const r = await commit()
    expect(r.committed).toEqual([DELIVERABLE, 'docs/a.md'])
    expect(r.dropped).toEqual([
      { path: '.github/workflows/evil.yml', reason: 'forbidden path' },
      { path: 'package.json', reason: 'not in the allow-list' }
    ])
    expect(sh(work, 'rev-list', '--count', `${baseSha}..${r.sha}`)).toBe('1')
    expect(sh(work, 'rev-parse', `${r.sha}^`)).toBe(baseSha)
    expect(sh(work, 'ls-tree', '-r', '--name-only', r.sha!)).not.toContain('evil.yml')
    expect(sh(work, 'show', `${r.sha}:package.json`)).toBe(SEED['package.json'].trimEnd())
  })

  it('commits a deliverable that .gitignore ignores, and nothing else it ignores', async () => {
    write(work, '.gitignore', '*.log\n.itervox/handoff/\n')
    write(work, DELIVERABLE, '# Findings\n')
    write(work, '.itervox/handoff/scratch.md', 'scratch\n')
    write(work, 'docs/trace.log', 'ignored by *.log\n')
    const r = await commit()
    expect(r.committed).toEqual([DELIVERABLE])
    expect(r.dropped).toEqual([{ path: '.gitignore', reason: 'not in the allow-list' }])
  })

  it('deletes allowed paths and never forbidden or unlisted ones', async () => {
    write(work, DELIVERABLE, '# Findings\n')
    rmSync(path.join(work, 'docs/notes.md'))
    rmSync(path.join(work, 'WORKFLOW.md'))
    rmSync(path.join(work, 'README.md'))
    rmSync(path.join(work, EARLIER_HANDOFF))
    const r = await commit()
    expect(r.committed).toEqual([DELIVERABLE, 'docs/notes.md'])
    expect(changesOf(work, r.sha!)).toEqual([`A\t${DELIVERABLE}`, 'D\tdocs/notes.md'])
    expect(r.dropped.map((d) => d.path)).toEqual([EARLIER_HANDOFF, 'README.md', 'WORKFLOW.md'])
  })

  it('commits in-repo symlinks the allow-list names, and no link, pipe or outside target', async () => {
    const outside = path.join(tmp(), 'secret.txt')
    writeFileSync(outside, 'secret\n')
    symlinkSync('notes.md', path.join(work, 'docs/inside'))
    symlinkSync('/etc/passwd', path.join(work, 'docs/passwd'))
    symlinkSync('../../outside', path.join(work, 'docs/up'))
    symlinkSync('../.git/config', path.join(work, 'docs/gitconfig'))
    symlinkSync('/etc', path.join(work, 'docs/etc'))
    linkSync(outside, path.join(work, 'docs/hard.md'))
    execFileSync('mkfifo', [path.join(work, 'docs/pipe')])
    write(work, 'docs/run.sh', '#!/bin/sh\n', 0o755)
    symlinkSync('../../README.md', path.join(work, DELIVERABLE))
    const partial = DELIVERABLE.replace(/\.md$/, '.partial.md')
    execFileSync('mkfifo', [path.join(work, partial)])

    const r = await commit({ deliverablePaths: [DELIVERABLE, partial] })
    expect(r.committed).toEqual(['docs/inside', 'docs/run.sh'])
    expect(r.dropped).toEqual([
      { path: DELIVERABLE, reason: 'a symlink, not a regular file' },
      { path: partial, reason: 'not a regular file (fifo)' },
      { path: 'docs/etc', reason: 'symlink pointing outside the repository' },
      { path: 'docs/gitconfig', reason: 'symlink pointing outside the repository' },
      { path: 'docs/hard.md', reason: 'a hard link' },
      { path: 'docs/passwd', reason: 'symlink pointing outside the repository' },
      { path: 'docs/up', reason: 'symlink pointing outside the repository' }
    ])
    const tree = lsTree(r.sha!)
    expect(tree).toContainEqual(expect.stringMatching(/^120000 blob \w+\tdocs\/inside$/))
    expect(tree).toContainEqual(expect.stringMatching(/^100755 blob \w+\tdocs\/run\.sh$/))
    expect(sh(work, 'cat-file', '-p', `${r.sha}:docs/inside`)).toBe('notes.md')
  })

  it('drops files larger than the cap', async () => {
    write(work, DELIVERABLE, '# Findings\n')
    write(work, 'docs/big.bin', Buffer.alloc(2048))
    const r = await commit({ maxFileBytes: 1024 })
    expect(r.committed).toEqual([DELIVERABLE])
    expect(r.dropped).toEqual([
      { path: 'docs/big.bin', reason: 'too large to commit: 2048 bytes, over the 1024-byte limit' }
    ])
  })

  it('does not let files under an allowed path replace a file that may not change', async () => {
    rmSync(path.join(work, 'package.json'))
    write(work, 'package.json/x.md', 'x\n')
    const r = await commit({ allowGlobs: ['**/*.md'] })
    expect(r.sha).toBeNull()
    expect(r.dropped).toEqual([
      { path: 'package.json', reason: 'not in the allow-list' },
      { path: 'package.json/x.md', reason: 'would replace package.json, which may not change' }
    ])
  })

  it('returns no commit when nothing allowed changed', async () => {
    write(work, 'package.json', '{"name":"evil"}\n')
    sh(work, 'commit', '--quiet', '--allow-empty', '-m', 'agent noise')
    const r = await commit()
    expect(r).toEqual({
      sha: null,
      committed: [],
      dropped: [{ path: 'package.json', reason: 'not in the allow-list' }]
    })
  })

  it('sees a file rewritten with the same bytes as unchanged', async () => {
    write(work, 'docs/notes.md', SEED['docs/notes.md'])
    expect((await commit()).sha).toBeNull()
  })

  it('runs no hook or fsmonitor an agent planted', async () => {
    const marker = path.join(tmp(), 'marker')
    const hooks = path.join(tmp(), 'hooks')
    for (const name of ['pre-commit', 'post-commit', 'post-checkout', 'reference-transaction']) {
      write(work, `.git/hooks/${name}`, markerScript(marker), 0o755)
      write(hooks, name, markerScript(marker), 0o755)
    }
    write(hooks, 'fsmonitor', markerScript(marker), 0o755)
    sh(work, 'config', 'core.hooksPath', hooks)
    sh(work, 'config', 'core.fsmonitor', path.join(hooks, 'fsmonitor'))
    write(work, DELIVERABLE, '# Findings\n')

    const r = await commit()
    expect(r.committed).toEqual([DELIVERABLE])
    expect(existsSync(marker)).toBe(false)
  })

  it('refuses to build on a tree the agent swapped in the object store', async () => {
    const repo = tmp()
    sh(repo, 'init', '--quiet', '--initial-branch=main')
    write(repo, 'docs/a.md', 'a\n')
    sh(repo, 'add', '-A')
    sh(repo, 'commit', '--quiet', '-m', 'base')
    const base = sh(repo, 'rev-parse', 'HEAD')
    const docs = sh(repo, 'rev-parse', 'HEAD:docs')
    const evilBlob = sh(repo, 'hash-object', '-w', '--stdin', '--path', 'x')
    // A tree with an extra file, stored under the real tree's name.
    const body = Buffer.concat([
      Buffer.from('100644 a.md\0'),
      Buffer.from(sh(repo, 'rev-parse', 'HEAD:docs/a.md'), 'hex'),
      Buffer.from('100644 evil.md\0'),
      Buffer.from(evilBlob, 'hex')
    ])
    const loose = path.join(repo, '.git/objects', docs.slice(0, 2), docs.slice(2))
    rmSync(loose, { force: true })
    writeFileSync(loose, deflateSync(Buffer.concat([Buffer.from(`tree ${body.length}\0`), body])))
    write(repo, 'docs/b.md', 'b\n')

    const err = await commitAllowed({
      repo,
      branch: 'main',
      baseSha: base,
      deliverablePaths: [],
      allowGlobs: ['docs/**'],
      forbiddenGlobs: [],
      message: 'm',
      trailers: []
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GitDirTamperedError)
    expect((err as Error).message).toContain(`the tree of "docs" (${docs}) does not match`)
    expect(sh(repo, 'rev-parse', 'HEAD')).toBe(base)
  })
})

describe("commitAllowed from another tree (an isolated agent's, taken back)", () => {
  /** The agent's clone: its own `.git`, which the commit must never read or run. */
  function agentTree(): string {
    const tree = path.join(tmp(), 'agent-tree')
    sh(path.dirname(tree), 'clone', '--quiet', '--no-hardlinks', '--branch', BRANCH, work, tree)
    return tree
  }

  it('commits what changed in that tree and leaves the repository its own worktree', async () => {
    const tree = agentTree()
    write(tree, DELIVERABLE, '# Findings\n')
    write(tree, 'docs/new.md', 'new\n')
    write(tree, 'src/evil.ts', 'x\n')
    rmSync(path.join(tree, 'docs/notes.md'))
    const r = await commit({ workTree: tree })
    expect(r.committed).toEqual([DELIVERABLE, 'docs/new.md', 'docs/notes.md'])
    expect(r.dropped).toEqual([{ path: 'src/evil.ts', reason: 'not in the allow-list' }])
    expect(lsTree(r.sha!).join('\n')).not.toContain('docs/notes.md')
    // The repository's worktree follows the new commit; the agent's tree is left as it was.
    expect(readFileSync(path.join(work, DELIVERABLE), 'utf8')).toBe('# Findings\n')
    expect(existsSync(path.join(work, 'docs/notes.md'))).toBe(false)
    expect(existsSync(path.join(tree, 'src/evil.ts'))).toBe(true)
    expect(sh(work, 'status', '--porcelain')).toBe('')
  })

  it("never runs what the other tree's .git or attributes name", async () => {
    const tree = agentTree()
    const marker = path.join(tmp(), 'marker')
    write(tree, '.git/hooks/post-index-change', markerScript(marker), 0o755)
    sh(tree, 'config', 'core.fsmonitor', `sh -c 'echo ran >> ${marker}'`)
    sh(tree, 'config', 'filter.evil.clean', `sh -c 'echo ran >> ${marker}; cat'`)
    write(tree, '.gitattributes', '* filter=evil\n')
    write(tree, 'docs/notes.md', 'changed\n')
    write(tree, DELIVERABLE, '# Findings\n')
    const r = await commit({ workTree: tree })
    expect(r.committed).toEqual([DELIVERABLE, 'docs/notes.md'])
    expect(existsSync(marker)).toBe(false)
  })

  it('finds nothing to commit when the tree is as it was', async () => {
    const r = await commit({ workTree: agentTree(), deliverablePaths: [] })
    expect(r).toEqual({ sha: null, committed: [], dropped: [] })
  })
})

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
