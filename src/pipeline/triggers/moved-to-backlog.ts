// issue_moved_to_backlog: a person moved the issue into one of tracker.backlog_states (its
// label added on GitHub; its state changed on Linear, seen by the relay's wake-up or the
// reconcile). The run happens in that state; backlog states start no stage of their own.
import { sameState } from '../../config/lookup.js'
import type { WorkflowConfig } from '../../config/types.js'
import type { AutomationEvent, Issue } from '../ports.js'
import { PAUSED_LABEL } from '../record/pause.js'
import type { IssueRecord } from '../record/record.js'
import type { OwedWake } from '../record/stage-owed.js'
import type { TriggerRule } from './rule.js'

type BacklogEvent = Extract<AutomationEvent, { type: 'issue_moved_to_backlog' }>

/**
 * Where the tracker knows when the issue entered its state (Linear): the move into a backlog
 * state it is in, when an automation answers such moves.
 */
export function backlogMove(config: WorkflowConfig, issue: Issue): BacklogEvent | undefined {
  const { state, enteredAt } = issue
  if (!state || !enteredAt) return undefined
  const backlog = config.tracker.backlogStates.find((s) => sameState(s, state))
  const runs = config.automations.some(
    (a) => a.enabled && a.trigger.type === 'issue_moved_to_backlog'
  )
  return backlog && runs
    ? { type: 'issue_moved_to_backlog', state: backlog, at: enteredAt }
    : undefined
}

/** Names the move: the same for the relay's wake-up, the reconcile's and a repeated one. */
function backlogKey(e: BacklogEvent, now: Date): string {
  return `backlog-${(e.at ?? now.toISOString()).replace(/[^0-9]/g, '')}`
}

/**
 * The reconcile's wake-up for a move into a backlog state that no run answered yet (the relay
 * missed it, or there is none); undefined when the issue is not in one, or it was answered.
 */
export function owedBacklogRun(
  config: WorkflowConfig,
  issue: Issue,
  record: IssueRecord | null
): OwedWake | undefined {
  const e = backlogMove(config, issue)
  // A paused issue is owed nothing yet (stage-owed.ts says so for it).
  if (!e || issue.labels.some((l) => l.toLowerCase() === PAUSED_LABEL)) return undefined
  const key = backlogKey(e, new Date())
  if (record?.stages.some((s) => s.automation?.event === key)) return undefined
  return {
    wake: { state: e.state, entry: record?.entry ?? 0 },
    key,
    why: `moved into "${e.state}" at ${e.at}`
  }
}

export const movedToBacklog: TriggerRule<BacklogEvent> = {
  type: 'issue_moved_to_backlog',
  occasion(e, c) {
    // On GitHub a backlog label is no pipeline state (the issue's state is its active label, if
    // any), so the label itself says the issue is still there; on Linear the state does.
    const there = [c.issue.state, ...c.issue.labels].some((s) => s && sameState(s, e.state))
    if (!there) return { skip: `the issue left "${e.state}" before this job ran` }
    return {
      state: e.state,
      entry: c.record.entry,
      key: backlogKey(e, c.now),
      about: `${c.issue.identifier} was moved into the backlog state "${e.state}".`
    }
  }
}
