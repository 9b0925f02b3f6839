// The blockers an issue's text names, as itervox's GitHub and local trackers read them: one of
// "blocked by", "blocked on", "depends on", "depends upon", "requires", "waiting on", "waiting
// for", then a list of `#N` (joined by commas, spaces, "and" or "&"). Read strictly: a plain
// `#N`, a reference to another repository (`owner/repo#N`), and text inside code (fenced
// blocks, `inline`) name no blocker, so a mention or a quoted example holds nothing up.
// Each run of spaces can be read one way only, so a long one fails in linear time (the text is
// anyone's).
const PHRASE =
  /\b(?:blocked\s+(?:by|on)|depends\s+(?:on|upon)|requires|waiting\s+(?:on|for))\s*(?::\s*)?((?:#\d{1,9}\b\s*(?:(?:,|&|\band\b)\s*)?)+)/gi

/** Most blockers read from one text: a longer list is someone's mistake, not a plan. */
const MAX_BLOCKERS = 50

/** The issue numbers `text` names as blockers, each once, in the order written. */
export function blockerNumbers(text: string): number[] {
  const plain = text
    .replace(/```[\s\S]*?(?:```|$)|~~~[\s\S]*?(?:~~~|$)/g, ' ')
    .replace(/`[^`\n]*`/g, ' ')
  const out: number[] = []
  for (const m of plain.matchAll(PHRASE)) {
    for (const ref of m[1]!.matchAll(/#(\d{1,9})\b/g)) {
      const n = Number(ref[1])
      if (n > 0 && !out.includes(n)) out.push(n)
    }
  }
  return out.slice(0, MAX_BLOCKERS)
}
