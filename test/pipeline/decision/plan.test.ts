import { describe, expect, it } from '@jest/globals'
import { planStage, type PlanInput } from '../../../src/pipeline/decision/plan.js'
import {
  emptyRecord,
  type IssueRecord,
  type StageRecord
} from '../../../src/pipeline/record/record.js'
import { seedConfig } from '../pipeline-config.js'

const config = seedConfig()
const stage = (over: Partial<StageRecord>): StageRecord => ({
  entry: 1,
  state: 'Todo',
  profile: 'researcher',
  kind: 'work',
  attempt: 0,
  round: 0,
  outcome: 'failed',
  reason: 'x',
  run: '10/1',
  startedAt: '2026-11-30T00:00:00.000Z',
  durationMs: 1,
  ...over
})
const input = (
  record: IssueRecord,
  trigger: Partial<PlanInput['trigger']>,
  runId = '99'
): PlanInput => ({
  config,
  record,
  state: 'Todo',
  automation: config.automations[0]!,
  trigger: { source: 'label', actorIsBot: false, ...trigger },
  runId,
  chain: 'dispatch'
})

describe('planStage', () => {
  it("starts a new entry on a person's label", () => {
    expect(planStage(input(emptyRecord(), {}))).toMatchObject({
      entry: 1,
      newEntry: true,
      profile: 'researcher',
      attempt: 0
    })
  })

  it('takes a label added before the entry ran as that entry, and a later one as a new entry', () => {
    const ran: IssueRecord = {
      ...emptyRecord(),
      state: 'Todo',
      entry: 1,
      stages: [stage({ outcome: 'input_required', startedAt: '2026-11-30T00:00:05.000Z' })]
    }
    // GitHub writes whole seconds; the stage's start has milliseconds.
    for (const at of ['2026-11-30T00:00:04Z', '2026-11-30T00:00:05Z']) {
      expect(planStage(input(ran, { at }))).toEqual({
        skip: 'a stage already ran for this entry into "Todo" since that label was added'
      })
    }
    expect(planStage(input(ran, { at: '2026-11-30T00:00:06Z' }))).toMatchObject({
      entry: 2,
      newEntry: true
    })
    expect(planStage(input(ran, {}))).toMatchObject({ entry: 2, newEntry: true })
  })

  it("skips the pipeline's own label changes when it dispatches", () => {
    expect(planStage(input(emptyRecord(), { actorIsBot: true }))).toEqual({
      skip: "the pipeline's own label change; its next stage was dispatched"
    })
  })

  it("runs the record's continuation once per entry, attempt and round on a wake-up", () => {
    const c = {
      state: 'Todo',
      entry: 1,
      kind: 'work' as const,
      profile: 'researcher',
      attempt: 1,
      round: 0,
      step: '10.1'
    }
    const record: IssueRecord = {
      ...emptyRecord(),
      state: 'Todo',
      entry: 1,
      stages: [stage({})],
      continuation: c
    }
    const wake = { source: 'wake' as const, wake: { entry: 1, step: '10.1' } }
    expect(planStage(input(record, wake))).toMatchObject({ attempt: 1 })
    expect(planStage(input(record, { source: 'wake', wake: { entry: 1, step: '9.1' } }))).toEqual({
      skip: 'the wake-up\'s step already ran for this entry into "Todo"'
    })
    expect(
      planStage(input({ ...record, continuation: { ...c, attempt: 0 } }, wake))
    ).toHaveProperty('skip')
    expect(planStage(input(record, { source: 'wake', wake: { entry: 0 } }))).toEqual({
      skip: 'the wake-up was for an earlier entry into "Todo"'
    })
  })

  it('takes nothing but the entry from a wake-up: the step comes from the record', () => {
    const record: IssueRecord = { ...emptyRecord(), state: 'Todo', entry: 1, stages: [stage({})] }
    expect(planStage(input(record, { source: 'wake', wake: { entry: 1 } }))).toEqual({
      skip: 'a stage already ran for this entry into "Todo"'
    })
  })

  it("starts the entry after the record's on a wake-up for a state the record never saw entered", () => {
    // A person moved the issue to Todo and the label event started nothing: the reconcile wakes
    // the next entry.
    const record: IssueRecord = {
      ...emptyRecord(),
      state: 'Done',
      entry: 3,
      stages: [stage({ entry: 3, state: 'Done' })]
    }
    expect(planStage(input(record, { source: 'wake', wake: { entry: 4 } }))).toMatchObject({
      entry: 4,
      newEntry: true,
      kind: 'work',
      attempt: 0
    })
    expect(planStage(input(emptyRecord(), { source: 'wake', wake: { entry: 1 } }))).toMatchObject({
      entry: 1,
      newEntry: true
    })
    // Any other entry is no wake-up of ours for this state.
    for (const entry of [3, 5]) {
      expect(planStage(input(record, { source: 'wake', wake: { entry } }))).toEqual({
        skip: 'the wake-up was for an earlier entry into "Todo"'
      })
    }
  })

  it('a local run follows the continuation too', () => {
    const c = {
      state: 'Todo',
      entry: 1,
      kind: 'review' as const,
      profile: 'reviewer',
      attempt: 0,
      round: 0,
      reviewed: 'researcher'
    }
    const record: IssueRecord = {
      ...emptyRecord(),
      state: 'Todo',
      entry: 1,
      stages: [stage({ outcome: 'succeeded' })],
      continuation: c
    }
    expect(planStage(input(record, { source: 'cli' }))).toMatchObject({
      kind: 'review',
      reviewed: 'researcher'
    })
  })

  it('on a re-run of its own job: nothing after a success, a new attempt after a failure', () => {
    const ok: IssueRecord = {
      ...emptyRecord(),
      state: 'Todo',
      entry: 1,
      stages: [stage({ outcome: 'succeeded' })]
    }
    expect(planStage(input(ok, {}, '10'))).toHaveProperty('skip')
    const failed: IssueRecord = { ...ok, stages: [stage({})] }
    expect(planStage(input(failed, {}, '10'))).toMatchObject({
      entry: 1,
      newEntry: false,
      attempt: 1
    })
  })

  it('resumes a waiting stage on a reply, on the same handoff timestamp', () => {
    const record: IssueRecord = {
      ...emptyRecord(),
      state: 'Todo',
      entry: 1,
      stages: [stage({ outcome: 'input_required' })],
      waiting: {
        entry: 1,
        state: 'Todo',
        profile: 'researcher',
        kind: 'work',
        attempt: 0,
        timestamp: 'TS',
        question: 'q'
      }
    }
    const reply = { body: 'yes', author: 'ada' }
    expect(planStage(input(record, { source: 'comment', reply }))).toMatchObject({
      timestamp: 'TS',
      reply
    })
    expect(planStage(input(record, { source: 'comment', reply, actorIsBot: true }))).toHaveProperty(
      'skip'
    )
    expect(planStage(input(emptyRecord(), { source: 'comment', reply }))).toEqual({
      skip: 'no stage of this issue is waiting for input'
    })
  })

  it("carries the review round into the pipeline's own entries, and tells the stage sent back to", () => {
    const record: IssueRecord = {
      ...emptyRecord(),
      state: 'Todo',
      entry: 4,
      round: 2,
      sentBack: { entry: 4, by: 'reviewer' },
      stages: [stage({ entry: 3, state: 'Implementing', profile: 'reviewer' })]
    }
    expect(planStage(input(record, { source: 'wake', wake: { entry: 4 } }))).toMatchObject({
      entry: 4,
      newEntry: false,
      round: 2,
      sentBackBy: 'reviewer'
    })
    // A person's move is a new entry: the rounds start again.
    const person = planStage(input({ ...record, state: 'Reviewing' }, {}))
    expect(person).toMatchObject({ entry: 5, newEntry: true, round: 0 })
    expect(person).not.toHaveProperty('sentBackBy')
  })
})
