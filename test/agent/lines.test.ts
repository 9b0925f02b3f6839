import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { LineSplitter } from '../../src/agent/lines.js'

function split(chunks: Buffer[], max?: number): string[] {
  const lines: string[] = []
  const s = new LineSplitter((l) => lines.push(l), max)
  for (const c of chunks) s.push(c)
  s.end()
  return lines
}

describe('LineSplitter', () => {
  it('gives the same lines however the bytes are chunked, UTF-8 included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (lines, cuts) => {
          const bytes = Buffer.from(lines.map((l) => l.replace(/[\r\n]/g, '') + '\n').join(''))
          const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
          const chunks: Buffer[] = []
          let from = 0
          for (const cut of at) {
            chunks.push(bytes.subarray(from, cut))
            from = cut
          }
          chunks.push(bytes.subarray(from))
          expect(split(chunks)).toEqual(split([bytes]))
          expect(split(chunks)).toEqual(lines.map((l) => l.replace(/[\r\n]/g, '')))
        }
      )
    )
  })

  it('ends lines at \\n and \\r\\n, and keeps a last line without a newline', () => {
    expect(split([Buffer.from('a\r\nb\n\nc')])).toEqual(['a', 'b', '', 'c'])
  })

  it('drops an over-long line up to its end and carries on', () => {
    expect(split([Buffer.from('x'.repeat(10)), Buffer.from('yy\nok\n')], 8)).toEqual(['ok'])
    expect(split([Buffer.from('short\n' + 'z'.repeat(20))], 8)).toEqual(['short'])
  })

  it('returns the decoded text of each chunk', () => {
    const s = new LineSplitter(() => {})
    const euro = Buffer.from('€')
    expect(s.push(euro.subarray(0, 1))).toBe('')
    expect(s.push(euro.subarray(1))).toBe('€')
  })
})
