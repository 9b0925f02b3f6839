// The CLI from source (not dist/), given files that are not what they should be: each run
// ends at once with exit 1 and one line that says what to change. One run per command goes
// through the bundle; the rest run in-process (a FIFO's watchdog unblocks a read there too).
import { afterAll, describe, expect, it } from '@jest/globals'
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { makeFifo } from '../helpers/fifo.js'
import { cliFromSource, repoWith, ROOT } from './helpers.js'
import { cliInProcess } from './in-process.js'

const SEED = join(ROOT, 'test', 'fixtures', 'workflows', 'seed')
const KEY = { LINEAR_API_KEY: 'lin_test' }
const stopWatchdogs: (() => void)[] = []

// The seed WORKFLOW.md's warnings come first.
function lastLine(stderr: string): string | undefined {
  return stderr.trimEnd().split('\n').at(-1)
}

function withFifo(repo: string, path: string): void {
  rmSync(join(repo, path), { force: true })
  stopWatchdogs.push(makeFifo(join(repo, path)))
}

afterAll(() => {
  for (const stop of stopWatchdogs) stop()
})

describe('the CLI on files that are not what they should be', () => {
  it('validate refuses a WORKFLOW.md that is a FIFO', async () => {
    const repo = repoWith({})
    withFifo(repo, 'WORKFLOW.md')
    const r = await cliFromSource(repo, ['validate'])
    expect(r).toMatchObject({
      code: 1,
      stderr:
        'WORKFLOW.md: a named pipe (FIFO), not a regular file; replace it with a regular file\n'
    })
  })

  it('validate refuses a WORKFLOW.md that links to /dev/zero', async () => {
    const repo = repoWith({})
    symlinkSync('/dev/zero', join(repo, 'WORKFLOW.md'))
    const r = await cliInProcess(repo, ['validate'])
    expect(r).toMatchObject({
      code: 1,
      stderr: 'WORKFLOW.md: a device, not a regular file; replace it with a regular file\n'
    })
  })

  it('init keeps a FIFO WORKFLOW.md but refuses to read it, and --force refuses to write it', async () => {
    const repo = repoWith({})
    withFifo(repo, 'WORKFLOW.md')
    const kept = await cliInProcess(repo, ['init'])
    expect(kept.code).toBe(1)
    expect(kept.stderr).toBe(
      'WORKFLOW.md: a named pipe (FIFO), not a regular file; replace it with a regular file\n'
    )
    const forced = await cliFromSource(repo, ['init', '--force'])
    expect(forced).toMatchObject({
      code: 1,
      stderr: 'WORKFLOW.md is not a regular file; remove it, then run init again\n'
    })
  })

  it('init refuses a .gitignore over 1 MiB', async () => {
    const repo = repoWith({})
    writeFileSync(join(repo, '.gitignore'), `.itervox/\n${'#'.repeat(1024 * 1024)}\n`)
    const r = await cliInProcess(repo, ['init'])
    expect(r.code).toBe(1)
    expect(r.stderr).toBe('.gitignore: larger than the 1 MiB this file may hold; make it smaller\n')
  })

  it('prompt takes a number as an issue title, and names a title that is a list', async () => {
    const repo = repoWith({
      '.itervox/issues/ENG-1.md': '---\ntitle: 2026\nstate: 7\nlabels: [1]\n---\nBody\n',
      '.itervox/issues/ENG-2.md': '---\ntitle: [Add, CSV]\nstate: Todo\n---\nBody\n'
    })
    cpSync(SEED, repo, { recursive: true })
    const good = await cliInProcess(
      repo,
      ['prompt', '--profile', 'researcher', '--issue', 'ENG-1'],
      KEY
    )
    expect(good).toMatchObject({ code: 0, stdout: expect.stringContaining('issue ENG-1: 2026.') })
    const bad = await cliFromSource(
      repo,
      ['prompt', '--profile', 'researcher', '--issue', 'ENG-2'],
      KEY
    )
    expect(bad.code).toBe(1)
    expect(lastLine(bad.stderr)).toBe(
      '.itervox/issues/ENG-2.md:2:8: title must be text, not a list; write it on one line'
    )
  })

  it('run refuses an issue file that is a FIFO', async () => {
    const repo = repoWith({})
    cpSync(SEED, repo, { recursive: true })
    mkdirSync(join(repo, '.itervox/issues'), { recursive: true })
    withFifo(repo, '.itervox/issues/ENG-3.md')
    const r = await cliFromSource(repo, ['run', '--issue', 'ENG-3'], KEY)
    expect(r.code).toBe(1)
    expect(lastLine(r.stderr)).toBe(
      '.itervox/issues/ENG-3.md: a named pipe (FIFO), not a regular file; replace it with a regular file'
    )
  })
})
