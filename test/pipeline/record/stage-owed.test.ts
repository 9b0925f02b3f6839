import { describe, expect, it } from '@jest/globals'
import {
  emptyRecord,
  type IssueRecord,
  type StageRecord
} from '../../../src/pipeline/record/record.js'
import { owedWake } from '../../../src/pipeline/record/stage-owed.js'
import { seedConfig } from '../pipeline-config.js'

const config = seedConfig()
const stage = (over: Partial<StageRecord> = {}): StageRecord => ({
  entry: 1,
  state: 'Todo',
  profile: 'researcher',
  kind: 'work',
  attempt: 0,
  round: 0,
  outcome: 'succeeded',
  reason: 'x',
  run: '10/1',
  startedAt: '2026-11-30T00:00:00.000Z',
  durationMs: 1,
  ...over
})
const owed = (state: string, record: IssueRecord | null) =>
  owedWake({ config, state, record, labels: [] })
// The record once the researcher's stage in Todo moved the issue on.
const moved: IssueRecord = {
  ...emptyRecord(),
  state: 'Researching',
  entry: 2,
  transitions: 1,
  stages: [stage()],
  owed: {
    run: '10/1',
    effects: [
      { kind: 'flag', flag: 'needs-attention', on: false },
      { kind: 'move', from: 'Todo', to: 'Researching' },
      { kind: 'wake', state: 'Researching', entry: 2 }
    ]
  }
}

// The record once the stage in Researching ran too (its job carried out what was owed).
const done: IssueRecord = {
  ...moved,
  owed: { run: '12/1', effects: [{ kind: 'flag', flag: 'needs-attention', on: false }] },
  stages: [...moved.stages, stage({ entry: 2, state: 'Researching', run: '12/1' })]
}

describe('owedWake', () => {
  it('starts the next entry of an issue a person moved without a stage starting', () => {
    expect(owed('Todo', null)).toEqual({
      wake: { state: 'Todo', entry: 1 },
      key: '1',
      why: 'no stage started on entering "Todo"',
      // Whoever moved it must be authorised before the wake-up goes out.
      entered: true
    })
    // Moved back to Todo after the Researching stage (whose job finished what was owed).
    expect(owed('todo', done)).toMatchObject({
      wake: { state: 'todo', entry: 3 },
      key: '3',
      entered: true
    })
  })

  it("starts an entry the pipeline's own move made while no stage ran in it", () => {
    expect(owed('Researching', moved)).toEqual({
      wake: { state: 'Researching', entry: 2 },
      key: '2',
      why: 'no stage ran for this entry'
    })
  })

  it('starts nothing for a paused issue, or an entry waiting for approval, until that ends', () => {
    const held = { ...moved }
    delete held.owed
    expect(
      owedWake({ config, state: 'Researching', record: held, labels: ['Itervox-Paused'] })
    ).toEqual({
      skip: 'is paused (label itervox-paused)'
    })
    const waiting = { ...held, approval: { state: 'Researching', entry: 2 } }
    expect(owed('Researching', waiting)).toEqual({ skip: 'a stage waits for approval' })
    // Approved, or waiting for an earlier entry: the stage is owed.
    const approved = { ...held, approval: { state: 'Researching', entry: 2, by: 'grace' } }
    expect(owed('Researching', approved)).toMatchObject({
      wake: { state: 'Researching', entry: 2 }
    })
    const earlier = { ...held, approval: { state: 'Researching', entry: 1 } }
    expect(owed('Researching', earlier)).toMatchObject({ wake: { state: 'Researching', entry: 2 } })
    expect(owed('Researching', held)).toMatchObject({ wake: { state: 'Researching', entry: 2 } })
  })

  it('starts nothing for an entry whose stage finished', () => {
    expect(owed('Researching', done)).toEqual({ skip: 'a stage finished for this entry' })
  })

  it('starts nothing in a state no automation starts, or for a stage that waits or stopped', () => {
    expect(owed('Done', moved)).toEqual({ skip: 'no automation starts in "Done"' })
    expect(owedWake({ config, state: null, record: null, labels: [] })).toEqual({
      skip: 'carries no state'
    })
    const waiting: IssueRecord = {
      ...moved,
      stages: [
        ...moved.stages,
        stage({ entry: 2, state: 'Researching', outcome: 'input_required' })
      ],
      waiting: {
        entry: 2,
        state: 'Researching',
        profile: 'implementer',
        kind: 'work',
        attempt: 0,
        timestamp: 't',
        question: 'q'
      }
    }
    expect(owed('Researching', waiting)).toEqual({ skip: 'a stage waits for an answer' })
    expect(owed('Researching', { ...moved, halted: 'the loop budget is spent' })).toEqual({
      skip: 'the pipeline stopped; a person decides what next'
    })
  })

  it('wakes the step the record asks for, once it has not run', () => {
    const retry: IssueRecord = {
      ...moved,
      stages: [...moved.stages, stage({ entry: 2, state: 'Researching', outcome: 'failed' })],
      continuation: {
        state: 'Researching',
        entry: 2,
        kind: 'work',
        profile: 'implementer',
        attempt: 1,
        round: 0,
        step: '11.1'
      }
    }
    expect(owed('Researching', retry)).toEqual({
      wake: { state: 'Researching', entry: 2, step: '11.1' },
      key: '2-s-11_1',
      why: 'attempt 1 by implementer is due'
    })
    const ran = {
      ...retry,
      stages: [...retry.stages, stage({ entry: 2, profile: 'implementer', attempt: 1 })]
    }
    expect(owed('Researching', ran)).toEqual({ skip: 'the step the record asks for ran' })
  })

  it("wakes the owed stage when a decision's move was never made or its effects failed", () => {
    // The job ended after writing its record: the issue is still in Todo.
    expect(owed('Todo', moved)).toEqual({
      wake: { state: 'Researching', entry: 2 },
      key: '2-o-10_1',
      why: 'owes what run 10/1 decided'
    })
    const failed: IssueRecord = {
      ...moved,
      state: 'Todo',
      entry: 1,
      owed: { run: '10/1', effects: [{ kind: 'comment', key: 'k', body: 'b' }] },
      halted: 'the next step (escalated) failed: 502',
      haltedOn: 'effects'
    }
    expect(owed('Todo', failed)).toMatchObject({
      wake: { state: 'Todo', entry: 1 },
      key: '1-o-10_1'
    })
  })
})
