import { sanitizeUntrusted } from '../handoff/sanitize.js'
import type { IssueRecord, StageRecord } from '../pipeline/record/record.js'
import { cellText, fenced } from '../pipeline/untrusted-text.js'

/** A stage's recovery and verification in a few words, for its line of the stage details. */
export function recoveryNote(s: StageRecord): string {
  const notes: string[] = []
  const r = s.recovery
  if (r?.kind === 'fallback') notes.push(`recovery: fallback for ${cellText(r.from ?? '?', 60)}`)
  else if (r?.kind === 'verify') notes.push('recovery: re-run after a failed verification')
  else if (r?.kind === 'blocking') notes.push('recovery: re-run for reported blocking failures')
  if (s.verify) {
    notes.push(`verify ${s.verify.passed ? 'passed' : 'failed'}: ${cellText(s.verify.result, 120)}`)
  }
  return notes.length > 0 ? `; ${notes.join('; ')}` : ''
}

/**
 * The newest stage's verification as evidence: what ran, how it ended, and its output's last
 * lines, which the agent's tree produced and so are shown fenced.
 */
export function verifyEvidence(record: IssueRecord): string[] {
  const s = [...record.stages].reverse().find((x) => x.verify)
  const v = s?.verify
  if (!s || !v) return []
  return [
    `**Verification** (${cellText(s.profile, 60)}, ${cellText(s.state, 80)}): ${v.passed ? 'passed' : 'failed'}, ${cellText(v.command, 200)}: ${cellText(v.result, 200)}`,
    '',
    '<details><summary>Last lines of its output</summary>',
    '',
    fenced(sanitizeUntrusted(v.tail).text || '(no output)'),
    '',
    '</details>'
  ]
}
