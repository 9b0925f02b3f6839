import { describe, expect, it } from '@jest/globals'
import { UserError, UserErrors } from '../src/errors.js'

describe('UserError', () => {
  it('prints file:line:col: message on one line', () => {
    const e = new UserError('unknown key "trackr"; did you mean "tracker"?', {
      file: 'WORKFLOW.md',
      line: 3,
      col: 1
    })
    expect(e.format()).toBe('WORKFLOW.md:3:1: unknown key "trackr"; did you mean "tracker"?')
  })

  it('prints just the message without a location', () => {
    expect(new UserError('set LINEAR_API_KEY').format()).toBe('set LINEAR_API_KEY')
  })

  it('lists several mistakes one per line', () => {
    const all = new UserErrors([
      new UserError('a', { file: 'W.md', line: 1 }),
      new UserError('b', { file: 'W.md', line: 2, col: 4 })
    ])
    expect(all.format()).toBe('W.md:1: a\nW.md:2:4: b')
  })
})
