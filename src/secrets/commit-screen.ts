import { Buffer } from 'node:buffer'
import type { Screened } from '../git/commit.js'
import { inWords, type SecretScanner } from './scanner.js'

/**
 * How a stage's commit treats a secret: the deliverable (or its partial) is Markdown for people
 * and the next stages, so the secret is redacted in place and the work survives; any other
 * file is refused whole, since an edited source file or fixture would no longer be what the
 * agent wrote. A symlink whose target, or a path whose name, holds one is refused. Each
 * finding is added to `withheld` as one line naming the file and the kind, never the value.
 */
export function commitScreen(
  scanner: SecretScanner,
  deliverables: readonly string[],
  withheld: string[]
): (path: string, content: Buffer, kind: 'file' | 'symlink') => Screened {
  return (path, content, kind) => {
    const inPath = scanner.find(path)
    if (inPath.length > 0) {
      withheld.push(`a file was not committed: its path holds ${inWords(inPath)}`)
      return { refuse: `its path holds ${inWords(inPath)}` }
    }
    const text = content.toString('utf8')
    const found = scanner.redact(text)
    if (found.kinds.length === 0) return { content }
    const what = inWords(found.kinds)
    if (kind === 'file' && deliverables.includes(path)) {
      withheld.push(`${path}: ${what} redacted`)
      return { content: Buffer.from(found.text, 'utf8') }
    }
    withheld.push(`${path}: not committed, it holds ${what}`)
    return { refuse: `it holds ${what}` }
  }
}
