import { describe, expect, it } from '@jest/globals'
import { interpolate } from '../../src/config/interpolate.js'

const env = { TOKEN: 'abc', EMPTY: '', PATH_PART: 'x/y' }

describe('interpolate', () => {
  it('replaces $VAR and ${VAR}', () => {
    expect(interpolate('$TOKEN', env).value).toBe('abc')
    expect(interpolate('${TOKEN}', env).value).toBe('abc')
    expect(interpolate('a-${TOKEN}-$PATH_PART/z', env)).toEqual({
      value: 'a-abc-x/y/z',
      missing: [],
      usedEnv: true,
      malformed: false
    })
  })

  it('takes the longest name after a bare $', () => {
    expect(interpolate('$TOKENS', env).missing).toEqual(['TOKENS'])
    expect(interpolate('${TOKEN}S', env).value).toBe('abcS')
  })

  it('reads $$ as a literal $ and leaves a $ before a non-name alone', () => {
    expect(interpolate('$$TOKEN costs $5 or $ or $', env)).toEqual({
      value: '$TOKEN costs $5 or $ or $',
      missing: [],
      usedEnv: false,
      malformed: false
    })
    expect(interpolate('$$$TOKEN', env).value).toBe('$abc')
  })

  it('lists unset and empty variables once each', () => {
    expect(interpolate('$NOPE ${EMPTY} $NOPE', env).missing).toEqual(['NOPE', 'EMPTY'])
  })

  it('flags a ${ that is not ${NAME}', () => {
    for (const text of ['${', '${TOKEN', '${1A}', '${A-B}', '${}']) {
      expect(interpolate(text, env).malformed).toBe(true)
    }
  })

  it('looks only at the environment itself, not Object.prototype', () => {
    expect(interpolate('$constructor $toString', {}).missing).toEqual(['constructor', 'toString'])
  })
})
