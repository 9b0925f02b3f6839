import { describe, expect, it } from '@jest/globals'
import { splitFrontMatter } from '../../src/config/front-matter.js'

describe('splitFrontMatter', () => {
  it('cuts at the first line that is exactly --- and trims the body', () => {
    const parts = splitFrontMatter('---\na: 1\n---\n\n\n  Hello\n\n')
    expect(parts).toEqual({
      frontMatter: 'a: 1',
      frontMatterLine: 2,
      unclosed: false,
      body: 'Hello',
      bodyLine: 6
    })
  })

  it('normalises CRLF before looking for fences', () => {
    const parts = splitFrontMatter('---\r\na: 1\r\n---\r\nBody\r\nmore\r\n')
    expect(parts).toEqual({
      frontMatter: 'a: 1',
      frontMatterLine: 2,
      unclosed: false,
      body: 'Body\nmore',
      bodyLine: 4
    })
  })

  it('takes everything as front matter when the closing fence is missing', () => {
    const parts = splitFrontMatter('---\na: 1\nb: 2\n')
    expect(parts.frontMatter).toBe('a: 1\nb: 2\n')
    expect(parts.unclosed).toBe(true)
    expect(parts.body).toBe('')
  })

  it('takes everything as body when line 1 is not exactly ---', () => {
    for (const text of ['--- \na: 1\n---\nx', 'a: 1\n---\nx', ' ---\nx']) {
      expect(splitFrontMatter(text).frontMatter).toBeNull()
    }
    expect(splitFrontMatter('\n\nHello').body).toBe('Hello')
    expect(splitFrontMatter('\n\nHello').bodyLine).toBe(3)
  })

  it('ignores fence-like lines that are not exactly ---', () => {
    const parts = splitFrontMatter('---\na: "---"\n----\n --- \n---\nbody')
    expect(parts.frontMatter).toBe('a: "---"\n----\n --- ')
    expect(parts.bodyLine).toBe(6)
  })

  it('drops a leading byte-order mark', () => {
    expect(splitFrontMatter('\uFEFF---\na: 1\n---\n').frontMatter).toBe('a: 1')
  })

  it('gives an empty front matter for two fences in a row', () => {
    expect(splitFrontMatter('---\n---\nx')).toEqual({
      frontMatter: '',
      frontMatterLine: 2,
      unclosed: false,
      body: 'x',
      bodyLine: 3
    })
  })
})
