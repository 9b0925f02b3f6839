import { describe, expect, it } from '@jest/globals'
import { closest, didYouMean, editDistance } from '../../src/config/did-you-mean.js'

describe('editDistance', () => {
  it('counts inserts, deletes, substitutions and adjacent swaps as one edit each', () => {
    expect(editDistance('tracker', 'tracker')).toBe(0)
    expect(editDistance('trackr', 'tracker')).toBe(1)
    expect(editDistance('trackerr', 'tracker')).toBe(1)
    expect(editDistance('tracket', 'tracker')).toBe(1)
    expect(editDistance('mvoe_state', 'move_state')).toBe(1)
    expect(editDistance('', 'abc')).toBe(3)
    expect(editDistance('kitten', 'sitting')).toBe(3)
  })
})

describe('closest', () => {
  const keys = ['tracker', 'workspace', 'agent', 'automations']

  it('suggests the nearest candidate, ignoring case', () => {
    expect(closest('trackr', keys)).toBe('tracker')
    expect(closest('AGENT', keys)).toBe('agent')
    expect(closest('automation', keys)).toBe('automations')
  })

  it('suggests nothing when nothing is close', () => {
    expect(closest('polling', keys)).toBeUndefined()
    expect(closest('x', keys)).toBeUndefined()
    expect(closest('anything', [])).toBeUndefined()
  })

  it('allows fewer edits for short words', () => {
    expect(closest('ab', ['abc'])).toBe('abc')
    expect(closest('ab', ['abcd'])).toBeUndefined()
  })
})

describe('didYouMean', () => {
  it('phrases the suggestion or says nothing', () => {
    expect(didYouMean('coment', ['comment', 'merge_pr'])).toBe('; did you mean "comment"?')
    expect(didYouMean('zzz', ['comment'])).toBe('')
  })
})
