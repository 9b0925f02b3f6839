import { describe, expect, it } from '@jest/globals'
import { firstLine, keepEnd, keepStart, safeName } from '../../src/agent/text.js'

describe('text helpers', () => {
  it('caps from the start or the end without splitting a surrogate pair', () => {
    expect(keepStart('abcdef', 10)).toBe('abcdef')
    expect(keepStart('abcdef', 4)).toBe('abc…')
    expect(keepStart('ab😀cd', 4)).toBe('ab…')
    expect(keepEnd('abcdef', 4)).toBe('…def')
    expect(keepEnd('ab😀cd', 4)).toBe('…cd')
  })

  it('makes a one-line reason from the first non-empty line', () => {
    expect(firstLine('\n\n  boom  \nmore')).toBe('boom')
    expect(firstLine('x'.repeat(300)).length).toBe(200)
    expect(firstLine('')).toBe('')
  })

  it('keeps only name characters of event fields', () => {
    expect(safeName('mcp__github__create_issue')).toBe('mcp__github__create_issue')
    expect(safeName('::set-output name=x::y\n')).toBe('set-outputnamexy')
    expect(safeName(42)).toBe('')
  })
})
