// For property tests over untrusted input: what may come out is a normal result or a UserError
// that reads as one line per mistake; anything else (a TypeError, a stack) fails the property.
// Each file counts its inputs and prints the total, so a run shows how much was tried.
import { isDeepStrictEqual } from 'node:util'
import { afterAll, expect } from '@jest/globals'
import { UserError, UserErrors } from '../../src/errors.js'

// A call of jest's expect costs tens of microseconds and a property makes thousands of them
// (most of some files' time), so these check plainly and call expect only to report a failure,
// with expect's own message.

/** `expect(actual).toEqual(expected)`. */
export function same(actual: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual).toEqual(expected)
}

/** `expect(text).toMatch(re)`. */
export function matches(text: string, re: RegExp): void {
  if (!new RegExp(re).test(text)) expect(text).toMatch(re)
}

/** `expect(text).not.toMatch(re)`. */
export function lacks(text: string, re: RegExp): void {
  if (new RegExp(re).test(text)) expect(text).not.toMatch(re)
}

/** `expect(n).toBeLessThanOrEqual(max)`. */
export function atMost(n: number, max: number): void {
  if (!(n <= max)) expect(n).toBeLessThanOrEqual(max)
}

/** Fails unless `thrown` is a UserError whose lines each say one thing, with no stack. */
function expectUserError(thrown: unknown): asserts thrown is UserError {
  if (!(thrown instanceof UserError)) throw thrown
  const lines = thrown.format().split('\n')
  if (!(thrown instanceof UserErrors) && lines.length !== 1) expect(lines).toHaveLength(1)
  for (const line of lines) {
    if (line.trim() === '') expect(line.trim()).not.toBe('')
    lacks(line, /^\s+at /)
  }
}

/** `fn()`'s result, or the UserError it threw; any other throw fails the test. */
export function resultOrUserError<T>(fn: () => T): T | UserError {
  try {
    return fn()
  } catch (e) {
    expectUserError(e)
    return e
  }
}

export async function resultOrUserErrorAsync<T>(fn: () => Promise<T>): Promise<T | UserError> {
  try {
    return await fn()
  } catch (e) {
    expectUserError(e)
    return e
  }
}

/** Counts inputs under `name`; the file prints the totals when its tests are done. */
export function inputCounter(name: string): () => void {
  let count = 0
  afterAll(() => {
    process.stdout.write(`${name}: ${count} inputs run\n`)
  })
  return () => {
    count++
  }
}
