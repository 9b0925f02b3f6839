import { neutralizeForgedLines } from './forged-lines.js'
import { describeSanitizeCounts, sanitizeUntrusted, type SanitizeCounts } from './sanitize.js'

export interface CleanBody {
  body: string
  counts: SanitizeCounts
  /** Lines escaped because they imitated the block's own headers. */
  forged: number
}

/** A prior handoff's text as the block shows it: cleaned, forged headers escaped, trimmed. */
export function cleanHandoffText(text: string): CleanBody {
  const clean = sanitizeUntrusted(text)
  const { text: escaped, count } = neutralizeForgedLines(clean.text)
  return { body: escaped.trim(), counts: clean.counts, forged: count }
}

/** The one-line report of what cleaning changed in a file, or '' when nothing did. */
export function describeCleaning(name: string, c: CleanBody): string {
  const parts = [describeSanitizeCounts(c.counts)]
  if (c.forged > 0) {
    parts.push(`escaped ${c.forged} line${c.forged === 1 ? '' : 's'} imitating handoff headers`)
  }
  const what = parts.filter((p) => p !== '').join('; ')
  return what ? `${name}: ${what}` : ''
}
