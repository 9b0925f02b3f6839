/** missing-modules.mjs, for the tests' type-check. */
export function missingModules(code: string): string[]
