import { afterAll, describe, expect, it } from '@jest/globals'
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync
} from 'node:fs'
import path from 'node:path'
import {
  GitDirTamperedError,
  restoreGitDir,
  snapshotGitDir,
  type GitDirSnapshot
} from '../../src/git/guard.js'
import { cleanup, markerScript, makeOrigin, sh, shallowCheckout, tmp, write } from './repos.js'

afterAll(cleanup)

function checkout(): string {
  const work = shallowCheckout(makeOrigin())
  sh(work, 'checkout', '--quiet', '-B', 'itervox/3')
  return work
}

const read = (repo: string, rel: string) => readFileSync(path.join(repo, rel))

describe('snapshotGitDir / restoreGitDir', () => {
  it('puts .git/config and the hooks back byte for byte and reports what the agent planted', async () => {
    const work = checkout()
    const config = read(work, '.git/config')
    const hooksBefore = readdirSync(path.join(work, '.git/hooks'))
    const snap = await snapshotGitDir(work)

    const marker = path.join(tmp(), 'marker')
    sh(work, 'config', 'core.hooksPath', '.githooks')
    sh(work, 'config', 'core.fsmonitor', `touch ${marker}`)
    sh(work, 'config', 'url./elsewhere.insteadOf', 'file://')
    sh(work, 'config', 'credential.helper', '!evil')
    sh(work, 'config', 'includeIf.gitdir:/.path', '/tmp/evil.config')
    write(work, '.git/hooks/pre-commit', markerScript(marker), 0o755)
    write(work, '.git/hooks/pre-push', markerScript(marker), 0o755)
    write(work, '.git/info/attributes', '* merge=union\n')

    const report = await restoreGitDir(snap)
    expect(read(work, '.git/config').equals(config)).toBe(true)
    expect(existsSync(path.join(work, '.git/hooks/pre-commit'))).toBe(false)
    expect(existsSync(path.join(work, '.git/hooks/pre-push'))).toBe(false)
    expect(existsSync(path.join(work, '.git/info/attributes'))).toBe(false)
    expect(readdirSync(path.join(work, '.git/hooks'))).toEqual(hooksBefore)
    expect(report.changes).toEqual([
      { path: '.git/config', change: 'modified' },
      { path: '.git/info/attributes', change: 'added' },
      { path: '.git/hooks/pre-commit', change: 'added' },
      { path: '.git/hooks/pre-push', change: 'added' }
    ])
    expect(report.configKeys).toEqual([
      'core.fsmonitor',
      'core.hookspath',
      'credential.helper',
      'includeif.gitdir:/.path',
      'url./elsewhere.insteadof'
    ])
    expect(report.branchMoved).toBeNull()
    expect(existsSync(marker)).toBe(false)
  })

  it('removes locks the dead agent left behind', async () => {
    const work = checkout()
    const snap = await snapshotGitDir(work)
    write(work, '.git/index.lock', '')
    write(work, '.git/HEAD.lock', '')
    const report = await restoreGitDir(snap)
    expect(existsSync(path.join(work, '.git/index.lock'))).toBe(false)
    expect(existsSync(path.join(work, '.git/HEAD.lock'))).toBe(false)
    expect(report.changes).toEqual([
      { path: '.git/index.lock', change: 'added' },
      { path: '.git/HEAD.lock', change: 'added' }
    ])
  })

  it('reports nothing when the agent left .git alone', async () => {
    const work = checkout()
    const snap = await snapshotGitDir(work)
    expect(await restoreGitDir(snap)).toEqual({ changes: [], configKeys: [], branchMoved: null })
  })

  it('hides persisted checkout credentials for the run and brings them back', async () => {
    const work = checkout()
    const runnerTemp = tmp('runner-temp-')
    const creds = path.join(runnerTemp, 'git-credentials-1234.config')
    write(
      creds,
      '',
      '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n'
    )
    const gitDir = path.join(work, '.git')
    sh(work, 'config', 'http.https://github.com/.extraheader', 'AUTHORIZATION: basic b2xk')
    sh(work, 'config', `includeIf.gitdir:${gitDir}.path`, creds)
    sh(
      work,
      'config',
      `includeIf.gitdir:/github/workspace/.git.path`,
      '/github/runner_temp/x.config'
    )
    const before = read(work, '.git/config')
    const credsBefore = readFileSync(creds)

    const snap = await snapshotGitDir(work)
    const during = read(work, '.git/config').toString()
    expect(during).not.toMatch(/extraheader|AUTHORIZATION|git-credentials/)
    expect(during).toContain('/github/runner_temp/x.config')
    expect(existsSync(creds)).toBe(false)
    expect(sh(work, 'config', '--list')).not.toMatch(/extraheader/)

    const report = await restoreGitDir(snap)
    expect(read(work, '.git/config').equals(before)).toBe(true)
    expect(readFileSync(creds).equals(credsBefore)).toBe(true)
    expect(report.changes).toEqual([])
  })

  it('hides an extraheader set for every URL, not only for one server', async () => {
    const work = checkout()
    sh(work, 'config', 'http.extraheader', 'AUTHORIZATION: basic b2xk')
    const before = read(work, '.git/config')
    const snap = await snapshotGitDir(work)
    expect(read(work, '.git/config').toString()).not.toMatch(/extraheader|AUTHORIZATION/)
    await restoreGitDir(snap)
    expect(read(work, '.git/config').equals(before)).toBe(true)
  })

  it('finds persisted credentials however the config spells their names', async () => {
    // Section and variable names are case-insensitive: the text check before git parses the
    // config must be too.
    const work = checkout()
    const creds = path.join(tmp('runner-temp-'), 'git-credentials-5678.config')
    write(
      creds,
      '',
      '[Http "https://github.com/"]\n\tExtraHeader = AUTHORIZATION: basic c2VjcmV0\n'
    )
    const gitDir = path.join(work, '.git')
    const before = Buffer.concat([
      read(work, '.git/config'),
      Buffer.from(
        `[HTTP "https://github.com/"]\n\tEXTRAHEADER = AUTHORIZATION: basic b2xk\n[INCLUDEIF "gitdir:${gitDir}"]\n\tPATH = ${creds}\n`
      )
    ])
    write(gitDir, 'config', before.toString())

    const snap = await snapshotGitDir(work)
    expect(read(work, '.git/config').toString()).not.toMatch(/AUTHORIZATION|git-credentials/)
    expect(existsSync(creds)).toBe(false)

    await restoreGitDir(snap)
    expect(read(work, '.git/config').equals(before)).toBe(true)
    expect(existsSync(creds)).toBe(true)
  })

  it('removes a credentials file the agent forged while it was hidden', async () => {
    const work = checkout()
    const creds = path.join(tmp('runner-temp-'), 'git-credentials-1.config')
    write(
      creds,
      '',
      '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n'
    )
    sh(work, 'config', `includeIf.gitdir:${path.join(work, '.git')}.path`, creds)
    const snap = await snapshotGitDir(work)
    write(creds, '', '[core]\n\tfsmonitor = touch /tmp/pwned\n')
    const report = await restoreGitDir(snap)
    expect(readFileSync(creds, 'utf8')).toContain('extraheader')
    expect(report.changes).toEqual([{ path: creds, change: 'added' }])
  })

  it('never writes a hidden credential into a directory the agent swapped in', async () => {
    const work = checkout()
    const runnerTemp = tmp('runner-temp-')
    const creds = path.join(runnerTemp, 'git-credentials-1.config')
    write(
      creds,
      '',
      '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n'
    )
    sh(work, 'config', `includeIf.gitdir:${path.join(work, '.git')}.path`, creds)
    const snap = await snapshotGitDir(work)

    const docs = path.join(work, 'docs')
    write(docs, path.basename(creds), '[core]\n\tfsmonitor = touch /tmp/pwned\n')
    rmSync(runnerTemp, { recursive: true })
    symlinkSync(docs, runnerTemp)

    const report = await restoreGitDir(snap)
    expect(existsSync(path.join(docs, path.basename(creds)))).toBe(false)
    expect(report.changes).toEqual([{ path: runnerTemp, change: 'replaced' }])
  })

  it('leaves alone an include that names a directory', async () => {
    const work = checkout()
    const dir = tmp('dir-')
    write(dir, 'keep.txt', 'keep\n')
    // A condition that never holds: git itself would refuse to read a directory.
    sh(work, 'config', 'includeIf.gitdir:/nowhere/.path', dir)
    const snap = await snapshotGitDir(work)
    expect(await restoreGitDir(snap)).toEqual({ changes: [], configKeys: [], branchMoved: null })
    expect(readFileSync(path.join(dir, 'keep.txt'), 'utf8')).toBe('keep\n')
  })

  it('keeps a symlinked hook the workspace had, and puts it back if replaced', async () => {
    const work = checkout()
    symlinkSync('../../scripts/hook.sh', path.join(work, '.git/hooks/pre-commit'))
    const snap = await snapshotGitDir(work)
    rmSync(path.join(work, '.git/hooks/pre-commit'))
    write(work, '.git/hooks/pre-commit', '#!/bin/sh\n', 0o755)
    const report = await restoreGitDir(snap)
    expect(readlinkSync(path.join(work, '.git/hooks/pre-commit'))).toBe('../../scripts/hook.sh')
    expect(report.changes).toEqual([{ path: '.git/hooks/pre-commit', change: 'replaced' }])
  })

  it('puts back a branch the agent committed to', async () => {
    const work = checkout()
    const head = sh(work, 'rev-parse', 'HEAD')
    const snap = await snapshotGitDir(work)
    write(work, 'x.txt', 'x\n')
    sh(work, 'add', 'x.txt')
    sh(work, 'commit', '--quiet', '-m', 'agent commit')
    const agentHead = sh(work, 'rev-parse', 'HEAD')
    sh(work, 'checkout', '--quiet', '--detach')

    const report = await restoreGitDir(snap)
    expect(report.branchMoved).toEqual({ from: head, to: agentHead })
    expect(report.changes).toEqual([{ path: '.git/HEAD', change: 'modified' }])
    expect(sh(work, 'symbolic-ref', 'HEAD')).toBe('refs/heads/itervox/3')
    expect(sh(work, 'rev-parse', 'HEAD')).toBe(head)
  })

  it('never writes through a directory the agent swapped for a symlink', async () => {
    const work = checkout()
    const snap = await snapshotGitDir(work)
    const outside = tmp('outside-')
    rmSync(path.join(work, '.git/info'), { recursive: true, force: true })
    symlinkSync(outside, path.join(work, '.git/info'))
    rmSync(path.join(work, '.git/hooks'), { recursive: true, force: true })
    symlinkSync(outside, path.join(work, '.git/hooks'))
    write(outside, 'attributes', '* merge=union\n')
    write(outside, 'pre-commit', '#!/bin/sh\n', 0o755)

    const report = await restoreGitDir(snap)
    expect(lstatSync(path.join(work, '.git/info')).isDirectory()).toBe(true)
    expect(lstatSync(path.join(work, '.git/hooks')).isDirectory()).toBe(true)
    expect(existsSync(path.join(work, '.git/hooks/pre-commit'))).toBe(false)
    expect(readFileSync(path.join(outside, 'attributes'), 'utf8')).toBe('* merge=union\n')
    expect(report.changes).toEqual(
      expect.arrayContaining([
        { path: '.git/info', change: 'replaced' },
        { path: '.git/hooks', change: 'replaced' }
      ])
    )
  })

  it('restores a config the agent replaced with a symlink, without following it', async () => {
    const work = checkout()
    const config = read(work, '.git/config')
    const snap = await snapshotGitDir(work)
    const target = path.join(tmp(), 'target')
    write(target, '', 'untouched\n')
    rmSync(path.join(work, '.git/config'))
    symlinkSync(target, path.join(work, '.git/config'))

    const report = await restoreGitDir(snap)
    expect(read(work, '.git/config').equals(config)).toBe(true)
    expect(lstatSync(path.join(work, '.git/config')).isFile()).toBe(true)
    expect(readFileSync(target, 'utf8')).toBe('untouched\n')
    expect(report.changes).toEqual([{ path: '.git/config', change: 'replaced' }])
  })

  it.each([
    [
      'replaced by a symlink',
      (git: string) => {
        renameSync(git, `${git}.moved`)
        symlinkSync(`${git}.moved`, git)
      }
    ],
    ['removed', (git: string) => rmSync(git, { recursive: true, force: true })],
    [
      'replaced',
      (git: string) => {
        renameSync(git, `${git}.moved`)
        mkdirSync(git)
      }
    ]
  ])('fails clearly when .git was %s', async (what, tamper) => {
    const work = checkout()
    const snap: GitDirSnapshot = await snapshotGitDir(work)
    tamper(path.join(work, '.git'))
    const err = await restoreGitDir(snap).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GitDirTamperedError)
    expect((err as Error).message).toBe(
      `${path.join(work, '.git')} was ${what} while the agent ran; refusing to commit or push from this workspace`
    )
  })

  it('refuses a .git that is not a directory to begin with', async () => {
    const work = tmp()
    write(work, '.git', 'gitdir: /elsewhere\n')
    await expect(snapshotGitDir(work)).rejects.toThrow(GitDirTamperedError)
  })

  it('refuses a saved state that would write outside .git', async () => {
    const work = checkout()
    const snap = await snapshotGitDir(work)
    const hook = { data: Buffer.from('#!/bin/sh\n').toString('base64'), mode: 0o755 }
    const edited = { ...snap, hooks: { ...snap.hooks, '../../escape': hook } }
    await expect(restoreGitDir(edited)).rejects.toThrow(
      `the saved state of ${path.join(work, '.git')} is malformed`
    )
    expect(existsSync(path.join(work, 'escape'))).toBe(false)
  })

  it('survives a JSON round trip, as a post step needs', async () => {
    const work = checkout()
    const config = read(work, '.git/config')
    const snap = JSON.parse(JSON.stringify(await snapshotGitDir(work))) as GitDirSnapshot
    sh(work, 'config', 'core.hooksPath', '/tmp')
    await restoreGitDir(snap)
    expect(read(work, '.git/config').equals(config)).toBe(true)
  })
})
