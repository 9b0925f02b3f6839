import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
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
    for (const bundle of ['main', 'post', 'steps', 'cli']) {
      const code = readFileSync(new URL(`../../dist/${bundle}/index.js`, import.meta.url), 'utf8')
      expect(missingModules(code)).toEqual([])
    }
  })
})
