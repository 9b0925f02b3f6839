// A state WORKFLOW.md no longer has (renamed or removed on the default branch) while an issue is
// in it: the issue's label names nothing the pipeline knows, so no job would start anything and
// the status comment would go on naming the old state. Seen from the record, which names the
// states the pipeline moved the issue through, it is stopped on purpose and says so.
import { knownStates, sameState } from '../../config/lookup.js'
import type { WorkflowConfig } from '../../config/types.js'
import type { Issue, Tracker } from '../ports.js'
import { hasFlag } from './flags.js'
import { NEEDS_ATTENTION_LABEL } from '../names.js'
import type { IssueRecord } from '../record/record.js'
import { oneLine } from '../untrusted-text.js'

/**
 * The state the issue is still labelled with that its record knew as a state and WORKFLOW.md
 * no longer has; undefined when the issue is in a known state, or carries no such label (a
 * person took it out of the pipeline).
 */
export function vanishedState(
  config: WorkflowConfig,
  issue: Issue,
  record: IssueRecord | null
): string | undefined {
  if (issue.state !== null || issue.closed || !record) return undefined
  const known = knownStates(config)
  return recordStates(record).find(
    (s) => !known.some((k) => sameState(k, s)) && issue.labels.some((l) => sameState(l, s))
  )
}

/** Every state the record names: entered, visited, moved to or to be woken in. */
function recordStates(r: IssueRecord): string[] {
  const named = [
    ...(r.owed?.effects ?? []).flatMap((e) =>
      e.kind === 'move' ? [e.to] : e.kind === 'wake' ? [e.state] : []
    ),
    ...(r.pendingMove !== undefined ? [r.pendingMove] : []),
    ...(r.continuation ? [r.continuation.state] : []),
    ...(r.state !== null ? [r.state] : []),
    ...(r.visited ?? []),
    ...r.stages.map((s) => s.state)
  ]
  return named.filter((s, i) => named.findIndex((t) => sameState(t, s)) === i)
}

/** Why the pipeline stopped, as the record and the job's line say it. */
export function vanishedWhy(state: string): string {
  return `the state "${oneLine(state)}" is no longer in WORKFLOW.md, and the issue is still labelled with it`
}

/**
 * Stops the issue's pipeline visibly: the record halted (the status comment shows it), a
 * comment saying what to do, and `needs-attention`. Idempotent: what is already so is not
 * written again. Returns the record as saved.
 */
export async function escalateVanished(
  tracker: Tracker,
  issue: Issue,
  record: IssueRecord,
  state: string,
  config: WorkflowConfig
): Promise<IssueRecord> {
  const halted = `${vanishedWhy(state)}; rename the label to the state's new name, or move the issue to the state it belongs in`
  const known = knownStates(config)
    .map((s) => `"${s}"`)
    .join(', ')
  const body = `**The itervox pipeline stopped: ${vanishedWhy(state)}.** WORKFLOW.md on the default branch has the states ${known}. Rename the label "${oneLine(state)}" to the state's new name, or move the issue to the state it belongs in (a person with write access), and the pipeline starts that state's stage.\n\n${tracker.runLine(null)}`
  const word = oneLine(state).replace(/[^A-Za-z0-9._-]/g, '-')
  await tracker.comment(issue, { key: `itervox:vanished:${record.entry}:${word}`, body })
  if (!hasFlag(issue.labels, NEEDS_ATTENTION_LABEL)) {
    await tracker.setFlag(issue, NEEDS_ATTENTION_LABEL, true)
  }
  if (record.halted === halted) return record
  const after = { ...record, halted }
  await tracker.saveRecord(issue, after)
  return after
}
