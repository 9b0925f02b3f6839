import { describe, it } from '@jest/globals'
import fc from 'fast-check'
import { stringify } from 'yaml'
import { UserError } from '../../src/errors.js'
import { parseLocalIssue } from '../../src/tracker/local.js'
import { inputCounter, resultOrUserError, same } from '../helpers/property.js'

const FILE = '.itervox/issues/DEMO-1.md'
const ran = inputCounter('parseLocalIssue')

/** parseLocalIssue gives an issue of the declared types, or a UserError at the file. */
function parsesOrExplains(text: string): void {
  ran()
  const out = resultOrUserError(() => parseLocalIssue(text, 'DEMO-1', FILE))
  if (out instanceof UserError) {
    same(out.format().startsWith(`${FILE}`), true)
    return
  }
  same(typeof out.title, 'string')
  same(out.state === null || typeof out.state === 'string', true)
  same(
    out.labels.every((l) => typeof l === 'string'),
    true
  )
  for (const key of ['createdAt', 'updatedAt'] as const) {
    same(out[key] === undefined || typeof out[key] === 'string', true)
  }
  for (const c of out.comments) {
    same([typeof c.author, typeof c.body, typeof c.createdAt], ['string', 'string', 'string'])
  }
}

const bytes = fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b).toString('utf8'))
const text = fc.string({ unit: 'binary', maxLength: 300 })
const yamlish = fc
  .array(
    fc.constantFrom(
      'title: ',
      'state: ',
      'labels: ',
      'created: ',
      '\n',
      '\r\n',
      '  ',
      '- ',
      ': ',
      '[',
      ']',
      '{',
      '}',
      ', ',
      '&a ',
      '*a',
      '&b ',
      '*b',
      '<<: ',
      '? ',
      '|',
      '>',
      '"',
      "'",
      '#',
      '!!binary aGk=',
      '!!str ',
      '!!map ',
      '!x ',
      '...',
      '---',
      '__proto__',
      'Todo',
      '42',
      '1e400',
      'true',
      '~',
      '## Comments\n',
      '### 2026-05-26T14:30:45Z — alice\n'
    ),
    { maxLength: 60 }
  )
  .map((parts) => parts.join(''))

// Values of any shape under the keys the tracker reads; a shared value makes yaml write an
// anchor and aliases.
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 1 }),
    fc.dictionary(fc.constantFrom('title', 'a', '<<', '__proto__'), tie('node'), { maxKeys: 3 }),
    fc.array(tie('node'), { maxLength: 3 })
  )
})).node
const fields = fc.record(
  {
    title: value,
    state: value,
    labels: value,
    created: value,
    updated: value,
    priority: value
  },
  { requiredKeys: [] }
)

describe('parseLocalIssue on any input', () => {
  it('never throws anything but a UserError for arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.oneof(bytes, text), (t) => {
        parsesOrExplains(t)
        parsesOrExplains(`---\n${t}`)
      }),
      { numRuns: 300 }
    )
  })

  it('never throws anything but a UserError for arbitrary front matter', () => {
    fc.assert(
      fc.property(fc.oneof(yamlish, text), text, (front, body) => {
        parsesOrExplains(`---\n${front}\n---\n${body}`)
      }),
      { numRuns: 400 }
    )
  })

  it('never throws anything but a UserError for fields of any shape, aliased or not', () => {
    fc.assert(
      fc.property(fields, value, fc.boolean(), (meta, shared, alias) => {
        const doc = alias ? { ...meta, a: shared, title: shared, labels: [shared, shared] } : meta
        parsesOrExplains(`---\n${stringify(doc)}---\nBody\n`)
      }),
      { numRuns: 300 }
    )
  })
})
