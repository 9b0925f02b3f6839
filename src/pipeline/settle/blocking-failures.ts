/** The deliverable section in which an agent says what blocks its work (coordinate-handoffs.txt). */
const BLOCKING_HEADING = '## Blocking failures'

// What an agent writes to say the section is empty.
const NOTHING = /^(?:[-*]\s*)?(?:none|nothing|n\/a|no blocking failures)\.?$/i

/**
 * The text of the deliverable's `## Blocking failures` section (to the next heading of level 1
 * or 2, outside fenced code), or null when there is none or it says there is nothing.
 */
export function blockingFailures(markdown: string): string | null {
  const lines = markdown.split(/\r?\n/)
  let fence: string | null = null
  let body: string[] | null = null
  for (const line of lines) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence) {
      if (f && f[0] === fence[0] && f.length >= fence.length) fence = null
    } else if (f) {
      fence = f
    } else if (/^ {0,3}#{1,2}(?:[ \t]|$)/.test(line)) {
      if (body) break
      if (line.trim().replace(/\s+/g, ' ').toLowerCase() === BLOCKING_HEADING.toLowerCase()) {
        body = []
        continue
      }
    }
    body?.push(line)
  }
  const text = body?.join('\n').trim() ?? ''
  return text === '' || NOTHING.test(text) ? null : text
}
