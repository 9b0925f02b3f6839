// issue_moved_to_backlog: a person moved the issue into one of tracker.backlog_states (its
// label added). The run happens in that state; backlog states start no stage of their own.
import { sameState } from '../../config/lookup.js'
import type { AutomationEvent } from './event.js'
import type { TriggerRule } from './rule.js'

export const movedToBacklog: TriggerRule<
  Extract<AutomationEvent, { type: 'issue_moved_to_backlog' }>
> = {
  type: 'issue_moved_to_backlog',
  occasion(e, c) {
    // On GitHub a backlog label is no pipeline state (the issue's state is its active label, if
    // any), so the label itself says the issue is still there; on Linear the state does.
    const there = [c.issue.state, ...c.issue.labels].some((s) => s && sameState(s, e.state))
    if (!there) return { skip: `the issue left "${e.state}" before this job ran` }
    return {
      state: e.state,
      entry: c.record.entry,
      key: `backlog-${(e.at ?? c.now.toISOString()).replace(/[^0-9]/g, '')}`,
      about: `${c.issue.identifier} was moved into the backlog state "${e.state}".`
    }
  }
}
