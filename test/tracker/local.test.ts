import { describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { UserError } from '../../src/errors.js'
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
})
