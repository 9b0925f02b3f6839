import { afterAll, afterEach, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import {
  basicCredential,
  chooseGit,
  git,
  GitError,
  gitInvocation,
  minimumVersion,
  parseGitVersion,
  versionAtLeast,
  versionWarning
} from '../../src/git/git.js'
import { cleanup, sh, tmp, write } from './repos.js'

afterAll(cleanup)

const saved = { ...process.env }
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k]
  Object.assign(process.env, saved)
})

/** `n` texts whose blobs' ids start with 17, where git samples its loose objects. */
function looseIn17(n: number): string[] {
  const texts: string[] = []
  for (let i = 0; texts.length < n; i++) {
    const text = `${i}\n`
    const id = createHash('sha1').update(`blob ${text.length}\0${text}`).digest('hex')
    if (id.startsWith('17')) texts.push(text)
  }
  return texts
}

function repo(): string {
  const dir = tmp()
  sh(dir, 'init', '--quiet')
  return dir
}

describe('git', () => {
  it('returns output and feeds stdin', async () => {
    const r = await git(repo(), ['hash-object', '--stdin'], { input: 'hello\n' })
    expect(r).toEqual({ stdout: 'ce013625030ba8dba906f756967f9e9ca394464a\n', stderr: '', code: 0 })
  })

  it('throws a GitError with the command and what git said', async () => {
    const err = await git(repo(), ['rev-parse', '--verify', 'nope']).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GitError)
    const e = err as GitError
    expect(e.args).toEqual(['rev-parse', '--verify', 'nope'])
    expect(e.code).toBe(128)
    expect(e.stderr).toContain('fatal: Needed a single revision')
    expect(e.message).toBe(
      'git rev-parse --verify nope failed (exit 128): fatal: Needed a single revision'
    )
  })

  it('accepts exit codes that answer a question', async () => {
    const r = await git(repo(), ['config', '--get', 'no.such'], { okCodes: [1] })
    expect(r.code).toBe(1)
  })

  it('overrides hooks, fsmonitor, ssh and credential helpers that config sets', async () => {
    const dir = repo()
    sh(dir, 'config', 'core.hooksPath', '/tmp/hooks')
    sh(dir, 'config', 'core.fsmonitor', '/tmp/monitor')
    sh(dir, 'config', 'core.sshCommand', 'evil-ssh')
    sh(dir, 'config', 'credential.helper', '!evil')
    const get = async (key: string) =>
      (await git(dir, ['config', '--get-all', key])).stdout.replace(/\n$/, '').split('\n').pop()
    expect(await get('core.hooksPath')).toBe('/dev/null')
    expect(await get('core.fsmonitor')).toBe('false')
    expect(await get('core.sshCommand')).toBe('ssh')
    expect(await get('credential.helper')).toBe('')
    expect(await get('protocol.ext.allow')).toBe('never')
  })

  it('starts no housekeeping after a fetch, whatever the repository asks', async () => {
    const origin = repo()
    sh(
      origin,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@x',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'a'
    )
    const dir = repo()
    // git guesses the loose objects from those in objects/17/: three there, over a limit of
    // one, and git's own fetch would pack them all (`maintenance run --auto`, then `gc --auto`)
    // before it returned.
    for (const [i, text] of looseIn17(3).entries()) write(dir, `f${i}`, text)
    sh(dir, 'add', '.')
    sh(dir, '-c', 'user.name=t', '-c', 'user.email=t@x', 'commit', '-q', '-m', 'b')
    sh(dir, 'config', 'gc.auto', '1')
    sh(dir, 'config', 'gc.autoDetach', 'false')
    const trace = path.join(tmp('trace-'), 'trace')
    await git(dir, ['fetch', '--quiet', origin, 'HEAD'], { env: { GIT_TRACE: trace } })
    expect(readFileSync(trace, 'utf8')).not.toMatch(/run_command: .*\b(maintenance|gc)\b/)
    // The three blobs, their tree and commit, and the fetched commit and its tree.
    expect(sh(dir, 'count-objects')).toMatch(/^7 objects/)
  })

  it('trusts the directory it runs in, and no other, whoever owns it', async () => {
    const dir = repo()
    const r = await git(dir, ['config', '--get-all', 'safe.directory'])
    expect(r.stdout).toBe(`${dir}\n`)
  })

  it('reads neither ~/.gitconfig nor the XDG config', async () => {
    const home = tmp('home-')
    write(home, '.gitconfig', '[user]\n\tname = Planted\n')
    write(home, '.config/git/config', '[user]\n\temail = planted@example.com\n')
    process.env.HOME = home
    process.env.XDG_CONFIG_HOME = path.join(home, '.config')
    const r = await git(repo(), ['config', '--get-regexp', '^user\\.'], { okCodes: [1] })
    expect(r).toMatchObject({ stdout: '', code: 1 })
  })

  it('ignores GIT_DIR, GIT_INDEX_FILE and GIT_CONFIG_PARAMETERS from the environment', async () => {
    const mine = repo()
    const other = repo()
    process.env.GIT_DIR = path.join(other, '.git')
    process.env.GIT_INDEX_FILE = path.join(other, 'index')
    process.env.GIT_CONFIG_PARAMETERS = "'core.hookspath'='/tmp/evil'"
    expect((await git(mine, ['rev-parse', '--absolute-git-dir'])).stdout.trim()).toBe(
      path.join(mine, '.git')
    )
    expect((await git(mine, ['config', '--get-all', 'core.hooksPath'])).stdout.trim()).toBe(
      '/dev/null'
    )
  })

  it('keeps the token out of argv and out of errors', async () => {
    const auth = { serverUrl: 'http://127.0.0.1:9', token: 'SECRET-TOKEN' }
    const err = (await git(repo(), ['ls-remote', 'http://127.0.0.1:9/x.git'], { auth }).catch(
      (e: unknown) => e
    )) as GitError
    expect(err).toBeInstanceOf(GitError)
    const shown = `${err.message}\n${err.args.join(' ')}\n${err.stderr}`
    expect(shown).not.toContain('SECRET-TOKEN')
    expect(shown).not.toContain(basicCredential('SECRET-TOKEN'))
  })
})

describe('gitInvocation', () => {
  it('gives a long-lived git the same executable, hardening and environment', () => {
    process.env.GIT_DIR = '/elsewhere'
    process.env.GIT_CONFIG_PARAMETERS = "'core.hookspath'='/tmp/evil'"
    const { file, args, env } = gitInvocation('/the/repo', { env: { GIT_NO_LAZY_FETCH: '1' } })
    expect(path.isAbsolute(file)).toBe(true)
    expect(args).toContain('core.hooksPath=/dev/null')
    expect(args.slice(-2)).toEqual(['-c', 'safe.directory=/the/repo'])
    expect(env).toMatchObject({
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_NO_REPLACE_OBJECTS: '1',
      GIT_NO_LAZY_FETCH: '1'
    })
    expect(env.GIT_DIR).toBeUndefined()
    expect(env.GIT_CONFIG_PARAMETERS).toBeUndefined()
  })
})

describe('chooseGit', () => {
  function dirWithGit(): string {
    const dir = tmp('bin-')
    write(dir, 'git', '#!/bin/sh\n', 0o755)
    return dir
  }

  it('passes over a git in a directory we could write to when another exists', () => {
    const planted = dirWithGit()
    const system = dirWithGit()
    const empty = tmp('bin-')
    const pathEnv = [planted, empty, system].join(path.delimiter)
    expect(chooseGit(pathEnv, (d) => d !== system)).toEqual({
      file: path.join(system, 'git'),
      pathEnv: system
    })
  })

  it('uses PATH as it is when every directory is writable (root)', () => {
    const first = dirWithGit()
    const second = dirWithGit()
    const pathEnv = [first, second].join(path.delimiter)
    expect(chooseGit(pathEnv, () => true)).toEqual({ file: path.join(first, 'git'), pathEnv })
  })
})

describe('git versions', () => {
  it('parses the forms distributions print', () => {
    expect(parseGitVersion('git version 2.39.5\n').text).toBe('2.39.5')
    expect(parseGitVersion('git version 2.39.3 (Apple Git-145)').text).toBe('2.39.3')
    expect(parseGitVersion('git version 2.45.1.windows.1').text).toBe('2.45.1')
    expect(parseGitVersion('git version 2.40').text).toBe('2.40.0')
    expect(() => parseGitVersion('hub version 1')).toThrow(GitError)
  })

  it('compares versions', () => {
    const v = parseGitVersion('git version 2.39.5')
    expect(versionAtLeast(v, '2.39.5')).toBe(true)
    expect(versionAtLeast(v, '2.38.0')).toBe(true)
    expect(versionAtLeast(v, '2.39.6')).toBe(false)
    expect(versionAtLeast(v, '2.40.0')).toBe(false)
    expect(versionAtLeast(parseGitVersion('git version 3.0.0'), '2.99.99')).toBe(true)
  })

  it("reports the installed git's version", async () => {
    expect((await minimumVersion()).version).toEqual(parseGitVersion(sh('/', '--version')))
  })

  it('warns below the version with the CVE-2025-48384 fixes', () => {
    expect(versionWarning(parseGitVersion('git version 2.39.4'))).toBe(
      'git 2.39.4 is older than 2.39.5 and may lack the fixes for CVE-2025-48384 and related flaws; update git on this runner'
    )
    expect(versionWarning(parseGitVersion('git version 2.39.5'))).toBeUndefined()
  })
})
