import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { asciiOnly } from '../../scripts/ascii-bundle.mjs'

const ROOT = join(import.meta.dirname, '..', '..')
const NON_ASCII = /[^\0-\x7f]/

describe('asciiOnly', () => {
  it('writes every character past ASCII as an escape that means the same', () => {
    const code = [
      "const café = 'déjà vu — “quoted” …'",
      'const tpl = `naïve ${café.length} 😀`',
      "const rx = 'Crème Brûlée ẞ'.replace(/[àáâèéêëû]/g, 'x')",
      // A pattern's source shows the escape, and a pattern made from it means the same.
      "const made = new RegExp(`^(?:${/[àáâ]+ß|ẞ/.source})$`, 'u').test('àáß')",
      "const u = /^\\p{L}+😀$/u.test('ÅÉ😀')",
      '// a comment — with “quotes”',
      ';[café, tpl, rx, u, made, [...tpl].length]'
    ].join('\n')
    const escaped = asciiOnly(code, 'sample.js')
    expect(NON_ASCII.test(escaped)).toBe(false)
    expect(runInNewContext(escaped)).toStrictEqual(runInNewContext(code))
  })

  it('refuses a tagged template whose raw text holds a character past ASCII', () => {
    const code = 'String.raw`é`'
    expect(runInNewContext(code)).not.toBe(runInNewContext(code.replace('é', '\\u00e9')))
    expect(() => asciiOnly(code, 'tagged.js')).toThrow(
      'tagged.js: a tagged template holds a character past ASCII at offset 10; it cannot be escaped'
    )
  })

  it.each([
    // A backslash, then é: in a string that is é; escaped, a backslash and "u00e9".
    ["'\\\u00e9'", 'a backslash before a character past ASCII at offset 1'],
    // The separator ends the comment, so 1 is the value; escaped, the comment would run on.
    ['// note\u2028 1', 'a line or paragraph separator at offset 7'],
    // A space between two tokens; escaped, it would be none.
    ['typeof\u00a0x', 'a space past ASCII at offset 6']
  ])('refuses %j, which the escape would change', (code, why) => {
    expect(() => asciiOnly(code, 'unsafe.js')).toThrow(`unsafe.js: ${why}; it cannot be escaped`)
  })
  it('leaves ASCII as it is', () => {
    const code = 'const s = String.raw`\\u00e9` // plain'
    expect(asciiOnly(code, 'plain.js')).toBe(code)
  })

  it.each([
    'main/index.js',
    'post/index.js',
    'steps/index.js',
    'cli/index.js',
    'undici/undici.cjs'
  ])('dist/%s is ASCII', (file) => {
    expect(NON_ASCII.test(readFileSync(join(ROOT, 'dist', file), 'utf8'))).toBe(false)
  })
})
