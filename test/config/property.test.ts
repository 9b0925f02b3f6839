import { afterAll, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { loadWorkflowFile } from '../../src/config/load.js'
import { UserError } from '../../src/errors.js'
import { makeFifo } from '../helpers/fifo.js'
import { inputCounter, lacks, matches, resultOrUserError, same } from '../helpers/property.js'
import { BASE, FILES, parse } from './helpers.js'

const ran = inputCounter('WORKFLOW.md loader')

/** parseWorkflow either loads or throws a UserError whose lines all start with a location. */
function loadsOrExplains(text: string): void {
  ran()
  let thrown: unknown
  try {
    parse(text, { env: { HOME: '/home/x', TOKEN: 't' } })
    return
  } catch (e) {
    thrown = e
  }
  if (!(thrown instanceof UserError)) expect(thrown).toBeInstanceOf(UserError)
  for (const line of (thrown as UserError).format().split('\n')) {
    matches(line, /^WORKFLOW\.md:\d+:\d+: \S/)
    lacks(line, /^\s+at /)
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
            const line = damaged[row % damaged.length] ?? ''
            damaged[row % damaged.length] = line.slice(0, col) + insert + line.slice(col + 1)
          }
          loadsOrExplains(damaged.join('\n'))
        }
      ),
      { numRuns: 400 }
    )
  })
})

describe('loadWorkflowFile on any file on disk', () => {
  // Per input, WORKFLOW.md and one profile file are written from bytes or linked to one of
  // these; the specials sit inside the repository so that the profile file reaches them.
  const repo = mkdtempSync(join(tmpdir(), 'workflow-property-'))
  const special = join(repo, 'special')
  mkdirSync(join(repo, '.git'))
  mkdirSync(join(special, 'folder'), { recursive: true })
  const stopWatchdog = makeFifo(join(special, 'fifo'))
  writeFileSync(join(special, 'huge'), `${BASE}\n${'#'.repeat(1024 * 1024)}`)
  afterAll(() => {
    stopWatchdog()
    rmSync(repo, { recursive: true, force: true })
  })
  const SPECIALS = [
    join(special, 'fifo'),
    join(special, 'folder'),
    join(special, 'huge'),
    join(special, 'missing'),
    '/dev/zero',
    '/dev/null',
    '/dev/stdin'
  ]
  const content = fc.oneof(
    fc.constantFrom(...SPECIALS).map((target) => ({ target })),
    fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ bytes })),
    fc.string({ maxLength: 200 }).map((text) => ({ bytes: Buffer.from(BASE + text) }))
  )
  const place = (path: string, c: { target: string } | { bytes: Uint8Array }): void => {
    rmSync(path, { force: true })
    mkdirSync(join(path, '..'), { recursive: true })
    if ('target' in c) symlinkSync(c.target, path)
    else writeFileSync(path, c.bytes)
  }

  it('never throws anything but a UserError, and never waits or runs out of memory', () => {
    const profiles = Object.keys(FILES)
    for (const file of profiles) place(join(repo, file), { bytes: Buffer.from(FILES[file]!) })
    fc.assert(
      fc.property(content, fc.constantFrom(...profiles), content, (workflow, profile, file) => {
        ran()
        place(join(repo, 'WORKFLOW.md'), workflow)
        place(join(repo, profile), file)
        const out = resultOrUserError(() => loadWorkflowFile(join(repo, 'WORKFLOW.md'), {}))
        if (out instanceof UserError) {
          for (const line of out.format().split('\n')) same(line.startsWith(repo), true)
        }
        place(join(repo, profile), { bytes: Buffer.from(FILES[profile]!) })
      }),
      { numRuns: 200 }
    )
  })
})
