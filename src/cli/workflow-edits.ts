// What `init --workflow-only` keeps of the GitHub workflow it writes again: the refs of its
// `uses:` lines (which the file asks people to pin to commit SHAs), and, by a fingerprint on
// its first line, whether anything else in it was edited since init wrote it, which it does not
// undo without --force.
import { createHash } from 'node:crypto'

const USES = /^(\s*(?:-\s+)?uses:\s*)([^@\s]+)@(.*)$/gm
const MARK = '# itervox-handoff init fingerprint: '

/** `text` with each `uses:` ref that `old` has for the same action, in order of appearance. */
export function keepPins(text: string, old: string): string {
  const refs = new Map<string, string[]>()
  for (const m of old.matchAll(USES)) refs.set(m[2]!, [...(refs.get(m[2]!) ?? []), m[3]!])
  const seen = new Map<string, number>()
  return text.replace(USES, (line, lead: string, action: string) => {
    const kept = refs.get(action)
    if (!kept) return line
    const i = seen.get(action) ?? 0
    seen.set(action, i + 1)
    return `${lead}${action}@${kept[Math.min(i, kept.length - 1)]}`
  })
}

/** The text as init writes it: its fingerprint on a first line of its own. */
export function fingerprinted(text: string): string {
  return `${MARK}${fingerprint(text)}\n${text}`
}

/** Whether `text` is as init wrote it, but for the refs of its `uses:` lines. */
export function unedited(text: string): boolean {
  const end = text.indexOf('\n') + 1
  return end > 0 && text.slice(0, end) === `${MARK}${fingerprint(text.slice(end))}\n`
}

// Over the text without its refs, so pinning an action is no edit.
function fingerprint(body: string): string {
  return createHash('sha256').update(body.replace(USES, '$1$2@')).digest('hex').slice(0, 16)
}

/** The lines rewriting `old` as `text` would remove (`-`) and add (`+`), with their line numbers. */
export function changedLines(old: string, text: string): string[] {
  const a = old.split('\n')
  const b = text.split('\n')
  // Longest common subsequence, from the end: a workflow is a few hundred lines.
  const common = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0))
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i]![j] =
        a[i] === b[j]
          ? common[i + 1]![j + 1]! + 1
          : Math.max(common[i + 1]![j]!, common[i]![j + 1]!)
    }
  }
  const out: string[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++
      j++
    } else if (i < a.length && (j === b.length || common[i + 1]![j]! >= common[i]![j + 1]!)) {
      out.push(`-${i + 1}: ${a[i++]}`)
    } else {
      out.push(`+${j + 1}: ${b[j++]}`)
    }
  }
  return out
}
