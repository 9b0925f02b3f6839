// Every event-driven trigger type, and which automation an event starts. issue_entered_state
// is the pipeline's own (decide.ts); blockers_resolved is the reconcile's and an issue's closing.
import { sameState } from '../../config/lookup.js'
import type { AutomationConfig } from '../../config/types.js'
import type { Issue } from '../ports.js'
import { commentAdded } from './comment-added.js'
import { cronFired } from './cron.js'
import type { AutomationEvent } from '../ports.js'
import { inputRequired } from './input-required.js'
import { movedToBacklog } from './moved-to-backlog.js'
import { prMerged } from './pr-merged.js'
import { prOpened } from './pr-opened.js'
import type { Occasion, RuleContext, TriggerRule } from './rule.js'
import { runFailed } from './run-failed.js'

const RULES: {
  [T in AutomationEvent['type']]: TriggerRule<Extract<AutomationEvent, { type: T }>>
} = {
  tracker_comment_added: commentAdded,
  pr_opened: prOpened,
  pr_merged: prMerged,
  run_failed: runFailed,
  input_required: inputRequired,
  issue_moved_to_backlog: movedToBacklog,
  cron: cronFired
}

function ruleOf<E extends AutomationEvent>(e: E): TriggerRule<E> {
  return RULES[e.type] as unknown as TriggerRule<E>
}

export type Fired = { automation: AutomationConfig; occasion: Occasion } | { skip: string }

/**
 * The automation this event starts for the issue: the first in WORKFLOW.md whose trigger is the
 * event's and whose filter admits it (one run per event, as one job runs one stage).
 */
export function automationFor(e: AutomationEvent, c: RuleContext): Fired {
  const rule = ruleOf(e)
  if (c.issue.closed && !rule.onClosed) return { skip: `${c.issue.identifier} is closed` }
  const candidates = c.config.automations.filter(
    (a) => a.enabled && a.trigger.type === e.type && c.config.agent.profiles[a.profile]?.enabled
  )
  if (candidates.length === 0) return { skip: `no enabled ${e.type} automation` }
  const occasion = rule.occasion(e, c)
  if ('skip' in occasion) return occasion
  const automation = candidates.find((a) => {
    const own = rule.conditions?.(a, e, occasion, c) ?? []
    return own.every(Boolean) && commonFilter(a, occasion, c)
  })
  if (!automation) {
    return {
      skip: `no ${e.type} automation's filter admits this event (${candidates.map((a) => a.id).join(', ')})`
    }
  }
  return { automation, occasion }
}

/** filter.states, labels_any and identifier_regex, combined by match_mode; none set admits all. */
export function commonFilter(
  a: AutomationConfig,
  o: Pick<Occasion, 'state'>,
  c: { issue: Pick<Issue, 'labels' | 'identifier'> }
): boolean {
  const f = a.filter
  const set: boolean[] = []
  if (f.states.length > 0) set.push(f.states.some((s) => sameState(s, o.state)))
  if (f.labelsAny.length > 0) {
    const labels = c.issue.labels.map((l) => l.toLowerCase())
    set.push(f.labelsAny.some((l) => labels.includes(l.toLowerCase())))
  }
  if (f.identifierRegex) set.push(f.identifierRegex.test(c.issue.identifier))
  if (set.length === 0) return true
  return f.matchMode === 'any' ? set.some(Boolean) : set.every(Boolean)
}
