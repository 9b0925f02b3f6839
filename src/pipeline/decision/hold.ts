// The job loop's hook for what may hold a planned stage before anything of it happens: the
// approval gate (approval.ts), the stop switch (pause.ts), a closed pull request among it, and
// open blockers (blocker-hold.ts). A held stage leaves the record saying why, which the status
// comment shows, and starts later from the record alone.
import type { AutomationConfig, WorkflowConfig } from '../../config/types.js'
import type { Issue, JobTrigger, Tracker } from '../ports.js'
import { APPROVED_LABEL, passGate, type ApprovalKind } from './approval.js'
import { isBot } from './actor.js'
import { blockedStart } from './blocker-hold.js'
import { PAUSED_LABEL, pausedBy, pausedByClosedPull, withPause } from '../record/pause.js'
import type { StagePlan } from './plan.js'
import { recordStart, type IssueRecord } from '../record/record.js'
import { owedWake } from '../record/stage-owed.js'
import { oneLine } from '../untrusted-text.js'

/**
 * The record to go on with (the entry's start, its approval, the pause) and whether it differs
 * from the one read; then the stage to run, or why it does not.
 */
export type Held = { record: IssueRecord; changed: boolean } & (
  { plan: StagePlan } | { skip: string }
)

export async function holdStage(o: {
  config: WorkflowConfig
  tracker: Tracker
  issue: Issue
  record: IssueRecord
  state: string
  automation: AutomationConfig
  plan: StagePlan
  trigger: JobTrigger
  approval: ApprovalKind | undefined
  /** The action's `paused` input: the whole repository is paused. */
  paused: boolean
}): Promise<Held> {
  const { plan, trigger: t } = o
  if (o.approval === 'label' && !o.issue.labels.some(isApprovedLabel)) {
    const skip = `the ${APPROVED_LABEL} label is no longer on the issue`
    return { skip, changed: false, record: o.record }
  }
  const blocked = await blockedStart(o)
  if (blocked) return { skip: blocked, changed: false, record: o.record }
  let record = o.record
  if (plan.newEntry) {
    record = recordStart(record, o.state, plan)
    // Who may not approve this pipeline's gates (approval.distinct_approver).
    if (!isBot(t.actor.login, t.actor.type)) record.startedBy = t.actor.login
  }
  const started = { ...plan, newEntry: false }
  const gate = passGate({ ...o, record, plan: started })
  if ('skip' in gate) return { skip: gate.skip, changed: false, record: o.record }
  if ('hold' in gate) {
    if (gate.clearLabel) await o.tracker.setFlag(o.issue, APPROVED_LABEL, false)
    return { skip: gate.hold, ...saved(o.record, gate.record) }
  }
  const switched = pausedBy(o.issue.labels, o.paused)
  const pull = switched === undefined ? await pullOf(o.tracker, o.issue, gate.pass) : undefined
  const closed = pull?.state === 'closed' ? pull.number : undefined
  const paused = switched ?? (closed !== undefined ? pausedByClosedPull(closed) : undefined)
  let after = withPause(gate.pass, paused, closed)
  if (pull?.state === 'merged') {
    // Its work is in the base: what follows goes to a new pull request.
    after = { ...after }
    delete after.pullRequest
    delete after.pullRequestNode
    await o.tracker.comment(o.issue, {
      key: `itervox:pull-merged:${pull.number}`,
      body: `**Pull request #${pull.number} was merged while the pipeline was in "${oneLine(o.state)}"**, so the pipeline goes on from the merged work: the ${plan.profile} stage runs on the issue branch (made again from that work if the branch was deleted), with the earlier stages' handoffs still in its prompt, and its work goes to a new pull request. To stop the pipeline instead, add the ${PAUSED_LABEL} label.\n\n${o.tracker.runLine(null)}`
    })
  }
  if (closed !== undefined) {
    await o.tracker.comment(o.issue, {
      key: `itervox:pull-closed:${closed}:${started.entry}`,
      body: `**Pull request #${closed} was closed, so the pipeline is paused** in "${oneLine(o.state)}": the ${plan.profile} stage did not start, and nothing is lost. Reopen the pull request to resume it here.\n\n${o.tracker.runLine(null)}`
    })
  }
  if (paused)
    return { skip: `the ${plan.profile} stage did not start: ${paused}`, ...saved(o.record, after) }
  // The label is spent: the next gated entry needs an approval of its own.
  if (o.approval === 'label') await o.tracker.setFlag(o.issue, APPROVED_LABEL, false)
  return { plan: started, ...saved(o.record, after) }
}

/** The issue's pull request, when a person closed or merged it; one request. */
async function pullOf(
  tracker: Tracker,
  issue: Issue,
  record: IssueRecord
): Promise<{ number: number; state: 'closed' | 'merged' } | undefined> {
  const pr = record.pullRequest
  if (pr === undefined || issue.isPullRequest || !tracker.pullState) return undefined
  const state = await tracker.pullState(pr)
  return state === 'open' ? undefined : { number: pr, state }
}

/** The held record, and whether it differs from the one read (saving it costs a request). */
function saved(before: IssueRecord, after: IssueRecord): { record: IssueRecord; changed: boolean } {
  return { record: after, changed: JSON.stringify(before) !== JSON.stringify(after) }
}

function isApprovedLabel(l: string): boolean {
  return l.toLowerCase() === APPROVED_LABEL
}

/**
 * The stop switch was taken off the issue: this job becomes the wake-up of what the record says
 * is owed (as the scheduled reconcile would send), or ends when nothing is.
 */
export function resumed(
  config: WorkflowConfig,
  t: JobTrigger,
  issue: Issue,
  record: IssueRecord
): JobTrigger | { skip: string } {
  const need = owedWake({ config, state: issue.state, record, labels: issue.labels })
  if ('skip' in need) return { skip: `resumed; nothing to start: ${issue.identifier} ${need.skip}` }
  return {
    source: 'wake',
    issue: t.issue,
    actor: t.actor,
    state: need.wake.state,
    wake: { entry: need.wake.entry, step: need.wake.step || undefined }
  }
}
