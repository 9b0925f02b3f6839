import { removeHiddenMarkdown } from './hidden-markdown.js'

/** What `sanitizeUntrusted` changed, per kind. */
export interface SanitizeCounts {
  /** Zero-width, soft hyphen, fillers, other format characters, smuggling variation selectors. */
  invisible: number
  /** Bidirectional embeddings, overrides and isolates. */
  bidi: number
  /** Unicode tag characters U+E0000-U+E007F. */
  tag: number
  /** C0/C1 control characters (NUL included, tab and newline kept) and lone surrogates. */
  control: number
  /** HTML comments `<!-- … -->`, an unclosed one running to the end. */
  htmlComments: number
  /** Full-width ASCII U+FF01-U+FF5E mapped to ASCII. */
  fullWidth: number
  /**
   * Markdown GitHub renders as nothing: link reference definitions nothing refers to (the
   * `[//]: # (…)` comment idiom), link and image titles, image alt text, HTML alt and title
   * attributes.
   */
  hiddenMarkdown: number
}

export interface Sanitized {
  text: string
  /** Everything removed: characters of the first four kinds, HTML comments and hidden Markdown. */
  removed: number
  counts: SanitizeCounts
}

export function emptyCounts(): SanitizeCounts {
  return {
    invisible: 0,
    bidi: 0,
    tag: 0,
    control: 0,
    htmlComments: 0,
    fullWidth: 0,
    hiddenMarkdown: 0
  }
}

export function addCounts(into: SanitizeCounts, more: SanitizeCounts): SanitizeCounts {
  into.invisible += more.invisible
  into.bidi += more.bidi
  into.tag += more.tag
  into.control += more.control
  into.htmlComments += more.htmlComments
  into.fullWidth += more.fullWidth
  into.hiddenMarkdown += more.hiddenMarkdown
  return into
}

/** e.g. `removed 3 invisible and 2 tag characters and 1 HTML comment`; '' when nothing changed. */
export function describeSanitizeCounts(c: SanitizeCounts): string {
  const chars = [
    [c.invisible, 'invisible'],
    [c.bidi, 'bidi-control'],
    [c.tag, 'tag'],
    [c.control, 'control']
  ]
    .filter(([n]) => (n as number) > 0)
    .map(([n, what]) => `${n} ${what}`)
  const removed: string[] = []
  if (chars.length > 0) {
    const total = c.invisible + c.bidi + c.tag + c.control
    removed.push(`${listing(chars)} character${total === 1 ? '' : 's'}`)
  }
  if (c.htmlComments > 0) {
    removed.push(`${c.htmlComments} HTML comment${c.htmlComments === 1 ? '' : 's'}`)
  }
  if (c.hiddenMarkdown > 0) {
    removed.push(`${c.hiddenMarkdown} hidden Markdown part${c.hiddenMarkdown === 1 ? '' : 's'}`)
  }
  const parts: string[] = []
  if (removed.length > 0) parts.push(`removed ${removed.join(' and ')}`)
  if (c.fullWidth > 0) {
    parts.push(`mapped ${c.fullWidth} full-width character${c.fullWidth === 1 ? '' : 's'} to ASCII`)
  }
  return parts.join('; ')
}

function listing(items: string[]): string {
  const last = items.at(-1) ?? ''
  return items.length === 1 ? last : `${items.slice(0, -1).join(', ')} and ${last}`
}

// Anything the slow path would change; most text has none of it and is returned as is.
// The class lists single code points (some are combining marks), nothing combined is meant.
const NEEDS_WORK =
  // eslint-disable-next-line no-misleading-character-class
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uff01-\uff5e\uffa0\ufff9-\ufffb\ud800-\udfff]|<!--/

type Kind = 'invisible' | 'bidi' | 'tag' | 'control'

function removalKind(cp: number): Kind | null {
  if (cp < 0x20) return cp === 0x09 || cp === 0x0a ? null : 'control'
  if (cp >= 0x7f && cp <= 0x9f) return 'control'
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return 'bidi'
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'tag'
  if (cp >= 0xd800 && cp <= 0xdfff) return 'control'
  if (
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x2060 && cp <= 0x206f) ||
    (cp >= 0xfff9 && cp <= 0xfffb) ||
    (cp >= 0xe0100 && cp <= 0xe01ef) ||
    cp === 0xfeff ||
    cp === 0x00ad ||
    cp === 0x180e ||
    cp === 0x034f ||
    cp === 0x061c ||
    cp === 0x115f ||
    cp === 0x1160 ||
    cp === 0x3164 ||
    cp === 0xffa0
  ) {
    return 'invisible'
  }
  return null
}

const isVariationSelector = (cp: number): boolean => cp >= 0xfe00 && cp <= 0xfe0f

/**
 * Cleans text that came from outside (an issue, a comment, an earlier agent's deliverable) so
 * nothing in it is hidden from a human reader but visible to a model: invisible, format, bidi
 * and tag characters and control characters go, CRLF and lone CR become LF, full-width ASCII
 * becomes ASCII, and HTML comments are removed. A comment is also found when removing other
 * characters (or another comment) brings `<!--` together, so the result never contains one.
 * One emoji variation selector after a character is kept; runs of them (a known way to smuggle
 * bytes) are not. Then the Markdown GitHub renders as nothing goes too (`removeHiddenMarkdown`).
 */
export function sanitizeUntrusted(input: string): Sanitized {
  const counts = emptyCounts()
  const chars = NEEDS_WORK.test(input) ? removeHiddenCharacters(input, counts) : input
  const markdown = removeHiddenMarkdown(chars)
  counts.hiddenMarkdown = markdown.count
  const removed =
    counts.invisible +
    counts.bidi +
    counts.tag +
    counts.control +
    counts.htmlComments +
    counts.hiddenMarkdown
  return { text: markdown.text, removed, counts }
}

function removeHiddenCharacters(input: string, counts: SanitizeCounts): string {
  const out: string[] = []
  let inComment = false
  // The last two characters seen inside a comment, to find `-->`.
  let c1 = ''
  let c2 = ''
  let lastWasSelector = false
  for (let i = 0; i < input.length; i++) {
    let cp = input.charCodeAt(i)
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < input.length) {
      const lo = input.charCodeAt(i + 1)
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00)
        i++
      }
    }
    if (cp === 0x0d) {
      if (input.charCodeAt(i + 1) === 0x0a) continue
      cp = 0x0a
    }
    const kind = removalKind(cp)
    if (kind) {
      counts[kind]++
      continue
    }
    if (isVariationSelector(cp)) {
      if (lastWasSelector || inComment || out.length === 0) {
        counts.invisible++
        continue
      }
    }
    if (cp >= 0xff01 && cp <= 0xff5e) {
      counts.fullWidth++
      cp -= 0xfee0
    }
    const ch = String.fromCodePoint(cp)
    if (inComment) {
      if (ch === '>' && c1 === '-' && c2 === '-') {
        inComment = false
        const last = out[out.length - 1]
        lastWasSelector = last !== undefined && isVariationSelector(last.codePointAt(0) as number)
      }
      c2 = c1
      c1 = ch
      continue
    }
    out.push(ch)
    lastWasSelector = isVariationSelector(cp)
    const n = out.length
    if (ch === '-' && n >= 4 && out[n - 2] === '-' && out[n - 3] === '!' && out[n - 4] === '<') {
      out.length = n - 4
      inComment = true
      counts.htmlComments++
      c1 = c2 = ''
    }
  }
  return out.join('')
}
