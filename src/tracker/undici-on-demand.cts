import type * as Undici from 'undici'

// The bundles' `undici` (dist/undici/index.cjs): the names the bundled packages take from it,
// loading the real undici (dist/undici/undici.cjs) on first use. @actions/http-client imports
// undici at its top (actions/toolkit#1621), so every stage parsed and ran a third of its bundle
// for what only a runner behind a proxy uses. CommonJS, as both ESM imports and a require (in
// @actions/github's copy of http-client) load it; tsc and jest see the real package.
let real: typeof Undici | undefined

function undici(): typeof Undici {
  // A plain require, in the function: the file is read only when a proxy is used.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (real ??= require('./undici.cjs') as typeof Undici)
}

/** undici's ProxyAgent, made by undici itself (the object returned is undici's own). */
export class ProxyAgent {
  constructor(options: Undici.ProxyAgent.Options | string) {
    return new (undici().ProxyAgent)(options)
  }
}

export const fetch: typeof Undici.fetch = (input, init) => undici().fetch(input, init)
