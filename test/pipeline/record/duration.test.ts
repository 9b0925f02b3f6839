import { describe, expect, it } from '@jest/globals'
import { formatDuration } from '../../../src/pipeline/record/duration.js'

describe('formatDuration', () => {
  it('reads in seconds, minutes, then hours', () => {
    expect([0, 1234, 59_400, 60_000, 242_000, 3_725_000].map((ms) => formatDuration(ms))).toEqual([
      '0s',
      '1s',
      '59s',
      '1m 0s',
      '4m 2s',
      '1h 2m'
    ])
  })

  it('shows tenths under a minute for a live clock', () => {
    expect([0, 1234, 59_949, 60_000].map((ms) => formatDuration(ms, { tenths: true }))).toEqual([
      '0.0s',
      '1.2s',
      '59.9s',
      '1m 0s'
    ])
  })

  it('is empty for what is not a duration', () => {
    expect([-5, Number.NaN, Infinity].map((ms) => formatDuration(ms))).toEqual(['', '', ''])
  })
})
