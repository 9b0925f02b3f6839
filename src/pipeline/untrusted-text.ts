import { clip } from '../clip.js'
import { sanitizeUntrusted } from '../handoff/sanitize.js'

// Untrusted text (agent output, reasons, names, replies) shown in a log line, a comment, the
// job summary or a prompt: one set of helpers, so every place escapes the same way.

/** One line: hidden characters and HTML comments gone, every line break and run of space folded. */
export function oneLine(text: unknown): string {
  return sanitizeUntrusted(String(text ?? ''))
    .text.replace(/\s+/g, ' ')
    .trim()
}

// Cutting is plain text, not escaping: it lives below every layer (git/ uses it too) and is
// offered here with the helpers that need it.
export { clip }

/**
 * Inline Markdown: characters that make tables, HTML, code spans or links become entities,
 * and `@`/`#` get a word joiner so no one is mentioned and no issue linked.
 */
function inlineMarkdown(text: string): string {
  return text.replace(/[&<>|`\\[\]@#]/g, (c) =>
    c === '@' || c === '#' ? `${c}\u2060` : `&#${c.charCodeAt(0)};`
  )
}

/**
 * An agent's Markdown, for a comment in its name: it reads the same, but a word joiner after
 * each `@`, after a `<` that could open a tag or an HTML comment, and between `!` and `[` means
 * no one is mentioned, no raw HTML is rendered, and no image is fetched (an image URL carries
 * whatever an injected agent put in it to that host the moment anyone opens the issue). Code
 * spans and blocks are treated the same: telling them apart as GitHub does is not needed.
 */
export function agentMarkdown(text: string): string {
  return text.replace(/@|<(?=[A-Za-z/!?])|!(?=\[)/g, (c) => `${c}\u2060`)
}

/** One table cell (or any inline spot) of untrusted text. */
export function cellText(text: unknown, max = 200): string {
  return inlineMarkdown(clip(oneLine(text), max))
}

/** A fenced block whose fence is longer than any run of its character inside the text. */
export function fenced(text: string, char: '`' | '~' = '`', info = 'text'): string {
  let longest = 0
  for (const m of text.matchAll(char === '`' ? /`+/g : /~+/g))
    longest = Math.max(longest, m[0].length)
  const fence = char.repeat(Math.max(3, longest + 1))
  return `${fence}${info}\n${text}\n${fence}`
}
