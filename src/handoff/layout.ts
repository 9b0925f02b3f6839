// The exact bytes itervox writes around prior handoffs (itervox-behaviour.md §1.2-1.3), plus our
// one-file cut notice. Golden tests pin every string here.
import { isPartialName } from './naming.js'
import { utf8Length } from './utf8.js'

const BLOCK_PREAMBLE =
  '## Prior Agent Handoffs\n\n' +
  "Listed in chronological order (oldest first). Each file is one prior agent's deliverable on this issue's branch."

const PARTIAL_SUFFIX_TEXT = ' (partial — prior agent exited before completing this deliverable)'

export const JOIN = '\n\n'

/** itervox always says "handoffs"; we say "1 earlier handoff" (a deliberate difference). */
function truncationMarker(dropped: number): string {
  const what = dropped === 1 ? 'handoff' : 'handoffs'
  return `_[${dropped} earlier ${what} truncated to fit budget — see \`.itervox/handoff/\` for full history]_`
}

export function fileHeader(name: string): string {
  return `### ${name}${isPartialName(name) ? PARTIAL_SUFFIX_TEXT : ''}`
}

/** Ends a body that was cut to fit the budget. */
export function cutNotice(shownBytes: number, totalBytes: number): string {
  return `_[truncated: showing the first ${shownBytes} of ${totalBytes} bytes — read the file for the rest]_`
}

export function renderPiece(name: string, body: string): string {
  return `${fileHeader(name)}${JOIN}${body}`
}

/** The block from pieces in chronological order; '' when there is no piece. */
export function joinBlock(pieces: string[], dropped: number): string {
  if (pieces.length === 0) return ''
  const parts = [BLOCK_PREAMBLE]
  if (dropped > 0) parts.push(truncationMarker(dropped))
  return parts.concat(pieces).join(JOIN).replace(/\n+$/, '')
}

/** Bytes of the preamble plus, when files were dropped, the joined marker. */
export function frameBytes(dropped: number): number {
  const preamble = utf8Length(BLOCK_PREAMBLE)
  return dropped > 0 ? preamble + JOIN.length + utf8Length(truncationMarker(dropped)) : preamble
}

export function renderRunContext(ts: string, path: string): string {
  return [
    '## Run Context',
    '',
    `- run.timestamp: \`${ts}\``,
    `- run.handoff_path: \`${path}\``,
    '',
    'Write your deliverable Markdown to `run.handoff_path` before exiting.',
    'It will be visible to every subsequent agent on this branch as a prior handoff.'
  ].join('\n')
}
