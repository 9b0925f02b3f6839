// A person changed the issue's state while its stage ran (a second state label, or another in
// place of the old one). Their move stands (the tracker's compare-and-set keeps it); this says
// so on the issue, where the status comment alone would still name the move the stage decided.
import type { Issue, Tracker } from '../ports.js'
import { NEEDS_ATTENTION_LABEL } from '../names.js'
import { oneLine } from '../untrusted-text.js'

/** Comments on the move that stood; returns what the job's summary adds. */
export async function noticeMovedMeanwhile(
  tracker: Tracker,
  issue: Issue,
  o: { profile: string; entry: number; to: string; now: string | null }
): Promise<string> {
  const key = `itervox:moved-meanwhile:${o.entry}`
  const to = oneLine(o.to)
  if (o.now !== null) {
    const now = oneLine(o.now)
    const body = `**The issue was moved to "${now}" while the ${o.profile} stage ran**, so it stays there: the pipeline did not move it to "${to}". The stage's work is kept; "${now}" goes on from it.\n\n${tracker.runLine(null)}`
    await tracker.comment(issue, { key, body })
    return `; the issue was moved to "${now}" meanwhile; left it there`
  }
  const body = `**The issue's state labels were changed while the ${o.profile} stage ran**: it now has no state label, or more than one, so the pipeline did not move it to "${to}" and starts nothing. Leave the one state label it should be in to go on.\n\n${tracker.runLine(null)}`
  await tracker.setFlag(issue, NEEDS_ATTENTION_LABEL, true)
  await tracker.comment(issue, { key, body })
  return `; the issue's state labels were changed meanwhile; it has no one state, flagged ${NEEDS_ATTENTION_LABEL}`
}
