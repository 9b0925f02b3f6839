import type * as Undici from 'undici'

// What the bundles are given for `undici` (dist/undici/index.cjs): the two names the bundled
// packages import from it, which load the real undici (dist/undici/undici.cjs) on first use.
//
// @actions/core imports @actions/http-client, which imports undici's ProxyAgent at its top
// (actions/toolkit#1621): a third of the bundle, parsed and run by every stage (about 70 ms of
// CPU) for a class only a runner behind a proxy needs. @actions/github's fetch, the other
// importer, is used behind a proxy only too (tracker/github-client.ts). tsc and jest see the
// real package; only the bundler swaps this file in, so it is CommonJS: the bundles' ESM
// imports and @actions/github's own copy of http-client, which requires undici, both load it.
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
