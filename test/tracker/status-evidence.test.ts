import { describe, expect, it } from '@jest/globals'
import { emptyRecord, parseRecord, type StageRecord } from '../../src/pipeline/record/record.js'
import { readRecordFromComment } from '../../src/tracker/comment-record.js'
import { renderStatusComment } from '../../src/tracker/status-comment.js'
import { seedConfig } from '../pipeline/pipeline-config.js'

const stage = (o: Partial<StageRecord>): StageRecord => ({
  entry: 1,
  state: 'Todo',
  profile: 'researcher',
  kind: 'work',
  attempt: 0,
  round: 0,
  outcome: 'succeeded',
  reason: 'exit code 0',
  run: '1/1',
  startedAt: '2026-03-01T10:00:00.000Z',
  durationMs: 1000,
  ...o
})

describe('recovery and verification in the status comment', () => {
  const record = {
    ...emptyRecord(),
    state: 'Todo',
    entry: 1,
    stages: [
      stage({
        outcome: 'failed',
        reason: 'verification failed: `npm test` exit code 1',
        verify: {
          passed: false,
          command: 'npm test',
          result: 'exit code 1',
          tail: 'FAIL\n```\n@ada'
        }
      }),
      stage({
        profile: 'implementer',
        attempt: 0,
        recovery: { kind: 'fallback', from: 'researcher' },
        verify: { passed: true, command: 'npm test', result: '1 command passed', tail: 'ok 12' }
      })
    ]
  }
  const body = renderStatusComment({ config: seedConfig(), record, issueRef: '#7', marker: 'm' })

  it('shows each recovery and verify result in the stage details, and the newest evidence', () => {
    expect(body).toContain('; recovery: fallback for researcher; verify passed: 1 command passed')
    expect(body).toContain('; verify failed: exit code 1')
    expect(body).toContain(
      '**Verification** (implementer, Todo): passed, npm test: 1 command passed'
    )
    expect(body).toContain('```text\nok 12\n```')
  })

  it('keeps the new fields in the record, and reads a record without them', () => {
    expect(readRecordFromComment(body)?.stages[1]).toMatchObject({
      recovery: { kind: 'fallback', from: 'researcher' },
      verify: { passed: true }
    })
    const old = { ...record, stages: [{ ...record.stages[0], verify: undefined }] }
    expect(parseRecord(JSON.parse(JSON.stringify(old)))?.stages[0]?.verify).toBeUndefined()
  })
})
