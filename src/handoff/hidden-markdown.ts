// Markdown that GitHub renders as nothing: a person reading the issue, the comment or the
// handoff never sees it, a model reading the raw text does. `[//]: # (ignore the above)` is
// the usual way to hide a comment in Markdown; titles and alt text show at most on hover.
// Removed, so the model is shown what a person is shown:
// - a link reference definition nothing refers to (one that is used keeps its destination);
// - the title of a link, an image or a definition (`[a](url "title")`);
// - an image's alt text, and HTML `alt` and `title` attributes.
// Fenced code blocks are left as they are: there a person sees the text as written. Where
// CommonMark would show a definition as text after all (inside a paragraph), it still goes;
// the model is shown less, never more, than a person.

export interface HiddenMarkdown {
  text: string
  /** Definitions, titles, alt texts and attributes removed. */
  count: number
}

const MAYBE_HIDDEN = /\]:|\]\s*\(|!\[|<[a-z][^<>]*\s(?:alt|title)\s*=/i

/** The text without the Markdown GitHub does not show (see above). */
export function removeHiddenMarkdown(text: string): HiddenMarkdown {
  if (!MAYBE_HIDDEN.test(text)) return { text, count: 0 }
  // Removing one part can reveal another (an attribute after the one removed, a definition
  // whose destination line was itself a definition): repeat until nothing is left. Every
  // removal shortens the text, so this ends.
  let count = 0
  let current = text
  for (;;) {
    const pass = onePass(current)
    current = pass.text
    count += pass.count
    if (pass.count === 0) return { text: current, count }
  }
}

interface Definition {
  /** Blockquote or list markers before it. */
  prefix: string
  label: string
  destination: string
  hasTitle: boolean
  /** Its last line. */
  end: number
}

function onePass(text: string): HiddenMarkdown {
  const lines = text.split('\n')
  const code = codeLines(lines)
  const definitions = new Map<number, Definition>()
  for (let i = 0; i < lines.length; i++) {
    const d = code[i] ? null : definitionAt(lines, i, code)
    if (d) {
      definitions.set(i, d)
      i = d.end
    }
  }
  const used = usedLabels(lines, code, definitions)
  let count = 0
  const out: string[] = []
  let prose: string[] = []
  const flush = (): void => {
    if (prose.length === 0) return
    const inline = removeInline(prose.join('\n'))
    count += inline.count
    out.push(inline.text)
    prose = []
  }
  for (let i = 0; i < lines.length; i++) {
    const d = definitions.get(i)
    if (code[i] || d) flush()
    if (code[i]) out.push(lines[i] as string)
    else if (!d) prose.push(lines[i] as string)
    else {
      if (!used.has(normalLabel(d.label))) count++
      else {
        // A destination in angle brackets can look like an HTML tag; its attributes show
        // nowhere either.
        const kept = d.hasTitle
          ? `${d.prefix}[${d.label}]: ${d.destination}`
          : lines.slice(i, d.end + 1).join('\n')
        const inline = removeAttributes(kept)
        count += inline.count + (d.hasTitle ? 1 : 0)
        out.push(inline.text)
      }
      i = d.end
    }
  }
  flush()
  return { text: out.join('\n'), count }
}

/** Which lines belong to a fenced code block (its fences included). */
function codeLines(lines: string[]): boolean[] {
  let fence: { char: string; length: number } | null = null
  return lines.map((line) => {
    const m = /^[ \t]{0,3}(`{3,}|~{3,})(.*)$/.exec(line.replace(/^(?:[ \t]*>)*/, ''))
    if (fence) {
      const run = m?.[1]
      if (run && run[0] === fence.char && run.length >= fence.length && m[2]!.trim() === '') {
        fence = null
      }
      return true
    }
    if (m && !(m[1]![0] === '`' && m[2]!.includes('`'))) {
      fence = { char: m[1]![0] as string, length: m[1]!.length }
      return true
    }
    return false
  })
}

const PREFIX = /^(?:[ \t]*(?:>|[-*+][ \t]|\d{1,9}[.)][ \t]))*[ \t]{0,3}/
const DEFINITION_START = /^\[((?:[^[\]\\]|\\.){1,999})\]:(.*)$/
const DESTINATION = /^[ \t]*(<(?:[^<>\n\\]|\\.)*>|[^\s<]\S*)/
const stripQuote = (line: string): string => line.replace(/^(?:[ \t]*>)*[ \t]*/, '')

/** The link reference definition starting at line `i`, as CommonMark reads one. */
function definitionAt(lines: string[], i: number, code: boolean[]): Definition | null {
  const line = lines[i] as string
  const prefix = PREFIX.exec(line)?.[0] ?? ''
  const m = DEFINITION_START.exec(line.slice(prefix.length))
  if (!m || m[1]!.trim() === '') return null
  let end = i
  let rest = m[2] as string
  if (rest.trim() === '') {
    const next = lines[i + 1]
    if (next === undefined || code[i + 1] || next.trim() === '') return null
    end = i + 1
    rest = stripQuote(next)
  }
  const dest = DESTINATION.exec(rest)
  if (!dest) return null
  const base = { prefix, label: m[1] as string, destination: dest[1] as string }
  const after = rest.slice(dest[0].length)
  if (after.trim() === '') {
    // A title may start on the next line; if it is not one, that line is a paragraph.
    const next = lines[end + 1]
    const titleEnd =
      next === undefined || code[end + 1]
        ? null
        : titleEndLine(lines, end + 1, stripQuote(next), code)
    return titleEnd === null
      ? { ...base, hasTitle: false, end }
      : { ...base, hasTitle: true, end: titleEnd }
  }
  if (!/^[ \t]/.test(after)) return null
  const titleEnd = titleEndLine(lines, end, after, code)
  return titleEnd === null ? null : { ...base, hasTitle: true, end: titleEnd }
}

/** The line a title starting in `text` (on line `index`) closes on, or null when it is none. */
function titleEndLine(
  lines: string[],
  index: number,
  text: string,
  code: boolean[]
): number | null {
  const s = text.trimStart()
  const open = s[0]
  if (open !== '"' && open !== "'" && open !== '(') return null
  const close = open === '(' ? ')' : open
  let line = index
  let chunk = s.slice(1)
  for (;;) {
    for (let k = 0; k < chunk.length; k++) {
      const c = chunk[k]
      if (c === '\\') k++
      else if (c === close) return chunk.slice(k + 1).trim() === '' ? line : null
      else if (open === '(' && c === '(') return null
    }
    line++
    const next = lines[line]
    if (next === undefined || code[line] || next.trim() === '') return null
    chunk = stripQuote(next)
  }
}

const normalLabel = (label: string): string => label.trim().replace(/\s+/g, ' ').toLowerCase()

/** Labels the shown text refers to: any `[…]` outside code and definitions. */
function usedLabels(lines: string[], code: boolean[], defs: Map<number, Definition>): Set<string> {
  const used = new Set<string>()
  for (let i = 0; i < lines.length; i++) {
    const d = defs.get(i)
    if (d) {
      i = d.end
      continue
    }
    if (code[i]) continue
    for (const m of (lines[i] as string).matchAll(/\[((?:[^[\]\\]|\\.)+)\]/g)) {
      used.add(normalLabel(m[1] as string))
    }
  }
  return used
}

// A title runs on over lines, never over a blank one.
const TITLE = String.raw`(?:"(?:[^"\\\n]|\\.|\n(?![ \t]*\n))*"|'(?:[^'\\\n]|\\.|\n(?![ \t]*\n))*'|\((?:[^()\\\n]|\\.|\n(?![ \t]*\n))*\))`
const LINK_DEST = String.raw`(?:<(?:[^<>\n\\]|\\.)*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))+)`
const LINK_TITLE = new RegExp(
  String.raw`(\]\([ \t]*\n?[ \t]*)(${LINK_DEST})(?:[ \t]+\n?|\n)[ \t]*${TITLE}([ \t]*\n?[ \t]*\))`,
  'g'
)
const IMAGE_ALT = /(?<!\\)!\[(?:[^[\]\\\n]|\\.)+\](?=[([])/g
const HTML_ATTRIBUTE =
  /(<[a-z][a-z0-9-]*(?:\s[^<>]*?)?)\s(?:alt|title)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+)/gi

function removeInline(text: string): HiddenMarkdown {
  let count = 0
  const out = text
    .replace(LINK_TITLE, (_m, open: string, dest: string, close: string) => {
      count++
      return open + dest + close
    })
    .replace(IMAGE_ALT, () => {
      count++
      return '![]'
    })
  const attributes = removeAttributes(out)
  return { text: attributes.text, count: count + attributes.count }
}

function removeAttributes(text: string): HiddenMarkdown {
  let count = 0
  const out = text.replace(HTML_ATTRIBUTE, (_m, tag: string) => {
    count++
    return tag
  })
  return { text: out, count }
}
