import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { UserError } from '../../src/errors.js'
import { makeFifo } from '../helpers/fifo.js'
import { parseLocalIssue, readLocalIssue, setLocalIssueState } from '../../src/tracker/local.js'

const ISSUE = `---
title: Add CSV export
state: Todo
priority: 2
labels: [feature, ui]
created: 2026-05-26T14:00:00Z
---

Users want to export the report as CSV.

## Comments

### 2026-05-26T14:30:45Z — alice

Please keep the column order.

### 2026-05-26T15:00:00Z — bob

+1
`

describe('local tracker', () => {
  it('parses itervox issue files', () => {
    const issue = parseLocalIssue(
      ISSUE.replace(/\n/g, '\r\n'),
      'DEMO-1',
      '.itervox/issues/DEMO-1.md'
    )
    expect(issue).toMatchObject({
      id: 'DEMO-1',
      identifier: 'DEMO-1',
      title: 'Add CSV export',
      state: 'Todo',
      labels: ['feature', 'ui'],
      description: 'Users want to export the report as CSV.'
    })
    expect(issue.comments).toEqual([
      { createdAt: '2026-05-26T14:30:45Z', author: 'alice', body: 'Please keep the column order.' },
      { createdAt: '2026-05-26T15:00:00Z', author: 'bob', body: '+1' }
    ])
  })

  it('refuses identifiers that could name another path', () => {
    for (const id of ['../x-1', 'a/b-1', 'DEMO-1/../../x', '']) {
      expect(() => readLocalIssue('/tmp', id)).toThrow(UserError)
    }
  })

  it('says how to create a missing issue', () => {
    const root = mkdtempSync(join(tmpdir(), 'local-'))
    expect(() => readLocalIssue(root, 'DEMO-9')).toThrow(
      'no local issue DEMO-9; create .itervox/issues/DEMO-9.md with title and state in its front matter'
    )
  })

  it('moves the state and keeps the rest of the file', () => {
    const root = mkdtempSync(join(tmpdir(), 'local-'))
    mkdirSync(join(root, '.itervox/issues'), { recursive: true })
    const file = join(root, '.itervox/issues/DEMO-1.md')
    writeFileSync(file, ISSUE)
    setLocalIssueState(root, 'DEMO-1', "Won't Do")
    const after = readFileSync(file, 'utf8')
    expect(readLocalIssue(root, 'DEMO-1').state).toBe("Won't Do")
    expect(after.replace(/^state: .*$/m, '').replace(/^updated: .*\n/m, '')).toBe(
      ISSUE.replace(/^state: .*$/m, '')
    )
  })

  it('reads and moves an issue file that starts with a byte-order mark', () => {
    const root = mkdtempSync(join(tmpdir(), 'local-'))
    mkdirSync(join(root, '.itervox/issues'), { recursive: true })
    const file = join(root, '.itervox/issues/DEMO-2.md')
    writeFileSync(file, `\uFEFF${ISSUE}`)
    expect(readLocalIssue(root, 'DEMO-2').state).toBe('Todo')
    setLocalIssueState(root, 'DEMO-2', 'Done')
    expect(readLocalIssue(root, 'DEMO-2').state).toBe('Done')
    expect(readFileSync(file, 'utf8').startsWith('\uFEFF---\n')).toBe(true)
  })

  describe('front matter a user can get wrong', () => {
    const FILE = '.itervox/issues/DEMO-1.md'
    const errorOf = (text: string): string => {
      try {
        parseLocalIssue(text, 'DEMO-1', FILE)
      } catch (e) {
        expect(e).toBeInstanceOf(UserError)
        return (e as UserError).format()
      }
      throw new Error('expected a UserError')
    }
    const nine = (alias: string) => `[${Array(9).fill(alias).join(', ')}]`

    it('reads aliases that expand to little', () => {
      const issue = parseLocalIssue('---\nt: &t Add CSV\ntitle: *t\n---\nBody', 'DEMO-1', FILE)
      expect(issue.title).toBe('Add CSV')
    })

    it('stops an alias bomb at its line', () => {
      const bomb = [
        '---',
        `a: &a ${nine('lol')}`,
        `b: &b ${nine('*a')}`,
        `c: &c ${nine('*b')}`,
        `d: &d ${nine('*c')}`,
        `e: &e ${nine('*d')}`,
        `f: ${nine('*e')}`,
        '---'
      ].join('\n')
      expect(errorOf(bomb)).toMatch(
        /^\.itervox\/issues\/DEMO-1\.md:\d+:\d+: invalid front matter: YAML: more than 100000 values \(through aliases\?\); simplify it$/
      )
    })

    it('refuses merge keys, alias cycles and deep nesting with the line', () => {
      expect(errorOf('---\nbase: &b {title: x}\n<<: *b\n---\n')).toBe(
        `${FILE}:3:1: invalid front matter: YAML merge keys ("<<") are not supported; write the keys out`
      )
      expect(errorOf('---\ntitle: ok\na: &a [*a]\n---\n')).toMatch(
        new RegExp(`^${FILE.replace(/\./g, '\\.')}:3:\\d+: invalid front matter: YAML: `)
      )
      expect(errorOf(`---\ntitle: ${'['.repeat(5000)}${']'.repeat(5000)}\n---\n`)).toBe(
        `${FILE}:2:71: invalid front matter: YAML: nested more than 64 levels deep; flatten it`
      )
    })

    it('says the front matter is missing, or never closed, at line 1', () => {
      expect(errorOf('title: Add CSV\nstate: Todo\n\nBody\n')).toBe(
        `${FILE}:1:1: the issue file has no front matter (line 1 is not exactly "---"); start it with a "---" line, then title: and state: lines, then a closing "---"`
      )
      expect(errorOf('---\ntitle: Add CSV\nstate: Todo\n\nUsers want: CSV: now\n')).toBe(
        `${FILE}:1:1: the front matter that starts here is never closed; add a "---" line after its last field, before the description`
      )
      // Read to the end it would load, but its state could not be moved.
      expect(errorOf('---\ntitle: Add CSV\nstate: Todo\n')).toMatch(
        /^\S+:1:1: the front matter that starts here is never closed;/
      )
    })

    it('gives each mistake the line it is on', () => {
      expect(errorOf('---\ntitle: Add CSV\n  state: Todo\n---\nBody\n')).toBe(
        `${FILE}:3:3: invalid front matter: YAML: indented deeper than the key above, which already has a value; line it up with that key`
      )
      expect(errorOf('---\n# the fields\n\n- title\n---\nBody\n')).toBe(
        `${FILE}:4:1: front matter must be a map of keys (title, state, labels, ...)`
      )
    })

    it('takes numbers and booleans as text', () => {
      const issue = parseLocalIssue(
        '---\ntitle: 2026\nstate: true\nlabels: [1, bug]\ncreated: 7\n---\n',
        'DEMO-1',
        FILE
      )
      expect(issue).toMatchObject({
        title: '2026',
        state: 'true',
        labels: ['1', 'bug'],
        createdAt: '7'
      })
    })

    it('names the field whose value is a list, a map or binary', () => {
      expect(errorOf('---\ntitle: [Add, CSV]\n---\n')).toBe(
        `${FILE}:2:8: title must be text, not a list; write it on one line`
      )
      expect(errorOf('---\ntitle: ok\nstate:\n  name: Todo\n---\n')).toBe(
        `${FILE}:4:3: state must be text, not a map; write it on one line`
      )
      expect(errorOf('---\ntitle: !!binary aGk=\n---\n')).toBe(
        `${FILE}:2:17: title must be text, not a tagged value; write it on one line`
      )
      expect(errorOf('---\nlabels: [bug, {ui: 1}]\n---\n')).toBe(
        `${FILE}:2:15: labels[1] must be text, not a map; e.g. labels: [bug, ui]`
      )
      expect(errorOf('---\nlabels: bug\n---\n')).toBe(
        `${FILE}:2:9: labels must be a list, not the text "bug"; e.g. labels: [bug, ui]`
      )
    })
  })

  describe('issue files that are not regular files', () => {
    const root = mkdtempSync(join(tmpdir(), 'local-'))
    const stopWatchdogs: (() => void)[] = []
    mkdirSync(join(root, '.itervox/issues'), { recursive: true })
    afterAll(() => {
      for (const stop of stopWatchdogs) stop()
      rmSync(root, { recursive: true, force: true })
    })

    it('refuses a FIFO, a device and a file over 4 MiB, each in one line', () => {
      stopWatchdogs.push(makeFifo(join(root, '.itervox/issues/DEMO-1.md')))
      symlinkSync('/dev/zero', join(root, '.itervox/issues/DEMO-2.md'))
      writeFileSync(join(root, '.itervox/issues/DEMO-3.md'), 'x'.repeat(4 * 1024 * 1024 + 1))
      const formatted = ['DEMO-1', 'DEMO-2', 'DEMO-3'].map((id) => {
        try {
          readLocalIssue(root, id)
        } catch (e) {
          expect(e).toBeInstanceOf(UserError)
          return (e as UserError).format()
        }
        return 'read'
      })
      expect(formatted).toEqual([
        '.itervox/issues/DEMO-1.md: a named pipe (FIFO), not a regular file; replace it with a regular file',
        '.itervox/issues/DEMO-2.md: a device, not a regular file; replace it with a regular file',
        '.itervox/issues/DEMO-3.md: larger than the 4 MiB this file may hold; make it smaller'
      ])
    })
  })
})
