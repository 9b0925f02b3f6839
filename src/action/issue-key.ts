// The one spelling of the issue a manual run or a dispatch names, taken where the input or the
// payload is read: `#42`, ` 42` and `42` are issue 42, `eng-7` is ENG-7. Everything after reads
// this key alone, as the workflow's concurrency group does (init declares the manual run's
// `issue` input a number, so GitHub hands the group 42 too).
import { UserError } from '../errors.js'
import { clip, oneLine } from '../pipeline/untrusted-text.js'
import { LINEAR_KEY } from '../tracker/linear-key.js'

const GITHUB_NUMBER = /^#?\s*([1-9][0-9]{0,9})$/

/** The issue's canonical key: a GitHub issue number, or a Linear key with its team in capitals. */
export function issueKey(given: string | number): string {
  const text = String(given).trim()
  const number = GITHUB_NUMBER.exec(text)
  if (number) return number[1]!
  const linear = LINEAR_KEY.exec(text)
  if (linear) return `${linear[1]!.toUpperCase()}-${linear[2]!}`
  throw new UserError(
    `issue "${clip(oneLine(text), 60)}" is not an issue number or a Linear issue key; pass e.g. issue: 42 or issue: ENG-123`
  )
}
