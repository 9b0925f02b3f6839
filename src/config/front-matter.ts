/** A Markdown file (WORKFLOW.md, an issue file, a deliverable) cut as itervox cuts WORKFLOW.md. */
export interface FrontMatterParts {
  /** The YAML text between the fences; null when line 1 is not exactly `---`. */
  frontMatter: string | null
  /** File line of the front matter's first line. */
  frontMatterLine: number
  /** No line closes the front matter, so it runs to the end of the file. */
  unclosed: boolean
  /** Trimmed body. */
  body: string
  /** 1-based file line where the trimmed body starts. */
  bodyLine: number
}

const FENCE = '---'

/**
 * The index of the line that closes the front matter of a file's LF-split lines; -1 when line 1
 * (byte-order mark aside) is not exactly `---`, `lines.length` when no later line is.
 */
export function frontMatterEnd(lines: readonly string[]): number {
  if (lines[0]?.replace(/^\uFEFF/, '') !== FENCE) return -1
  const close = lines.indexOf(FENCE, 1)
  return close === -1 ? lines.length : close
}

/**
 * CRLF becomes LF first. Front matter exists only when line 1 is exactly `---` and runs to
 * the next line that is exactly `---`; with no closing line it is all front matter. A
 * leading byte-order mark is dropped (itervox would not see the fence behind one).
 */
export function splitFrontMatter(text: string): FrontMatterParts {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n')
  const lines = normalised.split('\n')
  const close = frontMatterEnd(lines)
  if (close === -1) {
    return { frontMatter: null, frontMatterLine: 1, unclosed: false, ...trimBody(normalised, 1) }
  }
  const frontMatter = lines.slice(1, close).join('\n')
  if (close === lines.length) {
    return { frontMatter, frontMatterLine: 2, unclosed: true, body: '', bodyLine: close + 1 }
  }
  return {
    frontMatter,
    frontMatterLine: 2,
    unclosed: false,
    ...trimBody(lines.slice(close + 1).join('\n'), close + 2)
  }
}

function trimBody(raw: string, firstLine: number): { body: string; bodyLine: number } {
  const body = raw.trim()
  const skipped = raw.slice(0, raw.length - raw.trimStart().length)
  return { body, bodyLine: firstLine + (skipped.match(/\n/g)?.length ?? 0) }
}
