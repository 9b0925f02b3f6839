// Which automation an event starts: the trigger's own occasion and filters, and the common
// filter conditions combined by match_mode.
import { describe, expect, it } from '@jest/globals'
import { parseWorkflow } from '../../../src/config/load.js'
import type { WorkflowConfig } from '../../../src/config/types.js'
import { emptyRecord, type IssueRecord } from '../../../src/pipeline/record/record.js'
import { automationFor } from '../../../src/pipeline/triggers/index.js'
import type { Issue } from '../../../src/pipeline/ports.js'

function config(automations: string): WorkflowConfig {
  const text = `---
itervox_schema_version: 2
tracker:
  kind: local
  active_states: [Todo, Doing]
  backlog_states: [Backlog]
agent:
  command: claude
  profiles:
    worker: { soul_file: S.md, instructions_file: I.md }
    helper: { soul_file: S.md, instructions_file: I.md }
automations:
  - id: work
    trigger: { type: issue_entered_state, state: Todo }
    profile: worker
${automations}
---
Body
`
  return parseWorkflow(text, { file: 'WORKFLOW.md', env: {}, readFile: () => 'text' }).config
}

const issue = (o: Partial<Issue> = {}): Issue =>
  ({
    id: '7',
    identifier: '#7',
    title: 'T',
    description: '',
    state: 'Todo',
    labels: ['Todo'],
    closed: false,
    isPullRequest: false,
    ...o
  }) as Issue

const comment = (body: string, id = 1) =>
  ({ type: 'tracker_comment_added', comment: id, body, author: 'ada' }) as const

function fire(
  c: WorkflowConfig,
  e: Parameters<typeof automationFor>[0],
  o: { issue?: Issue; record?: IssueRecord } = {}
) {
  return automationFor(e, {
    config: c,
    issue: o.issue ?? issue(),
    record: o.record ?? emptyRecord(),
    now: new Date('2026-01-01T12:00:00Z')
  })
}

const idOf = (f: ReturnType<typeof automationFor>) => ('skip' in f ? f.skip : f.automation.id)

describe('tracker_comment_added', () => {
  const c = config(`  - id: summarise
    trigger: { type: tracker_comment_added }
    profile: helper
    filter: { body_contains: ["Summarise"], body_regex: "please$", states: [Doing] }
  - id: any-comment
    trigger: { type: tracker_comment_added }
    profile: helper
`)

  it('takes the first automation whose filter admits the comment, named by its id', () => {
    const doing = issue({ state: 'Doing', labels: ['Doing'] })
    const f = fire(c, comment('summarise this please', 42), { issue: doing })
    expect(idOf(f)).toBe('summarise')
    expect(f).toMatchObject({ occasion: { state: 'Doing', key: 'comment-42' } })
    // Every body condition must hold, and the state too (match_mode all).
    expect(idOf(fire(c, comment('summarise this'), { issue: doing }))).toBe('any-comment')
    expect(idOf(fire(c, comment('summarise this please')))).toBe('any-comment')
  })

  it('starts nothing on a closed issue, or where no automation admits it', () => {
    expect(idOf(fire(c, comment('hi'), { issue: issue({ closed: true }) }))).toBe('#7 is closed')
    const only = config(`  - id: s
    trigger: { type: tracker_comment_added }
    profile: helper
    filter: { body_regex: "^/go" }
`)
    expect(idOf(fire(only, comment('go')))).toBe(
      "no tracker_comment_added automation's filter admits this event (s)"
    )
  })

  it('combines states, labels_any and identifier_regex by match_mode any', () => {
    const any = config(`  - id: s
    trigger: { type: tracker_comment_added }
    profile: helper
    filter: { match_mode: any, states: [Doing], labels_any: [urgent] }
`)
    expect(idOf(fire(any, comment('x'), { issue: issue({ labels: ['Todo', 'Urgent'] }) }))).toBe(
      's'
    )
    expect(idOf(fire(any, comment('x')))).toMatch(/^no tracker_comment_added/)
  })
})

describe('run_failed and input_required read the record', () => {
  const c = config(`  - id: triage
    trigger: { type: run_failed }
    profile: helper
  - id: answer
    trigger: { type: input_required }
    profile: helper
    filter: { input_context_regex: "(?i)which database", max_age_minutes: 30 }
`)
  const stage = {
    entry: 2,
    state: 'Todo',
    profile: 'worker',
    kind: 'work' as const,
    attempt: 1,
    round: 0,
    outcome: 'failed' as const,
    reason: 'exit 1',
    run: '9/1',
    startedAt: '2026-01-01T11:00:00Z',
    durationMs: 5
  }

  it('runs for the stage that failed last in the entry, and for nothing else', () => {
    const record = { ...emptyRecord(), entry: 3, state: "Won't Do", stages: [stage] }
    const f = fire(c, { type: 'run_failed', entry: 2 }, { record })
    expect(f).toMatchObject({
      automation: { id: 'triage' },
      occasion: { state: 'Todo', entry: 2, key: 'failed-2-work-1-0' }
    })
    expect(idOf(fire(c, { type: 'run_failed', entry: 1 }, { record }))).toBe(
      'no stage of entry 1 failed last'
    )
    const passed = { ...record, stages: [{ ...stage, outcome: 'succeeded' as const }] }
    expect(idOf(fire(c, { type: 'run_failed', entry: 2 }, { record: passed }))).toBe(
      'no stage of entry 2 failed last'
    )
  })

  it('answers a question that matches and is young enough', () => {
    const waiting = (question: string, timestamp: string) => ({
      ...emptyRecord(),
      entry: 2,
      state: 'Todo',
      waiting: {
        entry: 2,
        state: 'Todo',
        profile: 'worker',
        kind: 'work' as const,
        attempt: 0,
        timestamp,
        question
      }
    })
    const young = waiting('Which database should I use?', '2026-01-01T11-45-00.000Z')
    expect(idOf(fire(c, { type: 'input_required', entry: 2 }, { record: young }))).toBe('answer')
    const old = waiting('Which database should I use?', '2026-01-01T10-00-00.000Z')
    expect(idOf(fire(c, { type: 'input_required', entry: 2 }, { record: old }))).toMatch(
      /filter admits/
    )
    const other = waiting('What colour?', '2026-01-01T11-45-00.000Z')
    expect(idOf(fire(c, { type: 'input_required', entry: 2 }, { record: other }))).toMatch(
      /filter admits/
    )
  })
})
