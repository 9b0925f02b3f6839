// The job loop's hook at its decide and plan step: whether this job answers an automation's
// event, and the stage it runs. An automation's run is a helper run, as in the daemon: it runs
// in the state the event belongs to, for the entry it belongs to, claimed for its event (a
// second delivery runs nothing), and moves the issue only when its policy or its agent asks.
import { sameState } from '../../config/lookup.js'
import type { AutomationConfig, WorkflowConfig } from '../../config/types.js'
import type { Issue } from '../ports.js'
import type { JobTrigger } from '../ports.js'
import type { IssueRecord } from '../record/record.js'
import type { AutomationEvent } from '../ports.js'
import { cronEvent } from './cron.js'
import { automationFor } from './index.js'
import { backlogMove } from './moved-to-backlog.js'

/** The wake-up steps the pipeline sends for the events it finds itself (automation-wakes.ts). */
export const RUN_FAILED_STEP = 'run-failed'
export const INPUT_REQUIRED_STEP = 'input-required'
/** The wake-up that resumes a waiting stage with an automation's answer (auto-resume.ts). */
export const ANSWERED_STEP = 'input-answered'

/** What an automation's run is for, on its plan: its prompt section and its record. */
export interface AutomationRun {
  id: string
  type: AutomationEvent['type']
  /** Names the event: one run per event (the claim, the trailer, the record). */
  key: string
  about: string
  text?: { author: string; body: string }
}

/**
 * The event this job answers, or null for a stage of the pipeline's own. A comment that
 * approves (`/approve`, turned into a label trigger before this) or replies to the question a
 * stage of the current entry waits on keeps that meaning and is no tracker_comment_added event.
 */
function eventOf(
  config: WorkflowConfig,
  t: JobTrigger,
  issue: Issue,
  record: IssueRecord
): AutomationEvent | null {
  const e = t.event
  if (e?.type === 'tracker_comment_added') {
    if (t.source !== 'comment') return null
    const w = record.waiting
    const reply = w && w.entry === record.entry && issue.state && sameState(w.state, issue.state)
    const any = config.automations.some((a) => a.trigger.type === e.type)
    return reply || !any ? null : e
  }
  if (e) return e
  if (t.source === 'wake' && t.wake?.step === RUN_FAILED_STEP) {
    return { type: 'run_failed', entry: t.wake.entry }
  }
  const cron = t.source === 'wake' ? cronEvent(t.wake?.step) : undefined
  if (cron) return cron
  if (t.source === 'wake' && t.wake?.step === INPUT_REQUIRED_STEP) {
    return { type: 'input_required', entry: t.wake.entry }
  }
  const label = t.source === 'label' ? t.label : undefined
  const backlog = label && config.tracker.backlogStates.find((s) => sameState(s, label))
  if (backlog) return { type: 'issue_moved_to_backlog', state: backlog, at: t.at || undefined }
  // Linear's relay and reconcile wake the issue in its backlog state; the move's time is Linear's.
  const stale = t.state && issue.state && !sameState(t.state, issue.state)
  if (t.source === 'wake' && !t.wake?.step && !stale) return backlogMove(config, issue) ?? null
  return null
}

/** An automation's run this job makes: its state and entry, the automation, what it is for. */
export interface FiredRun {
  state: string
  entry: number
  automation: AutomationConfig
  run: AutomationRun
}

/** The automation run this job makes, why it makes none, or null when it answers no event. */
export function automationRun(
  config: WorkflowConfig,
  t: JobTrigger,
  issue: Issue,
  record: IssueRecord,
  now: Date
): FiredRun | { skip: string } | null {
  const event = eventOf(config, t, issue, record)
  if (!event) return null
  const fired = automationFor(event, { config, issue, record, now })
  if ('skip' in fired) return { skip: `${event.type}: ${fired.skip}` }
  const { automation: a, occasion: o } = fired
  const ran = record.stages.some((s) => s.automation?.id === a.id && s.automation.event === o.key)
  if (ran) return { skip: `automation ${a.id} already ran for ${o.key}` }
  return {
    state: o.state,
    entry: o.entry,
    automation: a,
    run: { id: a.id, type: event.type, key: o.key, about: o.about, text: o.text }
  }
}
