// Jest's TypeScript transform: esbuild strips the types of one file at a time, as ts-jest did
// with isolatedModules, at a fraction of its cost (the types are checked by tsc).
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { transformSync, version } from 'esbuild'

const tsconfigRaw = readFileSync(new URL('../tsconfig.json', import.meta.url), 'utf8')

export default {
  canInstrument: false,
  getCacheKey(source, path, options) {
    return createHash('sha256')
      .update(`${version}\0${tsconfigRaw}\0${options.supportsStaticESM}\0${path}\0${source}`)
      .digest('hex')
  },
  process(source, path, options) {
    const { code, map } = transformSync(source, {
      loader: 'ts',
      format: options.supportsStaticESM ? 'esm' : 'cjs',
      target: 'node20',
      sourcefile: path,
      sourcemap: 'external',
      sourcesContent: false,
      tsconfigRaw
    })
    return { code, map }
  }
}
