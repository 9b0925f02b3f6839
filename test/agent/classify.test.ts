import { describe, expect, it } from '@jest/globals'
import { classify } from '../../src/agent/classify.js'

const clean = { exitCode: 0, signal: null, findings: { stats: {} } }

describe('classify', () => {
  it('puts our own reasons to end a run before what the process did', () => {
    const killed = { exitCode: null, signal: 'SIGTERM', findings: { stats: {}, error: 'x' } }
    expect(classify({ ...killed, cause: { kind: 'stalled', silentMs: 300_000 } })).toEqual({
      outcome: 'stalled',
      reason: 'no output and no busy CPU for 300 s'
    })
    expect(classify({ ...killed, cause: { kind: 'timed_out', deadlineMs: 1500 } })).toEqual({
      outcome: 'timed_out',
      reason: 'deadline of 1.5 s reached'
    })
    expect(classify({ ...killed, cause: { kind: 'cancelled', why: 'job cancelled' } })).toEqual({
      outcome: 'cancelled',
      reason: 'cancelled: job cancelled'
    })
    expect(classify({ ...clean, cause: { kind: 'spawn_failed', error: 'nope' } })).toEqual({
      outcome: 'failed',
      reason: 'nope'
    })
  })

  it('fails on a non-zero exit, a signal, or an error result', () => {
    expect(classify({ ...clean, exitCode: 1 })).toEqual({
      outcome: 'failed',
      reason: 'exit code 1'
    })
    expect(classify({ ...clean, exitCode: null, signal: 'SIGSEGV' })).toEqual({
      outcome: 'failed',
      reason: 'killed by signal SIGSEGV'
    })
    expect(classify({ ...clean, findings: { stats: {}, error: 'API error 529' } })).toEqual({
      outcome: 'failed',
      reason: 'API error 529'
    })
  })

  it('is rate_limited when a failed run reported a rate limit, and only then', () => {
    const limited = { stats: {}, rateLimited: true }
    expect(classify({ ...clean, exitCode: 1, findings: limited }).outcome).toBe('rate_limited')
    expect(classify({ ...clean, findings: limited }).outcome).toBe('succeeded')
  })

  it('asks for input only after a clean end', () => {
    const asked = { stats: {}, needsInput: { question: 'Q?' } }
    expect(classify({ ...clean, findings: asked }).outcome).toBe('input_required')
    expect(classify({ ...clean, exitCode: 2, findings: asked }).outcome).toBe('failed')
    expect(classify(clean)).toEqual({ outcome: 'succeeded', reason: 'exit code 0' })
  })
})
