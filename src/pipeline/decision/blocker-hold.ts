// The daemon holds a `Todo` issue whose blockers are not all done. Here: the first of
// tracker.active_states (the daemon's `Todo`, where a pipeline's work starts), on its first
// attempt of an entry, with a blocker still open, does not start; the issue says so once per
// entry, and the stage starts when the last blocker closes (the `issues: closed` job, or the
// scheduled reconcile for a closing it missed: tracker/blockers-pass.ts). Retries, reviews and
// a person's later moves are never held: the work has begun.
import { sameState } from '../../config/lookup.js'
import type { WorkflowConfig } from '../../config/types.js'
import type { Issue, Tracker } from '../ports.js'
import type { StagePlan } from './plan.js'
import { oneLine } from '../untrusted-text.js'

/** Most blockers a notice names. */
const NAMED = 10

/** Why the stage waits for its blockers, or undefined when it may start. */
export async function blockedStart(o: {
  config: WorkflowConfig
  tracker: Tracker
  issue: Issue
  state: string
  plan: StagePlan
}): Promise<string | undefined> {
  const first = o.config.tracker.activeStates[0]
  const p = o.plan
  if (!o.tracker.blockers || !first || !sameState(first, o.state)) return undefined
  if (p.kind !== 'work' || p.attempt > 0 || p.round > 0 || p.resume > 0 || p.recovery)
    return undefined
  const open = (await o.tracker.blockers(o.issue)).filter((b) => !b.done)
  if (open.length === 0) return undefined
  const names = open
    .slice(0, NAMED)
    .map((b) => oneLine(b.identifier))
    .join(', ')
  const more = open.length > NAMED ? ` and ${open.length - NAMED} more` : ''
  await o.tracker.comment(o.issue, {
    key: `itervox:blocked:${p.entry}`,
    body: `**The ${p.profile} stage waits for its blockers** (${names}${more}, still open), so it did not start in "${oneLine(o.state)}". It starts when the last of them is closed.\n\n${o.tracker.runLine(null)}`
  })
  return `${o.issue.identifier} is blocked by ${names}${more}; the ${p.profile} stage starts when the last of them is closed`
}
