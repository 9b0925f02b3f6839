/** WORKFLOW.md cut into its YAML front matter and its Markdown body, as itervox cuts it. */
export interface WorkflowParts {
  /** The YAML text between the fences; null when line 1 is not exactly `---`. */
  frontMatter: string | null
  /** File line of the front matter's first line. */
  frontMatterLine: number
  /** Trimmed body. */
  body: string
  /** 1-based file line where the trimmed body starts. */
  bodyLine: number
}

const FENCE = '---'

/**
 * CRLF becomes LF first. Front matter exists only when line 1 is exactly `---` and runs to
 * the next line that is exactly `---`; with no closing line it is all front matter. A
 * leading byte-order mark is dropped (itervox would not see the fence behind one).
 */
export function splitFrontMatter(text: string): WorkflowParts {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n')
  const lines = normalised.split('\n')
  if (lines[0] !== FENCE) {
    return { frontMatter: null, frontMatterLine: 1, ...trimBody(normalised, 1) }
  }
  const close = lines.indexOf(FENCE, 1)
  if (close === -1) {
    return {
      frontMatter: lines.slice(1).join('\n'),
      frontMatterLine: 2,
      body: '',
      bodyLine: lines.length + 1
    }
  }
  return {
    frontMatter: lines.slice(1, close).join('\n'),
    frontMatterLine: 2,
    ...trimBody(lines.slice(close + 1).join('\n'), close + 2)
  }
}

function trimBody(raw: string, firstLine: number): { body: string; bodyLine: number } {
  const body = raw.trim()
  const skipped = raw.slice(0, raw.length - raw.trimStart().length)
  return { body, bodyLine: firstLine + (skipped.match(/\n/g)?.length ?? 0) }
}
