// What an automation's run leaves, once it ended: helper runs do not move the issue, flag it or
// retry, and never fire another automation (so none can loop). Only its policy's move or a
// move its agent asks for (and its profile allows) moves the issue, as in the daemon.
import type { Effect, IssueRecord } from '../record/record.js'
import { recordAfter } from '../record/record-after.js'
import type { Next, StageFacts } from '../record/next.js'

export function afterAutomation(f: StageFacts): Next {
  const where = f.handoffPath ? `; its work is in ${f.handoffPath}` : ''
  if (f.outcome !== 'succeeded') {
    return {
      kind: 'stop',
      why: `automation ${f.automation.id} ended ${f.outcome} (automation runs are not retried)${where}`
    }
  }
  const to = f.requests.moveState ?? f.automation.moveToState
  if (!to) return { kind: 'stop', why: `automation ${f.automation.id} ran${where}` }
  const why = f.requests.moveState ? `${f.profile} asked for it` : `automation ${f.automation.id}`
  return { kind: 'move', to, why }
}

/**
 * The record after a helper run: only a move changes where the pipeline is; otherwise what it
 * waits for or owes next (a question, a retry's wake-up, a halt) stays as it was.
 */
export function recordAfterAutomation(
  record: IssueRecord,
  next: Next,
  profile: string
): IssueRecord {
  if (next.kind !== 'move') return record
  return recordAfter(
    record,
    next,
    {
      entry: record.entry,
      state: record.state ?? '',
      profile,
      kind: 'automation',
      attempt: 0,
      timestamp: ''
    },
    { kind: 'automation', profile, round: record.round }
  )
}

/** A helper run changes no flag of the issue (needs-attention, needs-input stay a person's). */
export function automationEffects(effects: Effect[]): Effect[] {
  return effects.filter((e) => e.kind !== 'flag')
}
