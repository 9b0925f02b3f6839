import { isNode, parseDocument } from 'yaml'
import { cronSlots, offsetAt, parseCron } from '../config/cron.js'
import type { AutomationConfig, TriggerType, WorkflowConfig } from '../config/types.js'

/** GitHub events an automation's trigger arrives on, beyond the label events every stage has. */
export interface TriggerEvent {
  event: 'issue_comment' | 'pull_request' | 'issues'
  type: 'created' | 'opened' | 'closed'
}

/**
 * The event each trigger type needs in the GitHub workflow. The others arrive without one:
 * cron on the reconcile job's schedule; run_failed, input_required and rate_limited at the end
 * of a stage, in its job; issue_moved_to_backlog and issue_entered_state as labels.
 */
const EVENTS: Partial<Record<TriggerType, TriggerEvent>> = {
  tracker_comment_added: { event: 'issue_comment', type: 'created' },
  pr_opened: { event: 'pull_request', type: 'opened' },
  pr_merged: { event: 'pull_request', type: 'closed' },
  blockers_resolved: { event: 'issues', type: 'closed' }
}

/** Automations that run: enabled, of an enabled profile. */
export function runningAutomations(config: WorkflowConfig): AutomationConfig[] {
  return config.automations.filter((a) => a.enabled && config.agent.profiles[a.profile]?.enabled)
}

/** Each running automation with the GitHub event it needs, for a tracker with GitHub's events. */
function triggerEvents(
  config: WorkflowConfig
): { automation: AutomationConfig; index: number; needs: TriggerEvent }[] {
  const out = []
  for (const [index, automation] of config.automations.entries()) {
    const needs = EVENTS[automation.trigger.type]
    if (!needs || !runningAutomations(config).includes(automation)) continue
    // Linear's comments and blockers are Linear's: the reconcile job reads them.
    if (config.tracker.kind === 'linear' && needs.event !== 'pull_request') continue
    out.push({ automation, index, needs })
  }
  return out
}

export function needsEvent(config: WorkflowConfig, event: TriggerEvent['event'], type: string) {
  return triggerEvents(config).some((e) => e.needs.event === event && e.needs.type === type)
}

/** How often the reconcile job runs when no cron automation asks for more. */
const RECONCILE_MINUTES = [0, 15, 30, 45]

/**
 * The reconcile job's cron: every 15 minutes, and at each UTC minute of the hour a cron
 * automation's slot falls on (in summer and in winter), so no slot waits for the next run.
 */
export function reconcileCron(config: WorkflowConfig): string {
  const minutes = new Set(RECONCILE_MINUTES)
  for (const a of runningAutomations(config)) {
    if (a.trigger.type !== 'cron') continue
    const { schedule } = a.trigger
    const year = new Date().getUTCFullYear()
    for (const sample of [Date.UTC(year, 0, 1), Date.UTC(year, 6, 1)]) {
      const offset = offsetAt(schedule.timeZone, sample) / 60_000
      for (const m of schedule.minutes) minutes.add((((m - offset) % 60) + 60) % 60)
    }
  }
  if (minutes.size === RECONCILE_MINUTES.length) return '*/15 * * * *'
  return `${[...minutes].sort((a, b) => a - b).join(',')} * * * *`
}

/**
 * The first slot in the coming week of each running cron automation that the workflow's
 * schedules (UTC) do not run at, and how long it would wait for the next run.
 */
function lateCronSlots(
  config: WorkflowConfig,
  scheduleCrons: string[],
  now: Date
): { automation: AutomationConfig; index: number; slot: Date; waitMinutes: number }[] {
  const week = new Date(now.getTime() + 7 * 86_400_000)
  // A day more, to find the run after the week's last slot.
  const horizon = new Date(week.getTime() + 86_400_000)
  const runs = new Set<number>()
  for (const cron of scheduleCrons) {
    const read = parseCron(cron, 'UTC')
    if ('error' in read) continue
    for (const d of cronSlots(read.schedule, now, horizon)) runs.add(d.getTime())
  }
  const sorted = [...runs].sort((a, b) => a - b)
  const out = []
  for (const [index, automation] of config.automations.entries()) {
    const t = automation.trigger
    if (t.type !== 'cron' || !runningAutomations(config).includes(automation)) continue
    const late = cronSlots(t.schedule, now, week).find((s) => !runs.has(s.getTime()))
    if (!late) continue
    const next = sorted.find((r) => r > late.getTime())
    const waitMinutes = next === undefined ? Infinity : (next - late.getTime()) / 60_000
    out.push({ automation, index, slot: late, waitMinutes })
  }
  return out
}

export interface EventProblem {
  line: number
  message: string
}

const REDO = 'or run itervox-handoff init --workflow-only'

/**
 * What the committed GitHub workflow lacks for WORKFLOW.md's automations: an event (or type)
 * a trigger arrives on, and schedules that would start a cron automation's slots late.
 */
export function missingEventProblems(
  text: string,
  config: WorkflowConfig,
  now: Date
): EventProblem[] {
  const doc = parseDocument(text, { keepSourceTokens: false })
  const lineOf = (path: (string | number)[]): number => {
    for (let p = path; p.length > 0; p = p.slice(0, -1)) {
      const node = doc.getIn(p, true)
      if (isNode(node) && node.range) return text.slice(0, node.range[0]).split('\n').length
    }
    return 1
  }
  const on: unknown = doc.toJS()?.on
  const listens = (event: string, type: string): boolean => {
    if (on === event || (Array.isArray(on) && on.includes(event))) return true
    if (!on || typeof on !== 'object' || !(event in on)) return false
    const types = (on as Record<string, { types?: unknown } | null>)[event]?.types
    // No types: GitHub's defaults, which include opened, closed and created.
    return types === undefined || (Array.isArray(types) && types.includes(type))
  }
  const out: EventProblem[] = []
  for (const { automation, index, needs } of triggerEvents(config)) {
    if (listens(needs.event, needs.type)) continue
    out.push({
      line: lineOf(['on', needs.event, 'types']),
      message: `automations[${index}] (${JSON.stringify(automation.id)}, ${automation.trigger.type}) needs the ${needs.event} event of type ${needs.type}, which this workflow does not listen to; add ${needs.type} to on.${needs.event}.types, ${REDO}`
    })
  }
  const schedules = on && typeof on === 'object' && 'schedule' in on ? on.schedule : undefined
  const crons = Array.isArray(schedules)
    ? schedules.flatMap((s: unknown) =>
        s && typeof s === 'object' && 'cron' in s && typeof s.cron === 'string' ? [s.cron] : []
      )
    : []
  for (const late of lateCronSlots(config, crons, now)) {
    const wait = Number.isFinite(late.waitMinutes)
      ? `waits ${late.waitMinutes} minutes for the next scheduled run`
      : 'has no scheduled run to start it'
    out.push({
      line: lineOf(['on', 'schedule']),
      message: `automations[${late.index}] (${JSON.stringify(late.automation.id)}) is a cron automation whose slot at ${late.slot.toISOString()} ${wait}; add its minutes to on.schedule (times in UTC), ${REDO}`
    })
  }
  return out
}
