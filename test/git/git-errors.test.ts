import { afterAll, describe, expect, it } from '@jest/globals'
import { statSync } from 'node:fs'
import { DiskFullError, git, GitError } from '../../src/git/git.js'
import { diskFull } from '../../src/git/git-errors.js'
import { cleanup, sh, tmp, write } from './repos.js'

afterAll(cleanup)

function repo(): string {
  const dir = tmp()
  sh(dir, 'init', '--quiet')
  write(dir, 'a.txt', 'a\n')
  sh(dir, 'add', 'a.txt')
  sh(dir, 'commit', '--quiet', '-m', 'a')
  return dir
}

async function failure(p: Promise<unknown>): Promise<GitError> {
  const err = await p.catch((e: unknown) => e)
  expect(err).toBeInstanceOf(GitError)
  return err as GitError
}

const TOKEN = 'ghs_0123456789abcdefABCDEF0123'

describe('GitError', () => {
  it('names the command without our -c settings or credentials, and what git said last', async () => {
    const url = `http://x-access-token:${TOKEN}@127.0.0.1:1/o/r.git`
    const e = await failure(
      git(repo(), ['-c', 'http.lowSpeedTime=5', 'ls-remote', url, `AUTHORIZATION: basic ${TOKEN}`])
    )
    expect(e.message).toMatch(
      /^git ls-remote http:\/\/\*\*\*@127\.0\.0\.1:1\/o\/r\.git AUTHORIZATION: basic \*\*\* failed \(exit 128\): fatal: unable to access '[^']*': Failed to connect to 127\.0\.0\.1 port 1/
    )
    expect(e.message).not.toContain(TOKEN)
    expect(e.message).not.toContain('\n')
    expect(e.args).toContain(url)
  })

  it('keeps a many-line argument to one line', async () => {
    const e = await failure(git(repo(), ['rev-parse', '--verify', 'first line\n\nsecond line']))
    expect(e.message).toBe(
      'git rev-parse --verify first line second line failed (exit 128): fatal: Needed a single revision'
    )
  })
})

describe('DiskFullError', () => {
  it('is what a write to a full device becomes, naming the repository when git names no path', async () => {
    // archive opens its output as it is (no lock file renamed over it), so the device survives.
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true)
    const dir = repo()
    const e = await failure(git(dir, ['archive', '-o', '/dev/full', 'HEAD']))
    expect(e).toBeInstanceOf(DiskFullError)
    expect((e as DiskFullError).path).toBeUndefined()
    expect(e.message).toBe(
      `the disk is full: git archive -o /dev/full HEAD could not write in ${dir} (fatal: write error: No space left on device); free disk space on the runner`
    )
  })

  // git 2.39's own words on a full tmpfs; its lock-file messages leave out why the write failed.
  const never = (): number => {
    throw new Error('free space asked for although git said why')
  }
  it.each([
    ['fatal: unable to write loose object file: No space left on device', never, {}],
    [
      "fatal: Unable to create '/w/.git/index.lock': No space left on device",
      never,
      { path: '/w/.git/index.lock' }
    ],
    [
      "fatal: update_ref failed for ref 'refs/heads/zz': cannot update ref 'refs/heads/zz': couldn't write '/w/.git/refs/heads/zz.lock'",
      () => 4096,
      { path: '/w/.git/refs/heads/zz.lock' }
    ],
    [
      'error: failed to write new configuration file /w/.git/config.lock',
      () => 0,
      { path: '/w/.git/config.lock' }
    ]
  ])('reads %j as a full disk', (stderr, free, expected) => {
    expect(diskFull(stderr, free)).toEqual(expected)
  })

  it('does not take a failed write on a disk with room, or another failure, for a full disk', () => {
    const lock =
      "fatal: cannot update ref 'refs/heads/zz': couldn't write '/w/.git/refs/heads/zz.lock'"
    expect(diskFull(lock, () => 50 * 1024 * 1024 * 1024)).toBeUndefined()
    expect(diskFull('fatal: Needed a single revision', () => 0)).toBeUndefined()
  })
})
