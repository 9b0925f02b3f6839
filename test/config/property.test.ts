import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { stringify } from 'yaml'
import { UserError } from '../../src/errors.js'
import { BASE, parse } from './helpers.js'

/** parseWorkflow either loads or throws a UserError whose lines all start with a location. */
function loadsOrExplains(text: string): void {
  let thrown: unknown
  try {
    parse(text, { env: { HOME: '/home/x', TOKEN: 't' } })
    return
  } catch (e) {
    thrown = e
  }
  expect(thrown).toBeInstanceOf(UserError)
  for (const line of (thrown as UserError).format().split('\n')) {
    expect(line).toMatch(/^WORKFLOW\.md:\d+:\d+: \S/)
    expect(line).not.toMatch(/^\s+at /)
  }
}

const text = fc.string({ unit: 'binary', maxLength: 400 })
const yamlish = fc
  .array(
    fc.constantFrom(
      '---',
      '- ',
      ': ',
      '  ',
      '\n',
      '\r\n',
      '[',
      ']',
      '{',
      '}',
      '&a ',
      '*a',
      '<<: ',
      '? ',
      '|',
      '>',
      '"',
      "'",
      '#',
      '!!str ',
      '!x ',
      '${',
      '$TOKEN',
      '$$',
      'tracker',
      'kind: ',
      'github',
      'agent',
      'profiles',
      'automations',
      'itervox_schema_version: 2',
      '__proto__',
      'constructor',
      '0',
      '1.5',
      '~'
    ),
    { maxLength: 80 }
  )
  .map((parts) => parts.join(''))

describe('parseWorkflow on any input', () => {
  it('never throws anything but a UserError for arbitrary text', () => {
    fc.assert(
      fc.property(text, (t) => loadsOrExplains(t)),
      { numRuns: 300 }
    )
  })

  it('never throws anything but a UserError for arbitrary front matter', () => {
    fc.assert(
      fc.property(fc.oneof(text, yamlish), text, (front, body) => {
        loadsOrExplains(`---\n${front}\n---\n${body}`)
        loadsOrExplains(`---\nitervox_schema_version: 2\n${front}\n---\n${body}`)
      }),
      { numRuns: 400 }
    )
  })

  it('never throws anything but a UserError for arbitrary YAML values in any section', () => {
    const key = fc.constantFrom(
      'tracker',
      'agent',
      'workspace',
      'automations',
      'handoff',
      'server',
      'profiles',
      'kind',
      'soul_file',
      'trigger',
      'states',
      'allowed_actions',
      '__proto__',
      'x'
    )
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 1 }),
        fc.dictionary(key, tie('node'), { maxKeys: 4 }),
        fc.array(tie('node'), { maxLength: 3 })
      )
    })).node
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 5 }), (settings) => {
        loadsOrExplains(`---\n${stringify({ itervox_schema_version: 2, ...settings })}---\nbody`)
      }),
      { numRuns: 300 }
    )
  })

  it('never throws anything but a UserError for damaged copies of a valid file', () => {
    const lines = BASE.split('\n')
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(lines.length), fc.nat(40), fc.string({ maxLength: 12 })), {
          minLength: 1,
          maxLength: 4
        }),
        (edits) => {
          const damaged = [...lines]
          for (const [row, col, insert] of edits) {
            const line = damaged[row % damaged.length]
            damaged[row % damaged.length] = line.slice(0, col) + insert + line.slice(col + 1)
          }
          loadsOrExplains(damaged.join('\n'))
        }
      ),
      { numRuns: 400 }
    )
  })
})
