import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { missingModules } from '../../scripts/missing-modules.mjs'

describe('missingModules', () => {
  it('names each import ncc left as a stub, once', () => {
    // What ncc wrote for a module whose import named a file that was not committed.
    const code = [
      '/***/ 3543:',
      '/***/ ((module) => {',
      'module.exports = eval("require")("./branch-name.js");',
      '// EXTERNAL MODULE: ./node_modules/@vercel/ncc/dist/ncc/@@notfound.js?./branch-name.js',
      'var _notfoundbranch_name = __nccwpck_require__(3543);',
      '// EXTERNAL MODULE: ./node_modules/@vercel/ncc/dist/ncc/@@notfound.js?left-pad',
      '// EXTERNAL MODULE: ./node_modules/@vercel/ncc/dist/ncc/@@notfound.js?./branch-name.js'
    ].join('\n')
    expect(missingModules(code)).toEqual(['./branch-name.js', 'left-pad'])
  })

  it('finds none in the bundles dist/ holds', () => {
    const dist = new URL('../../dist/', import.meta.url)
    const bundles = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.js')
    )
    expect(bundles).toEqual(expect.arrayContaining(['index.js', 'cli/index.js']))
    for (const f of bundles) {
      expect({ f, missing: missingModules(readFileSync(new URL(f, dist), 'utf8')) }).toEqual({
        f,
        missing: []
      })
    }
  })
})
