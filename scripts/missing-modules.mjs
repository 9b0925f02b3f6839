// ncc bundles an import it cannot resolve as a stub that throws when the code runs
// (`@vercel/ncc/dist/ncc/@@notfound.js?<request>`), and the build would succeed: a module
// missing from a commit would reach dist/ as a crash in a user's job. The build refuses it.

/** The requests of `code` that ncc could not resolve, each once. */
export function missingModules(code) {
  return [...new Set([...code.matchAll(/@@notfound\.js\?([^\s'"`)]+)/g)].map((m) => m[1]))]
}
