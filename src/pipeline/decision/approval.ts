// Approval gates: a state whose automation has policy.require_approval runs its stage only
// after a person with write access approves that entry into it, by adding the
// `itervox-approved` label or commenting `/approve`. The tracker has already checked the
// approver's permission live (Tracker.authorize) before this is asked; what is decided here is
// whether the entry waits, and whether this approval counts. An agent never approves: it holds
// no token, and its requests cannot carry the command (see requests.ts).
import { sameState } from '../../config/lookup.js'
import type { AutomationConfig, WorkflowConfig } from '../../config/types.js'
import { isBot } from './actor.js'
import type { StagePlan } from './plan.js'
import type { JobTrigger } from '../ports.js'
import type { IssueRecord } from '../record/record.js'
import { oneLine } from '../untrusted-text.js'

export const APPROVED_LABEL = 'itervox-approved'

const COMMAND = /^[ \t]*\/approve[ \t]*$/im

/** A person's comment approves when its first line is `/approve`. */
function isApproveCommand(body: string): boolean {
  const first = body.replace(/^\s*\n/, '').split('\n')[0] ?? ''
  return /^[ \t]*\/approve[ \t]*\r?$/i.test(first)
}

/** Whether agent-written text holds a line that reads as the approval command. */
export function carriesApproval(text: string): boolean {
  return COMMAND.test(text.replace(/\r/g, ''))
}

/** How the trigger approves, if it is an approval: the label, or the command in a comment. */
export type ApprovalKind = 'label' | 'comment'

export function approvalOf(t: JobTrigger): ApprovalKind | undefined {
  if (t.source === 'label' && t.label?.toLowerCase() === APPROVED_LABEL) return 'label'
  // An automation's answer is an agent's words: it approves nothing.
  if (t.source === 'comment' && t.reply && !t.reply.automation && isApproveCommand(t.reply.body)) {
    return 'comment'
  }
  return undefined
}

/**
 * An approval is planned as a person's event for the state the issue is in now (not as the
 * label or the reply it came as): it approves the entry current when it was given.
 */
export function asApproval(t: JobTrigger): JobTrigger {
  const planned: JobTrigger = { ...t, source: 'label' }
  delete planned.label
  delete planned.reply
  return planned
}

/** Why this approval is refused before anything is planned: a bot (or app) never approves. */
export function botApproval(t: JobTrigger): string | undefined {
  if (!isBot(t.actor.login, t.actor.type)) return undefined
  return `@${oneLine(t.actor.login)} is a bot and cannot approve; a person with write access must`
}

export type GateDecision =
  /** The stage may start; the record holds the approval. */
  | { pass: IssueRecord }
  /** The stage waits; the record says for what. `clearLabel`: take the spent label off. */
  | { hold: string; record: IssueRecord; clearLabel: boolean }
  | { skip: string }

/**
 * Whether the stage `plan` may start. `record` already holds the entry's start. Only the
 * first run of an entry's own work waits: its retries and reviews belong to the approved entry.
 */
export function passGate(o: {
  config: WorkflowConfig
  automation: AutomationConfig
  state: string
  record: IssueRecord
  plan: StagePlan
  trigger: JobTrigger
  approval: ApprovalKind | undefined
}): GateDecision {
  const { record, plan, state } = o
  const a = record.approval
  const approved = a?.by !== undefined && a.entry === plan.entry && sameState(a.state, state)
  const gated =
    o.automation.requireApproval === true &&
    // The person at the CLI runs each stage themselves; a local issue file has no permissions.
    o.trigger.source !== 'cli' &&
    plan.kind === 'work' &&
    plan.attempt === 0 &&
    plan.round === 0 &&
    plan.resume === 0
  if (!gated || approved) {
    if (o.approval) return { skip: `no stage of this issue waits for approval in "${state}"` }
    return { pass: record }
  }
  const waiting = { state, entry: plan.entry }
  const wait = (refused?: string): GateDecision => ({
    hold: refused ?? `the ${plan.profile} stage in "${state}" waits for approval`,
    record: { ...record, approval: { ...waiting, refused: refused || undefined } },
    clearLabel: o.approval === 'label'
  })
  if (!o.approval) return wait()
  const who = `@${oneLine(o.trigger.actor.login)}`
  const starter = record.startedBy
  // A wake-up started this entry (a reconcile, a relay, a Linear state change): who moved the
  // issue is not known, so no one can be told apart from them. The gate stays shut.
  if (o.config.approval.distinctApprover && starter === undefined) {
    return wait(
      `no person is recorded as starting this entry (a wake-up started it), so approval.distinct_approver cannot tell ${who} apart from them; a person with write access adds the state label again, or set approval.distinct_approver: false`
    )
  }
  if (
    o.config.approval.distinctApprover &&
    starter !== undefined &&
    starter.toLowerCase() === o.trigger.actor.login.toLowerCase()
  ) {
    return wait(
      `${who} started this pipeline and cannot approve it (approval.distinct_approver: true); another person with write access must`
    )
  }
  return { pass: { ...record, approval: { ...waiting, by: o.trigger.actor.login } } }
}
