import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { cutUtf8, decodeUtf8, firstInvalidUtf8, utf8Length } from '../../src/handoff/utf8.js'

describe('decodeUtf8', () => {
  it('drops a UTF-8 BOM and refuses UTF-16 either way round', () => {
    expect(decodeUtf8(Buffer.from([0xef, 0xbb, 0xbf, 0x61]))).toEqual({ ok: true, text: 'a' })
    expect(decodeUtf8(Buffer.from([0xfe, 0xff, 0x00, 0x61]))).toEqual({
      ok: false,
      problem: 'is UTF-16 (byte-order mark FE FF), not UTF-8'
    })
  })

  it('names the first bad byte and never returns U+FFFD for bad input', () => {
    expect(decodeUtf8(Buffer.from('caf\xe9!', 'latin1'))).toEqual({
      ok: false,
      problem: 'is not valid UTF-8 (byte 0xE9 at offset 3)'
    })
    expect(decodeUtf8(Buffer.from([0xf4, 0x90, 0x80, 0x80]))).toEqual({
      ok: false,
      problem: 'is not valid UTF-8 (byte 0xF4 at offset 0)'
    })
  })

  it('agrees with the fatal decoder on any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const r = decodeUtf8(bytes)
        expect(r.ok).toBe(firstInvalidUtf8(bytes) === -1)
        if (r.ok)
          expect(r.text).toBe(
            Buffer.from(bytes)
              .toString('utf8')
              .replace(/^\uFEFF/, '')
          )
      }),
      { numRuns: 5000 }
    )
  })
})

describe('cutUtf8', () => {
  it('cuts between code points', () => {
    expect(cutUtf8('a€b', 3)).toBe('a')
    expect(cutUtf8('a€b', 4)).toBe('a€')
    expect(cutUtf8('🎉🎉', 7)).toBe('🎉')
    expect(cutUtf8('abc', 0)).toBe('')
  })

  it('gives the longest prefix that fits', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), fc.nat(120), (text, max) => {
        const cut = cutUtf8(text, max)
        expect(text.startsWith(cut)).toBe(true)
        expect(utf8Length(cut)).toBeLessThanOrEqual(max)
        if (cut !== text) {
          const next = String.fromCodePoint(text.codePointAt(cut.length) as number)
          expect(utf8Length(cut + next)).toBeGreaterThan(max)
        }
      })
    )
  })
})
