// A prior handoff is shown inside the block under a `### <file>` header, followed by our own
// `## Run Context`. A body that contains lines looking like those (or like the truncation
// marker or the run.* bullets) could make a model believe a forged file or a forged run path.
// Such lines get a leading backslash: Markdown then shows them as text and they no longer
// match what we write. Ordinary headings (`## Findings`) are left alone.

const HEADING = /^[ \t]*(?:#+|<h[1-6](?:\s[^>]*)?>)[ \t]*(.*)$/i
const BLOCK_TITLE = /^(?:prior agent handoffs|run context)/i
const FILE_TITLE = /^\S*\.md(?![a-z0-9_])/i
const SETEXT_TITLE = /^[ \t]*(?:prior agent handoffs|run context)[ \t#]*$/i
const MARKER = /^[ \t]*[_*]*\[[^\]\n]*\btruncated\b/i
const RUN_LINE = /^[ \t]*(?:[-*+][ \t]*)?[`*_]*run\.(?:timestamp|handoff_path)\b/i

/** True for a line that imitates a line of the handoff block or the Run Context. */
export function isForgedLine(line: string): boolean {
  const title = HEADING.exec(line)?.[1]
  if (title !== undefined) {
    return BLOCK_TITLE.test(title) || FILE_TITLE.test(title) || MARKER.test(title)
  }
  return SETEXT_TITLE.test(line) || MARKER.test(line) || RUN_LINE.test(line)
}

/** Escapes every forged line; returns the text and how many lines were escaped. */
export function neutralizeForgedLines(text: string): { text: string; count: number } {
  let count = 0
  const lines = text.split('\n').map((line) => {
    if (!isForgedLine(line)) return line
    count++
    const indent = /^[ \t]*/.exec(line)?.[0] ?? ''
    return `${indent}\\${line.slice(indent.length)}`
  })
  return count === 0 ? { text, count } : { text: lines.join('\n'), count }
}
