// issue_moved_to_backlog: a person moved the issue into one of tracker.backlog_states (its
// label added). The run happens in that state; backlog states start no stage of their own.
import type { AutomationEvent } from './event.js'
import type { TriggerRule } from './rule.js'

export const movedToBacklog: TriggerRule<
  Extract<AutomationEvent, { type: 'issue_moved_to_backlog' }>
> = {
  type: 'issue_moved_to_backlog',
  occasion(e, c) {
    const now = c.issue.state
    if (!now || now.toLowerCase() !== e.state.toLowerCase()) {
      return { skip: `the issue left "${e.state}" before this job ran` }
    }
    return {
      state: now,
      entry: c.record.entry,
      key: `backlog-${(e.at ?? c.now.toISOString()).replace(/[^0-9]/g, '')}`,
      about: `${c.issue.identifier} was moved into the backlog state "${now}".`
    }
  }
}
