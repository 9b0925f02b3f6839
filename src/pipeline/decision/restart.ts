import { sameState } from '../../config/lookup.js'
import type { Issue, Tracker } from '../ports.js'
import { hasFlag, withFlag } from './flags.js'
import { NEEDS_ATTENTION_LABEL } from '../names.js'
import { haltedOnEffects, MAX_RESTARTS, unhalted, type IssueRecord } from '../record/record.js'

/**
 * Why the issue's pipeline stopped and waits for a person, or null when it did not: an
 * escalation (to the failed state, or flagged where it was) or a budget stop. A decision whose
 * effects failed is no stop: the next run finishes it.
 */
export function stoppedBecause(
  record: IssueRecord,
  state: string | null,
  failedState: string | undefined
): string | null {
  const halted = record.halted
  if (halted !== undefined && !haltedOnEffects(record)) {
    // A person who moved the issue elsewhere since has started it again already.
    if (state !== null && record.state !== null && sameState(record.state, state)) return halted
  }
  if (state !== null && failedState && sameState(state, failedState)) {
    return halted ?? `the issue is in the failed state "${failedState}"`
  }
  return null
}

/**
 * A person starts the stopped pipeline again in `to`: the issue moves there, and the record
 * forgets the stop and any step it still asked for, so the stage starts a new entry with fresh
 * attempts. What the earlier stages left stays on the branch, for the next agent's prompt. The
 * restart is saved in the record at once (the issue has moved) and said on the issue.
 */
export async function restartStopped(o: {
  tracker: Tracker
  issue: Issue
  record: IssueRecord
  to: string
  by: string
  at: Date
}): Promise<{ issue: Issue; record: IssueRecord }> {
  const from = o.issue.state
  let state = from
  if (from === null || !sameState(from, o.to)) {
    state = (await o.tracker.moveState(o.issue, from ?? '', o.to)).current
  }
  const mark = {
    at: o.at.toISOString(),
    from,
    to: o.to,
    by: o.by,
    halted: o.record.halted
  }
  const record: IssueRecord = {
    ...unhalted(o.record),
    restarts: [...(o.record.restarts ?? []), mark].slice(-MAX_RESTARTS)
  }
  delete record.continuation
  delete record.waiting
  if (hasFlag(o.issue.labels, NEEDS_ATTENTION_LABEL)) {
    await o.tracker.setFlag(o.issue, NEEDS_ATTENTION_LABEL, false)
  }
  await o.tracker.comment(o.issue, {
    key: `itervox:restart:${mark.at}`,
    body: `**${o.by} restarted the pipeline in "${o.to}"**${from ? ` (it was in "${from}")` : ''}. The earlier stages' handoffs stay on the branch for the next agent.`
  })
  await o.tracker.saveRecord(o.issue, record)
  const labels = withFlag(o.issue.labels, NEEDS_ATTENTION_LABEL, false)
  return { issue: { ...o.issue, state, labels }, record }
}
