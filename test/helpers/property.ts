// For property tests over untrusted input: what may come out is a normal result or a UserError
// that reads as one line per mistake; anything else (a TypeError, a stack) fails the property.
// Each file counts its inputs and prints the total, so a run shows how much was tried.
import { afterAll, expect } from '@jest/globals'
import { UserError, UserErrors } from '../../src/errors.js'

/** Fails unless `thrown` is a UserError whose lines each say one thing, with no stack. */
function expectUserError(thrown: unknown): asserts thrown is UserError {
  if (!(thrown instanceof UserError)) throw thrown
  const lines = thrown.format().split('\n')
  if (!(thrown instanceof UserErrors)) expect(lines).toHaveLength(1)
  for (const line of lines) {
    expect(line.trim()).not.toBe('')
    expect(line).not.toMatch(/^\s+at /)
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
