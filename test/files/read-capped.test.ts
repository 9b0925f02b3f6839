import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { FileRefused, readCappedFile, readCappedText } from '../../src/files/read-capped.js'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const READ_STDIN = `
import { readCappedText } from './src/files/read-capped.ts'
try { readCappedText(process.argv[1], 1024) } catch (e) { process.stdout.write(e.reason) }
`

function refusal(read: () => unknown): FileRefused {
  try {
    read()
  } catch (e) {
    expect(e).toBeInstanceOf(FileRefused)
    return e as FileRefused
  }
  throw new Error('expected the read to be refused')
}

describe('readCappedFile', () => {
  let dir: string

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'read-capped-'))
    writeFileSync(join(dir, 'ok.md'), 'héllo\n')
    execFileSync('mkfifo', [join(dir, 'fifo')])
    mkdirSync(join(dir, 'folder'))
    symlinkSync('/dev/zero', join(dir, 'zero'))
    symlinkSync('/dev/stdin', join(dir, 'stdin'))
    symlinkSync(join(dir, 'loop'), join(dir, 'loop'))
  })

  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('reads a regular file up to the cap', () => {
    expect(readCappedText(join(dir, 'ok.md'), 7)).toBe('héllo\n')
    expect(readCappedFile(join(dir, 'ok.md'), 7)).toHaveLength(7)
  })

  it('refuses a file one byte over the cap', () => {
    const e = refusal(() => readCappedText(join(dir, 'ok.md'), 6, 'ok.md'))
    expect(e.reason).toBe('too-large')
    expect(e.format()).toBe('ok.md: larger than the 6 bytes this file may hold; make it smaller')
  })

  it('refuses a FIFO at once instead of waiting for a writer', () => {
    const e = refusal(() => readCappedText(join(dir, 'fifo'), 1024, 'WORKFLOW.md'))
    expect(e.reason).toBe('not-a-file')
    expect(e.format()).toBe(
      'WORKFLOW.md: a named pipe (FIFO), not a regular file; replace it with a regular file'
    )
  })

  it('refuses directories and devices, also behind symlinks', () => {
    expect(refusal(() => readCappedText(join(dir, 'folder'), 1024)).message).toBe(
      'a directory, not a regular file; replace it with a regular file'
    )
    expect(refusal(() => readCappedText(join(dir, 'zero'), 1024)).message).toBe(
      'a device, not a regular file; replace it with a regular file'
    )
  })

  it('refuses /dev/stdin when it is a pipe no one writes to, without waiting', async () => {
    // A child whose stdin stays open and empty: a blocking read would never return.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', READ_STDIN, join(dir, 'stdin')],
      { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] }
    )
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    const code = await new Promise((done) => child.on('exit', done))
    child.stdin.destroy()
    expect({ code, out }).toEqual({ code: 0, out: 'not-a-file' })
  })

  it('says what is wrong with a missing file and a symlink loop', () => {
    const missing = refusal(() => readCappedText(join(dir, 'nope/x.md'), 10, 'x.md'))
    expect(missing.reason).toBe('missing')
    expect(missing.format()).toBe('x.md: no such file; check the path')
    const loop = refusal(() => readCappedText(join(dir, 'loop'), 10, 'loop'))
    expect(loop.format()).toBe(
      'loop: cannot be read (ELOOP); its symlinks form a loop; fix the link'
    )
  })
})
