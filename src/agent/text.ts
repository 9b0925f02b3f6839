/** At most `max` characters from the start, with `…` where it was cut. */
export function keepStart(text: string, max: number): string {
  if (text.length <= max) return text
  let end = max - 1
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end-- // do not split a surrogate pair
  return text.slice(0, end).trimEnd() + '…'
}

/** At most `max` characters from the end, with `…` where it was cut. */
export function keepEnd(text: string, max: number): string {
  if (text.length <= max) return text
  let start = text.length - max + 1
  const code = text.charCodeAt(start)
  if (code >= 0xdc00 && code <= 0xdfff) start++ // do not split a surrogate pair
  return '…' + text.slice(start).trimStart()
}

/** The first non-empty line, trimmed and capped: a reason must stay on one line. */
export function firstLine(text: string, max = 200): string {
  // A lone CR or another line separator would start a new line in the runner's log, where a
  // line beginning `::` is a workflow command; control characters go too.
  const line = text.split(/[\r\n\u2028\u2029]+/).find((l) => l.trim() !== '') ?? ''
  return keepStart(line.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim(), max)
}

/** The longest final text a run result carries. */
export const RESULT_TEXT_MAX_CHARS = 16 * 1024

/** A name from an event (a tool, a model) made safe for a one-line log description. */
export function safeName(name: unknown): string {
  return typeof name === 'string' ? name.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 60) : ''
}
