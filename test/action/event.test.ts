import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readEvent, triggerFromEvent } from '../../src/action/event.js'
import { UserError } from '../../src/errors.js'
import { makeFifo } from '../helpers/fifo.js'
import { makeEvent } from '../harness/events.js'

const FIX = 'GITHUB_EVENT_PATH must name the event file the runner wrote'
const dir = mkdtempSync(join(tmpdir(), 'event-'))
const stopWatchdogs: (() => void)[] = []
afterAll(() => {
  for (const stop of stopWatchdogs) stop()
  rmSync(dir, { recursive: true, force: true })
})

let files = 0
function eventFile(text: string): string {
  const path = join(dir, `event-${files++}.json`)
  writeFileSync(path, text)
  return path
}

function readError(path: string): string {
  try {
    readEvent(path)
  } catch (e) {
    expect(e).toBeInstanceOf(UserError)
    return (e as UserError).format()
  }
  throw new Error('expected a UserError')
}

describe('readEvent', () => {
  it('refuses a payload that is not JSON, in one line without the text itself', () => {
    const path = eventFile('{"action": "labeled",\n"issue": }')
    expect(readError(path)).toBe(
      `${path}: the event payload is not JSON (Unexpected token '}'); ${FIX}`
    )
    const control = eventFile('{\n  "action": "\u0001"}')
    expect(readError(control)).toBe(
      `${control}:2:14: the event payload is not JSON (Bad control character in string literal); ${FIX}`
    )
    const empty = eventFile('')
    expect(readError(empty)).toBe(
      `${empty}: the event payload is not JSON (Unexpected end of JSON input); ${FIX}`
    )
  })

  it('refuses JSON that is not an object', () => {
    const cases: [string, string][] = [
      ['null', 'null'],
      ['[{"action": "labeled"}]', 'a list'],
      ['42', 'a number'],
      ['"labeled"', 'a string'],
      ['true', 'a boolean']
    ]
    for (const [text, what] of cases) {
      const path = eventFile(text)
      expect(readError(path)).toBe(
        `${path}: the event payload is ${what}, not a JSON object; ${FIX}`
      )
    }
  })

  it('refuses a FIFO, a missing file and a payload over 32 MiB', () => {
    const fifo = join(dir, 'fifo.json')
    stopWatchdogs.push(makeFifo(fifo))
    expect(readError(fifo)).toBe(
      `${fifo}: cannot use the event payload (a named pipe (FIFO), not a regular file); ${FIX}`
    )
    const missing = join(dir, 'missing.json')
    expect(readError(missing)).toBe(
      `${missing}: cannot use the event payload (no such file); ${FIX}`
    )
    const huge = eventFile(`{"action": "${'x'.repeat(32 * 1024 * 1024)}"}`)
    expect(readError(huge)).toBe(
      `${huge}: cannot use the event payload (larger than the 32 MiB this file may hold); ${FIX}`
    )
  })

  it('reads a real payload', () => {
    const path = eventFile(JSON.stringify(makeEvent('issues.labeled', { issue: 7, label: 'go' })))
    expect(triggerFromEvent('issues', readEvent(path), {})).toMatchObject({
      kind: 'run',
      issue: '7',
      label: 'go'
    })
  })
})

describe('triggerFromEvent on fields of the wrong type', () => {
  const labeled = (change: (p: Record<string, unknown>) => void) => {
    const p = makeEvent('issues.labeled', { issue: 7, label: 'go' })
    change(p)
    return triggerFromEvent('issues', JSON.parse(JSON.stringify(p)), {})
  }

  it('skips a label event whose label name or issue number is not what GitHub sends', () => {
    expect(labeled((p) => (p.label = { name: 5 }))).toEqual({
      kind: 'skip',
      reason: 'the labeled event carries no label'
    })
    expect(labeled((p) => (p.label = 'go'))).toMatchObject({ kind: 'skip' })
    for (const number of ['7', 7.5, -1, null, [7], 2 ** 60]) {
      expect(labeled((p) => ((p.issue as Record<string, unknown>).number = number))).toEqual({
        kind: 'skip',
        reason: 'the issues event carries no issue number'
      })
    }
  })

  it('reads a null or mistyped sender and repository as absent', () => {
    expect(labeled((p) => (p.sender = null))).toMatchObject({
      kind: 'run',
      actor: { login: '', type: 'User' }
    })
    expect(labeled((p) => (p.sender = { login: 5, type: ['Bot'] }))).toMatchObject({
      actor: { login: '', type: 'User' }
    })
    const run = labeled((p) => (p.repository = { default_branch: 5 }))
    expect(run).toMatchObject({ kind: 'run' })
    expect(run).not.toHaveProperty('defaultBranch', 5)
  })

  it('quotes a mistyped or hostile action on one short line', () => {
    expect(labeled((p) => (p.action = 5))).toEqual({
      kind: 'skip',
      reason: 'issues event (with no action) does not start a stage; only "labeled" does'
    })
    const hostile = labeled((p) => (p.action = `opened\n::error::x${'y'.repeat(500)}`))
    expect(hostile).toMatchObject({ kind: 'skip' })
    const reason = (hostile as { reason: string }).reason
    expect(reason).not.toContain('\n')
    expect(reason.length).toBeLessThan(140)
  })

  it('skips pull request and comment events with mistyped parts', () => {
    const pr = makeEvent('pull_request.labeled', { issue: 3, label: 'go' })
    ;(pr.pull_request as Record<string, unknown>).head = null
    expect(triggerFromEvent('pull_request', pr, {})).toEqual({
      kind: 'skip',
      reason: 'the pull_request event carries no pull request'
    })
    const comment = makeEvent('issue_comment.created', { issue: 3, comment: 'yes' })
    ;(comment.comment as Record<string, unknown>).body = { text: 'yes' }
    expect(triggerFromEvent('issue_comment', comment, {})).toEqual({
      kind: 'skip',
      reason: 'the comment event carries no issue or text'
    })
    ;(comment.comment as Record<string, unknown>).body = 'yes'
    ;(comment.comment as Record<string, unknown>).user = 'alice'
    expect(triggerFromEvent('issue_comment', comment, {})).toMatchObject({
      kind: 'run',
      reply: { body: 'yes', author: 'octocat' }
    })
  })

  it('reads mistyped dispatch inputs and client payloads as absent', () => {
    expect(triggerFromEvent('workflow_dispatch', { inputs: 'issue=4' }, {})).toMatchObject({
      kind: 'skip'
    })
    const dispatch = makeEvent('repository_dispatch', { issue: 4 })
    dispatch.client_payload = [{ issue: 4, entry: 1 }]
    const t = triggerFromEvent('repository_dispatch', dispatch, { issue: '4' })
    expect(t).toMatchObject({ kind: 'run', issue: '4' })
    expect(t).not.toHaveProperty('wake')
  })

  it('reads the issue a manual run or a dispatch names in one spelling, and refuses a non-issue in one line', () => {
    // The workflow's concurrency group and every later step see this one key.
    for (const given of ['#42', ' 42', '42 ', '# 42', 42]) {
      expect(triggerFromEvent('workflow_dispatch', { inputs: { issue: given } }, {})).toMatchObject(
        { kind: 'run', issue: '42' }
      )
      const wake = makeEvent('repository_dispatch', { issue: 4 })
      wake.client_payload = { issue: given, entry: 1 }
      expect(triggerFromEvent('repository_dispatch', wake, {})).toMatchObject({ issue: '42' })
    }
    expect(triggerFromEvent('workflow_dispatch', {}, { issue: 'eng-7' })).toMatchObject({
      issue: 'ENG-7'
    })
    for (const given of ['42abc', '#', '0', '-3', '4.2', '7; rm', '##42']) {
      expect(() => triggerFromEvent('workflow_dispatch', {}, { issue: given })).toThrow(
        new UserError(
          `issue "${given}" is not an issue number or a Linear issue key; pass e.g. issue: 42 or issue: ENG-123`
        )
      )
    }
  })
})

describe('the stop switch taken off', () => {
  const unlabeled = (name: string) =>
    triggerFromEvent(
      'issues',
      {
        action: 'unlabeled',
        label: { name },
        issue: { number: 7 },
        sender: { login: 'ada', type: 'User' }
      },
      {}
    )

  it('resumes the issue when itervox-paused is removed, and nothing else that is removed', () => {
    expect(unlabeled('itervox-paused')).toMatchObject({ kind: 'run', issue: '7', resume: true })
    expect(unlabeled('Todo')).toMatchObject({ kind: 'skip' })
  })
})

describe('a pull request reopened', () => {
  const reopened = (o: Parameters<typeof makeEvent>[1]) =>
    triggerFromEvent('pull_request', makeEvent('pull_request.reopened', o), {})

  it("resumes the issue whose pipeline the pull request is, in the reopener's name", () => {
    expect(reopened({ issue: 9, head: 'itervox/7', sender: 'ada' })).toMatchObject({
      kind: 'run',
      issue: '7',
      resume: true,
      actor: { login: 'ada' }
    })
  })

  it("skips a pull request that is no issue's pipeline, or whose head is in a fork", () => {
    expect(reopened({ issue: 9, head: 'feature/x' })).toMatchObject({ kind: 'skip' })
    expect(reopened({ issue: 9, head: 'itervox/7', headRepo: 'mallory/demo' })).toMatchObject({
      kind: 'skip'
    })
  })
})
