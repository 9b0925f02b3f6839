// The checks on an agent's new deliverable (security.md 17, 21, 22), on real files.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { link, mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  checkDeliverable,
  headingTitles,
  withoutFrontMatter
} from '../../src/handoff/deliverable.js'

const OWN = '.itervox/handoff/2026-05-26T14-58-12.345Z_implementer.md'
const CAP = { maxBytes: 1024 * 1024 }

let root: string
let outside: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'deliverable-repo-'))
  outside = await mkdtemp(join(tmpdir(), 'deliverable-outside-'))
  await mkdir(join(root, '.itervox/handoff'), { recursive: true })
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
  await rm(outside, { recursive: true, force: true })
})
const put = (text: string | Buffer) => writeFile(join(root, OWN), text)

describe('checkDeliverable', () => {
  it('accepts a Markdown file and returns its text, BOM dropped', async () => {
    await put(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('# Done\n\nAll good.\n')])
    )
    expect(await checkDeliverable(root, OWN, CAP)).toEqual({
      ok: true,
      text: '# Done\n\nAll good.\n'
    })
  })

  it('says so when nothing was written', async () => {
    expect(await checkDeliverable(root, OWN, CAP)).toEqual({
      ok: false,
      problem: `no deliverable was written at ${OWN}`
    })
  })

  it.each([
    ['empty', '', `${OWN} is empty`],
    ['whitespace only', ' \n\t\n', `${OWN} is empty`],
    [
      'front matter only',
      '---\nmove_state: Done\n---\n\n',
      `${OWN} has front matter but no content`
    ]
  ])('rejects a deliverable that is %s', async (_what, text, problem) => {
    await put(text)
    expect(await checkDeliverable(root, OWN, CAP)).toEqual({ ok: false, problem })
  })

  it('rejects a symlink, even to a good file', async () => {
    await writeFile(join(outside, 'good.md'), '# Done\n')
    await symlink(join(outside, 'good.md'), join(root, OWN))
    expect(await checkDeliverable(root, OWN, CAP)).toEqual({
      ok: false,
      problem: `${OWN} is a symbolic link, not a regular file`
    })
  })

  it('does not read through a symlinked directory on the path', async () => {
    await rm(join(root, '.itervox'), { recursive: true })
    await mkdir(join(outside, 'handoff'))
    await writeFile(join(outside, 'handoff', OWN.split('/').pop() as string), '# Done\n')
    await symlink(outside, join(root, '.itervox'))
    expect(await checkDeliverable(root, OWN, CAP)).toEqual({
      ok: false,
      problem: `.itervox is a symbolic link, so ${OWN} was not read through it`
    })
  })

  it('rejects a hard link (for example to a credentials file)', async () => {
    await writeFile(join(outside, 'credentials'), 'TOKEN=abc')
    await link(join(outside, 'credentials'), join(root, OWN))
    expect(await checkDeliverable(root, OWN, CAP)).toEqual({
      ok: false,
      problem: `${OWN} has 2 hard links; a deliverable must be a file of its own`
    })
  })

  it('rejects a directory and a FIFO without blocking', async () => {
    await mkdir(join(root, OWN))
    expect(await checkDeliverable(root, OWN, CAP)).toEqual({
      ok: false,
      problem: `${OWN} is a directory, not a regular file`
    })
    await rm(join(root, OWN), { recursive: true })
    await new Promise<void>((resolve, reject) => {
      const p = spawn('mkfifo', [join(root, OWN)])
      p.on('error', reject)
      p.on('close', () => resolve())
    })
    expect(await checkDeliverable(root, OWN, CAP)).toEqual({
      ok: false,
      problem: `${OWN} is a FIFO, not a regular file`
    })
  })

  it('rejects a 2 GB (sparse) file by its size, without reading it', async () => {
    await put('')
    await truncate(join(root, OWN), 2 * 1024 ** 3)
    expect(await checkDeliverable(root, OWN, CAP)).toEqual({
      ok: false,
      problem: `${OWN} is 2147483648 bytes, over the 1048576-byte cap`
    })
  })

  it('accepts exactly the cap and rejects one byte more', async () => {
    await put('a'.repeat(100))
    expect((await checkDeliverable(root, OWN, { maxBytes: 100 })).ok).toBe(true)
    expect(await checkDeliverable(root, OWN, { maxBytes: 99 })).toEqual({
      ok: false,
      problem: `${OWN} is 100 bytes, over the 99-byte cap`
    })
  })

  it.each([
    [
      'stray bytes',
      Buffer.from([0x61, 0x62, 0xc3, 0x28]),
      'is not valid UTF-8 (byte 0xC3 at offset 2)'
    ],
    [
      'UTF-16 with BOM',
      Buffer.from([0xff, 0xfe, 0x61, 0x00]),
      'is UTF-16 (byte-order mark FF FE), not UTF-8'
    ],
    [
      'an overlong encoding',
      Buffer.from([0x61, 0xc0, 0xaf]),
      'is not valid UTF-8 (byte 0xC0 at offset 1)'
    ],
    ['a surrogate', Buffer.from([0xed, 0xa0, 0x80]), 'is not valid UTF-8 (byte 0xED at offset 0)']
  ])('rejects %s', async (_what, bytes, problem) => {
    await put(bytes)
    expect(await checkDeliverable(root, OWN, CAP)).toEqual({
      ok: false,
      problem: `${OWN} ${problem}`
    })
  })

  it('rejects NUL bytes', async () => {
    await put('# Done\n\0')
    expect(await checkDeliverable(root, OWN, CAP)).toEqual({
      ok: false,
      problem: `${OWN} contains NUL bytes; a deliverable is text`
    })
  })

  it('requires every section as a heading of any level, case-insensitive, ignoring front matter', async () => {
    await put(
      [
        '---',
        'verdict: PASS',
        '# Risks',
        '---',
        '# summary',
        '',
        '### Tests Run ###',
        '',
        '```md',
        '## Risks',
        '```'
      ].join('\n')
    )
    const required = {
      ...CAP,
      requiredSections: ['Summary', '  tests   run ', 'Risks', 'Next steps']
    }
    expect(await checkDeliverable(root, OWN, required)).toEqual({
      ok: false,
      problem: `${OWN} is missing the required sections "Risks", "Next steps" (a Markdown heading of any level)`
    })
    const one = { ...CAP, requiredSections: ['Summary', 'Risks'] }
    expect(await checkDeliverable(root, OWN, one)).toEqual({
      ok: false,
      problem: `${OWN} is missing the required section "Risks" (a Markdown heading of any level)`
    })
    const met = await checkDeliverable(root, OWN, {
      ...CAP,
      requiredSections: ['SUMMARY', 'tests run']
    })
    expect(met.ok).toBe(true)
  })
})

describe('Markdown helpers', () => {
  it('finds ATX and setext headings outside code fences', () => {
    const md = [
      '# One',
      '####### not a heading',
      '#hashtag',
      '    # indented code',
      '## Two ##',
      'Three',
      '=====',
      'Four',
      '---',
      '~~~',
      '# fenced',
      '~~~',
      '###### Six'
    ].join('\n')
    expect(headingTitles(md)).toEqual(['One', 'Two', 'Three', 'Four', 'Six'])
  })

  it('strips only a closed front matter block at the very top', () => {
    expect(withoutFrontMatter('---\na: 1\n---\nbody')).toBe('body')
    expect(withoutFrontMatter('---\r\na: 1\r\n---\r\nbody')).toBe('body')
    expect(withoutFrontMatter('---\nnever closed')).toBe('---\nnever closed')
    expect(withoutFrontMatter('text\n---\na\n---\n')).toBe('text\n---\na\n---\n')
  })
})
