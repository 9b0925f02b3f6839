// Untrusted Markdown (a prior handoff, an issue's text) is shown inside a prompt whose own
// structure is Markdown: the `## Prior Agent Handoffs` block with its `### <file>` headers and
// truncation markers, `## Run Context` with its run.* bullets, and the pipeline's sections
// (`## Requests to the pipeline`, `## Review`, `## Reply from @…`, ...). A line of untrusted
// text that reads as one of those could make a model believe a forged file, run path or reply.
// Such lines get a backslash: Markdown then shows them as plain text, and they no longer look
// like what the prompt writes. Ordinary headings (`## Findings`) are left alone.
//
// A title is compared by what a reader sees, not by its bytes: HTML entities decoded,
// compatibility forms and accents folded, Cyrillic and Greek look-alikes mapped to Latin,
// and everything but letters and digits dropped, so `## **Rün&#32;Соntext**` is `runcontext`.
// It is a heading whatever makes it one: `#`s after indentation, blockquote or list markers,
// a setext underline, an HTML `<h1>`-`<h6>` or `<summary>`, or a line that is all emphasis.

/** The comparison key of a title: its letters and digits as a reader sees them. */
function titleKey(title: string): string {
  return letters(visible(title))
}

function letters(seen: string): string {
  return seen.replace(/[^\p{L}\p{N}]+/gu, '')
}

const NAMED: Record<string, string> = {
  nbsp: ' ',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  num: '#',
  period: '.',
  lowbar: '_',
  ast: '*',
  colon: ':',
  lsqb: '[',
  rsqb: ']',
  grave: '`',
  tab: ' ',
  newline: ' '
}

// Cyrillic, Greek and other letters that look like Latin ones, lower case (titles are folded
// to lower case first, so upper-case look-alikes are listed by their lower-case forms).
const LOOKALIKES: Record<string, string> = {
  а: 'a',
  в: 'b',
  с: 'c',
  ԁ: 'd',
  е: 'e',
  ё: 'e',
  һ: 'h',
  н: 'h',
  і: 'i',
  ї: 'i',
  ј: 'j',
  к: 'k',
  м: 'm',
  п: 'n',
  о: 'o',
  р: 'p',
  ԛ: 'q',
  г: 'r',
  ѕ: 's',
  т: 't',
  у: 'y',
  ԝ: 'w',
  х: 'x',
  ь: 'b',
  α: 'a',
  β: 'b',
  ε: 'e',
  ζ: 'z',
  η: 'n',
  ι: 'i',
  κ: 'k',
  μ: 'u',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
  ɑ: 'a',
  ɡ: 'g',
  ı: 'i',
  ȷ: 'j',
  ʀ: 'r',
  օ: 'o',
  ս: 'u',
  հ: 'h',
  ո: 'n'
}

/** The text as a reader sees it: entities decoded, tags gone, look-alikes mapped, lower case. */
function visible(text: string): string {
  if (/^[\t\x20-\x25\x27-\x3b\x3d\x3f-\x7e]*$/.test(text)) return text.toLowerCase()
  const decoded = text.replace(
    /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z]+));/gi,
    (m, dec, hex, name) => {
      if (name !== undefined) return NAMED[(name as string).toLowerCase()] ?? m
      const cp = dec !== undefined ? Number(dec) : parseInt(hex as string, 16)
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m
    }
  )
  return decoded
    .replace(/<\/?[a-z][^<>]*>/gi, '')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\x00-\x7f]/g, (c) => LOOKALIKES[c] ?? c)
}

/** Titles the prompt writes that are distinctive wherever they appear in a heading. */
const PHRASES = [
  'prior agent handoffs', // src/handoff/layout.ts
  'run context', // src/handoff/layout.ts
  'pipeline provenance', // src/pipeline/stage/provenance-section.ts
  'requests to the pipeline', // src/pipeline/decision/requests.ts
  'your previous deliverable was refused', // src/pipeline/stage/sections.ts
  'reply from', // src/pipeline/stage/sections.ts: `## Reply from @<login>`
  'review findings' // src/pipeline/stage/sections.ts
].map(titleKey)
/** A title the prompt writes that starts many ordinary headings: only the whole title counts. */
const EXACT = ['review'].map(titleKey) // src/pipeline/stage/sections.ts

const FILE_TITLE = /^\S*\.md(?![a-z0-9])/
// Where a value may merely sit in a heading: the prompt's `### <file>` names a file alone, so
// a path or URL (the local tracker's issue.url, `.itervox/issues/DEMO-1.md`) is not one.
const FILE_NAME = /^[^\s/]*\.md(?![a-z0-9])/
const MARKER = /^[_*]*\[[^\]\n]*\btruncated\b/
const RUN_LINE = /^[`*_]*run\.(?:timestamp|handoff_path)\b/
// Blockquote and list markers in front of a line's content.
const CONTAINERS = /^(?:[ \t]*(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]|$)))*[ \t]*/
const ATX = /^#+[ \t]*(.*)$/
const UNDERLINE = /^[ \t]*(?:=+|-+)[ \t]*$/
const EMPHASIS_START = /^(?:[*_]{1,3}|<(?:b|strong|em|i)>)/i
// An HTML heading or summary tag not already escaped, and the text after it on the line.
const HTML_HEADING = /(?<!\\)<(?:h[1-6]|summary)(?:[ \t][^>]*)?>/gi

export interface ForgeryOptions {
  /**
   * The text is one value a template prints (an issue's title or body): its first and last
   * lines are checked as heading titles too, since the template may put `## ` before them or
   * a `---` after them.
   */
  value?: boolean
  /** More titles the prompt uses (its templates' headings); a heading starting with one counts. */
  titles?: string[]
}

interface Titles {
  extra: string[]
}

/** True for a line that imitates a line of the handoff block, the Run Context or a section. */
export function isForgedLine(line: string, opts: ForgeryOptions = {}): boolean {
  return neutralizeForgedLines(line, opts).count > 0
}

/** Escapes every forged line; returns the text and how many lines were escaped. */
export function neutralizeForgedLines(
  text: string,
  opts: ForgeryOptions = {}
): { text: string; count: number } {
  const titles: Titles = { extra: (opts.titles ?? []).map(titleKey).filter((k) => k.length > 0) }
  const lines = text.split('\n')
  const escape = new Set<number>()
  const tags = new Map<number, number[]>()
  let paragraph: string[] = []
  // A heading tag that ended its line: its title is on the next non-blank line.
  let openTag: { line: number; at: number } | null = null
  const filled = lines.flatMap((l, i) => (l.replace(CONTAINERS, '').trim() === '' ? [] : [i]))
  const edges = opts.value === true ? new Set([filled[0], filled.at(-1)]) : new Set()
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    const inner = line.replace(CONTAINERS, '')
    if (inner.trim() === '') {
      paragraph = []
      continue
    }
    if (openTag) {
      if (isForgedTitle(inner, titles)) addTag(tags, openTag.line, openTag.at)
      openTag = null
    }
    for (const m of line.matchAll(HTML_HEADING)) {
      const after = line.slice((m.index as number) + m[0].length)
      const title = after.replace(/<\/.*$/, '')
      if (title.trim() === '') openTag = { line: i, at: m.index as number }
      else if (isForgedTitle(title, titles)) addTag(tags, i, m.index as number)
    }
    const next = lines[i + 1]
    // A setext heading's title is its whole paragraph (its last line alone is checked too, in
    // case a model reads it so); an escaped underline is paragraph text.
    paragraph.push(inner)
    if (next !== undefined && UNDERLINE.test(next.replace(/^(?:[ \t]*>)*/, ''))) {
      if (isForgedTitle(paragraph.join(' '), titles) || isForgedTitle(inner, titles)) {
        escape.add(i + 1)
      } else paragraph = []
    }
    if (escaped(line)) continue
    const edge = edges.has(i)
    const atx = ATX.exec(inner)
    const forged = atx
      ? isForgedTitle(atx[1] as string, titles)
      : EMPHASIS_START.test(inner)
        ? isForgedTitle(inner, titles)
        : edge
          ? isForgedTitle(inner, titles, false)
          : isBareForgery(inner, titles)
    if (forged) escape.add(i)
  }
  let count = 0
  const out = lines.map((line, i) => {
    let result = line
    const at = tags.get(i)
    if (at) {
      count++
      for (const index of [...at].sort((a, b) => b - a)) {
        result = `${result.slice(0, index)}\\${result.slice(index)}`
      }
    }
    if (escape.has(i) && !escaped(result)) {
      if (!at) count++
      const indent = /^[ \t]*/.exec(result)?.[0] ?? ''
      result = `${indent}\\${result.slice(indent.length)}`
    }
    return result
  })
  return count === 0 ? { text, count } : { text: out.join('\n'), count }
}

function addTag(tags: Map<number, number[]>, line: number, at: number): void {
  const list = tags.get(line) ?? []
  if (!list.includes(at)) list.push(at)
  tags.set(line, list)
}

// A line whose content starts with a backslash shows as text already (ours or the author's).
const escaped = (line: string): boolean => /^[ \t]*\\/.test(line)

/**
 * A heading's title that reads as one the prompt uses. The templates' titles count as a prefix
 * in a heading, but only whole where the text may merely sit in one (a value's edge lines).
 */
function isForgedTitle(title: string, titles: Titles, heading = true): boolean {
  const seen = visible(title)
  const key = letters(seen)
  if (PHRASES.some((p) => key.includes(p)) || EXACT.includes(key)) return true
  if (titles.extra.some((t) => (heading ? key.startsWith(t) : key === t))) return true
  const bare = seen.replace(/^[\s*_`~[\]()]+/, '')
  const file = heading ? FILE_TITLE : FILE_NAME
  return file.test(bare) || MARKER.test(seen.trimStart()) || RUN_LINE.test(bare)
}

/** A line that is not a heading but is, whole, one of the prompt's titles, a marker or a run line. */
function isBareForgery(line: string, titles: Titles): boolean {
  // No title, however spelled, is this long: such a line is only checked for how it starts.
  const seen = visible(line.length > 400 ? line.slice(0, 400) : line)
  if (line.length > 400) return MARKER.test(seen.trimStart()) || RUN_LINE.test(seen.trimStart())
  const key = letters(seen)
  if (PHRASES.includes(key) || EXACT.includes(key) || titles.extra.includes(key)) return true
  return MARKER.test(seen.trimStart()) || RUN_LINE.test(seen.trimStart())
}
