/** ascii-bundle.mjs, for the tests' type-check. */
export function asciiOnly(code: string, file: string): string
