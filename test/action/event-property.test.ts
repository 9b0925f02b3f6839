import { afterAll, describe, it } from '@jest/globals'
import fc from 'fast-check'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readEvent, triggerFromEvent, type Trigger } from '../../src/action/event.js'
import { UserError } from '../../src/errors.js'
import { EVENT_NAME, makeEvent, type EventName } from '../harness/events.js'
import { inputCounter, lacks, resultOrUserError, same } from '../helpers/property.js'

const dir = mkdtempSync(join(tmpdir(), 'event-property-'))
const file = join(dir, 'event.json')
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const ran = inputCounter('readEvent + triggerFromEvent')

const EVENT_NAMES = [
  ...Object.values(EVENT_NAME),
  'pull_request_target',
  'push',
  '__proto__',
  'constructor'
]

const optional = (v: unknown, type: string) => v === undefined || typeof v === type

/** A trigger holds only the types it declares, whatever the payload held. */
function expectWellTyped(t: Trigger): void {
  if (t.kind === 'skip' || t.kind === 'deny') {
    same(typeof t.reason, 'string')
    lacks(t.reason, /[\r\n]/)
    return
  }
  // One spelling of an issue: a number, or a Linear key with its team in capitals.
  lacks(t.issue, /^(?![1-9][0-9]*$|[A-Z][A-Z0-9]*-[1-9][0-9]*$)/)
  same([typeof t.actor.login, typeof t.actor.type], ['string', 'string'])
  same(optional(t.label, 'string'), true)
  same(optional(t.state, 'string'), true)
  same(optional(t.defaultBranch, 'string'), true)
  if (t.pullRequest) {
    same(Number.isSafeInteger(t.pullRequest.number), true)
    same(typeof t.pullRequest.headRef, 'string')
  }
  if (t.reply) same([typeof t.reply.body, typeof t.reply.author], ['string', 'string'])
  if (t.wake) {
    same(Number.isSafeInteger(t.wake.entry), true)
    same(optional(t.wake.step, 'string'), true)
  }
}

/** The file read as an event, then mapped as every event name: a trigger or a UserError. */
function readsOrExplains(bytes: string | Uint8Array, overrides: { issue?: string } = {}): void {
  ran()
  writeFileSync(file, bytes)
  const payload = resultOrUserError(() => readEvent(file))
  if (payload instanceof UserError) {
    same(payload.format().startsWith(`${file}:`), true)
    return
  }
  for (const name of EVENT_NAMES) {
    // An issue a manual run or a dispatch names that is no issue is the one UserError.
    const t = resultOrUserError(() => triggerFromEvent(name, payload, overrides))
    if (t instanceof UserError) lacks(t.message, /[\r\n]/)
    else expectWellTyped(t)
  }
}

const json = fc.jsonValue({ maxDepth: 3 })
const odd = fc.oneof(
  json,
  fc.constantFrom(null, [], {}, '', 0, -1, 1.5, 2 ** 60, '7', ' ', 'labeled', 'itervox-handoff')
)

// The fields triggerFromEvent reads, and any other path (indexes into each level's keys).
const KNOWN_PATHS = [
  ['action'],
  ['label'],
  ['label', 'name'],
  ['issue'],
  ['issue', 'number'],
  ['sender'],
  ['sender', 'login'],
  ['sender', 'type'],
  ['repository'],
  ['repository', 'default_branch'],
  ['repository', 'full_name'],
  ['pull_request', 'number'],
  ['pull_request', 'head'],
  ['pull_request', 'head', 'ref'],
  ['pull_request', 'head', 'repo'],
  ['comment', 'body'],
  ['comment', 'user'],
  ['inputs'],
  ['inputs', 'issue'],
  ['client_payload'],
  ['client_payload', 'issue'],
  ['client_payload', 'entry']
]
const path = fc.oneof(
  fc.constantFrom(...KNOWN_PATHS),
  fc.array(fc.nat(), { minLength: 1, maxLength: 4 })
)

/**
 * Sets the value at `steps` (a key, or an index into that level's keys) to a copy of `value`:
 * `constantFrom`'s `{}` and `[]` are one instance across runs, and a later edit descending into
 * a shared one would make the payload circular.
 */
function mutate(payload: unknown, steps: (string | number)[], value: unknown): void {
  let node = payload as Record<string, unknown>
  for (const [i, step] of steps.entries()) {
    const keys = Object.keys(node)
    const key = typeof step === 'string' ? step : keys[step % Math.max(keys.length, 1)]
    if (key === undefined) return
    const next = node[key]
    if (i === steps.length - 1 || typeof next !== 'object' || next === null) {
      node[key] = structuredClone(value)
      return
    }
    node = next as Record<string, unknown>
  }
}

describe('readEvent + triggerFromEvent on any payload', () => {
  it('never throws anything but a UserError for arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.string({ maxLength: 200 })), (b) =>
        readsOrExplains(b)
      ),
      { numRuns: 300 }
    )
  })

  it('never throws anything but a UserError for arbitrary JSON', () => {
    fc.assert(
      fc.property(json, fc.option(fc.string(), { nil: undefined }), (v, issue) =>
        readsOrExplains(JSON.stringify(v) ?? 'null', { issue })
      ),
      { numRuns: 300 }
    )
  })

  it('never throws anything but a UserError for real payloads with fields of the wrong type', () => {
    const names = Object.keys(EVENT_NAME) as EventName[]
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        fc.array(fc.tuple(path, odd), {
          minLength: 1,
          maxLength: 4
        }),
        (name, edits) => {
          const payload = makeEvent(name, { issue: 7, label: 'go', comment: 'yes' })
          for (const [steps, value] of edits) mutate(payload, steps, value)
          readsOrExplains(JSON.stringify(payload))
        }
      ),
      { numRuns: 400 }
    )
  })
})
