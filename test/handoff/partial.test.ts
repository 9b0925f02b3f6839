// Marking a failed run's deliverable partial, in a real worktree directory.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import {
  link,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  symlink,
  writeFile
} from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { markPartial, type PartialInfo } from '../../src/handoff/partial.js'

const TS = '2026-05-26T14-58-12.345Z'
const OWN = `.itervox/handoff/${TS}_implementer.md`
const PARTIAL = `.itervox/handoff/${TS}_implementer.partial.md`
const INFO: PartialInfo = {
  profile: 'implementer',
  outcome: 'stalled',
  detail: 'no output for 600 s',
  at: new Date('2026-05-26T15:08:12.345Z')
}

let root: string
let outside: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'partial-repo-'))
  outside = await mkdtemp(join(tmpdir(), 'partial-outside-'))
  await mkdir(join(root, '.itervox/handoff'), { recursive: true })
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
  await rm(outside, { recursive: true, force: true })
})

const put = (rel: string, text: string) => writeFile(join(root, rel), text)
const read = (rel: string) => readFile(join(root, rel), 'utf8')
const list = async () => (await readdir(join(root, '.itervox/handoff'))).sort()

function mkfifo(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn('mkfifo', [path])
    p.on('error', reject)
    p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`mkfifo exit ${code}`))))
  })
}

const WRITTEN_NOTE = (problem: string) =>
  [
    '# Partial handoff: implementer (stalled)',
    '',
    `The implementer agent exited before completing its deliverable (outcome: \`stalled\`) and left nothing usable: ${problem}.`,
    '',
    '- profile: `implementer`',
    '- outcome: `stalled`',
    '- detail: no output for 600 s',
    '- time: 2026-05-26T15:08:12.345Z',
    '',
    `handoff-action wrote this note in place of \`${TS}_implementer.md\`. Start from the earlier handoffs and the branch as it is.`,
    ''
  ].join('\n')

describe('markPartial', () => {
  it('renames exactly the run’s file, keeping its bytes', async () => {
    await put(OWN, '# Work so far\n\nHalf of it.\n')
    const r = await markPartial(root, OWN, INFO)
    expect(r).toEqual({ path: PARTIAL, how: 'renamed', warnings: [] })
    expect(await read(PARTIAL)).toBe('# Work so far\n\nHalf of it.\n')
    expect(await list()).toEqual([`${TS}_implementer.partial.md`])
  })

  it('never touches a file that merely ends with the same suffix, or another profile’s', async () => {
    await put(`.itervox/handoff/${TS}_a_b.md`, 'profile a_b')
    await put(`.itervox/handoff/2026-05-26T14-00-00.000Z_b.md`, 'an older run of b')
    await put(`.itervox/handoff/${TS}_researcher.md`, 'researcher')
    const own = `.itervox/handoff/${TS}_b.md`
    const r = await markPartial(root, own, { ...INFO, profile: 'b' })
    expect(r.how).toBe('written')
    expect(r.path).toBe(`.itervox/handoff/${TS}_b.partial.md`)
    expect(await list()).toEqual([
      '2026-05-26T14-00-00.000Z_b.md',
      `${TS}_a_b.md`,
      `${TS}_b.partial.md`,
      `${TS}_researcher.md`
    ])
    expect(await read(`.itervox/handoff/${TS}_a_b.md`)).toBe('profile a_b')
  })

  it('refuses a path that is not this profile’s run file', async () => {
    await expect(
      markPartial(root, `.itervox/handoff/${TS}_a_b.md`, { ...INFO, profile: 'b' })
    ).rejects.toThrow(/not profile b's file/)
    await expect(markPartial(root, PARTIAL, INFO)).rejects.toThrow(/not a run's handoff path/)
    await expect(markPartial(root, `other/${TS}_implementer.md`, INFO)).rejects.toThrow(
      /not a run's handoff path/
    )
  })

  it('writes a partial in its own words when the agent left nothing', async () => {
    const r = await markPartial(root, OWN, INFO)
    expect(r).toEqual({ path: PARTIAL, how: 'written', warnings: [] })
    expect(await read(PARTIAL)).toBe(WRITTEN_NOTE(`no deliverable was written at ${OWN}`))
  })

  it('writes one when the agent left only whitespace, keeping the detail to one clean line', async () => {
    await put(OWN, ' \n\n')
    const r = await markPartial(root, OWN, {
      ...INFO,
      detail: 'line one\nline two\u202E <!-- hidden -->'
    })
    expect(r.how).toBe('written')
    const text = await read(PARTIAL)
    expect(text).toContain(`left nothing usable: ${OWN} is empty.`)
    expect(text).toContain('- detail: line one line two\n')
  })

  it('cuts a long detail between code points', async () => {
    await markPartial(root, OWN, { ...INFO, detail: '🎉'.repeat(400) })
    expect(await read(PARTIAL)).toContain(`- detail: ${'🎉'.repeat(300)}…\n`)
  })

  it('does not follow a symlinked deliverable: removes the link, leaves its target alone', async () => {
    await writeFile(join(outside, 'secret'), 'TOKEN=abc')
    await symlink(join(outside, 'secret'), join(root, OWN))
    const r = await markPartial(root, OWN, INFO)
    expect(r.how).toBe('written')
    expect(r.warnings).toEqual([`removed ${OWN}: it was a symbolic link, not followed`])
    const text = await read(PARTIAL)
    expect(text).not.toContain('TOKEN')
    expect(text).toContain(`${OWN} is a symbolic link, not a regular file`)
    expect(await readFile(join(outside, 'secret'), 'utf8')).toBe('TOKEN=abc')
    expect(await list()).toEqual([`${TS}_implementer.partial.md`])
  })

  it('does not read through a symlinked handoff directory, and makes it a real one', async () => {
    await rm(join(root, '.itervox/handoff'), { recursive: true })
    await writeFile(join(outside, `${TS}_implementer.md`), 'TOKEN=abc')
    await symlink(outside, join(root, '.itervox/handoff'))
    const r = await markPartial(root, OWN, INFO)
    expect(r.how).toBe('written')
    expect(r.warnings).toEqual([
      'removed .itervox/handoff: it was a symbolic link, not a directory'
    ])
    expect((await lstat(join(root, '.itervox/handoff'))).isDirectory()).toBe(true)
    expect(await read(PARTIAL)).toContain('.itervox/handoff is a symbolic link, so')
    expect(await readdir(outside)).toEqual([`${TS}_implementer.md`])
    expect(await readFile(join(outside, `${TS}_implementer.md`), 'utf8')).toBe('TOKEN=abc')
  })

  it('does not rename a hard link to another file', async () => {
    await writeFile(join(outside, 'credentials'), 'TOKEN=abc')
    await link(join(outside, 'credentials'), join(root, OWN))
    const r = await markPartial(root, OWN, INFO)
    expect(r.how).toBe('written')
    expect(await read(PARTIAL)).toContain(`${OWN} has 2 hard links`)
  })

  it('does not hang on a FIFO and removes it', async () => {
    await mkfifo(join(root, OWN))
    const r = await markPartial(root, OWN, INFO)
    expect(r.how).toBe('written')
    expect(r.warnings).toEqual([`removed ${OWN}: it was a FIFO, not followed`])
    expect(await list()).toEqual([`${TS}_implementer.partial.md`])
  })

  it('writes one for a deliverable over the cap, leaving the big file unread in place', async () => {
    await put(OWN, 'x'.repeat(100))
    const big = await markPartial(root, OWN, INFO, { maxBytes: 50 })
    expect(big.how).toBe('written')
    expect(await read(PARTIAL)).toContain(`${OWN} is 100 bytes, over the 50-byte cap`)
    expect(await read(OWN)).toBe('x'.repeat(100))
  })

  it('writes one for a deliverable that is not UTF-8', async () => {
    await writeFile(join(root, OWN), Buffer.from([0x68, 0x69, 0xff]))
    const r = await markPartial(root, OWN, INFO)
    expect(r.how).toBe('written')
    expect(await read(PARTIAL)).toContain(`${OWN} is not valid UTF-8 (byte 0xFF at offset 2)`)
  })

  it('keeps an existing partial rather than overwriting it, and says so', async () => {
    await put(OWN, 'new work')
    await put(PARTIAL, 'earlier partial')
    const r = await markPartial(root, OWN, INFO)
    expect(r).toEqual({
      path: PARTIAL,
      how: 'kept',
      warnings: [`${PARTIAL} already exists; kept it and left ${OWN} in place`]
    })
    expect(await read(PARTIAL)).toBe('earlier partial')
    expect(await read(OWN)).toBe('new work')
  })

  it('is idempotent: a second call finds the partial and keeps it quietly', async () => {
    await put(OWN, 'work')
    await markPartial(root, OWN, INFO)
    const again = await markPartial(root, OWN, INFO)
    expect(again).toEqual({ path: PARTIAL, how: 'kept', warnings: [] })
    expect(await read(PARTIAL)).toBe('work')
  })

  it('replaces junk at the partial’s name (a hard link to a secret) instead of keeping it', async () => {
    await writeFile(join(outside, 'credentials'), 'TOKEN=abc')
    await link(join(outside, 'credentials'), join(root, PARTIAL))
    await put(OWN, 'real work')
    const r = await markPartial(root, OWN, INFO)
    expect(r.how).toBe('renamed')
    expect(r.warnings).toEqual([
      `removed ${PARTIAL}, which was not usable: ${PARTIAL} has 2 hard links; a deliverable must be a file of its own`
    ])
    expect(await read(PARTIAL)).toBe('real work')
    expect(await readFile(join(outside, 'credentials'), 'utf8')).toBe('TOKEN=abc')
  })

  it('creates the handoff directory when the agent removed it', async () => {
    await rm(join(root, '.itervox'), { recursive: true })
    const r = await markPartial(root, OWN, INFO)
    expect(r.how).toBe('written')
    expect(await read(PARTIAL)).toBe(WRITTEN_NOTE(`no deliverable was written at ${OWN}`))
  })
})
