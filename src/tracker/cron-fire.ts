// The scheduled reconcile's cron pass: each enabled cron automation fires the latest of its
// slots that came since the newest slot it fired (missed slots collapse into that one, as a
// daemon that was down fires once on its next tick), once across overlapping reconciles (the
// slot's ref is created before any wake-up is sent), and wakes every issue its filter admits,
// naming itself and the slot; the job that wake-up starts runs it once per issue and slot. An
// automation with no ref yet (new, or this runner's first reconcile) records the present
// without firing, as the daemon's first observation fires nothing.
import { sameState } from '../config/lookup.js'
import { cronSlots, type CronSchedule } from '../config/cron.js'
import type { AutomationConfig, WorkflowConfig } from '../config/types.js'
import { messageOf } from '../errors.js'
import type { Issue } from '../pipeline/ports.js'
import { cronStep, cronToken, slotStamp, stampSlot } from '../pipeline/triggers/cron.js'
import { commonFilter } from '../pipeline/triggers/index.js'
import { oneLine } from '../pipeline/untrusted-text.js'
import type { ReconcileSource } from './reconcile-source.js'

/** The slots fired per automation (cron-marks.ts). */
export interface CronMarks {
  /** The stamps (`YYYYMMDDHHMM`) of the slots `token` has fired or recorded. */
  list(token: string): Promise<string[]>
  /** True when this caller now holds the slot (no one fired it before). */
  take(token: string, stamp: string): Promise<boolean>
  drop(token: string, stamp: string): Promise<void>
}

/** How far back a schedule is read: a reconcile off for longer fires its latest slot of a year. */
const LOOKBACK_MS = 366 * 24 * 3600_000
/** Fired slots kept behind the newest: no reconcile judges from one older than this. */
const KEEP_MS = 6 * 3600_000

export interface CronPass {
  source: ReconcileSource
  config: WorkflowConfig
  marks: CronMarks
  now: Date
  dryRun: boolean
  log: (line: string) => void
}

/** Wakes what the cron automations' due slots owe; returns the wake-ups sent and the failures. */
export async function fireCron(o: CronPass): Promise<{ started: number; failed: number }> {
  let started = 0
  let failed = 0
  for (const a of o.config.automations) {
    const t = a.trigger
    if (!a.enabled || t.type !== 'cron') continue
    if (!o.config.agent.profiles[a.profile]?.enabled) continue
    try {
      const slot = await dueSlot(o, a, t.schedule)
      if (!slot) continue
      const sent = await wakeAdmitted(o, a, slot)
      started += sent.started
      failed += sent.failed
    } catch (err) {
      failed++
      o.log(`cron ${a.id}: failed: ${oneLine(messageOf(err))}`)
    }
  }
  return { started, failed }
}

/** The slot this reconcile fires for `a`, taken; undefined when none is due or another took it. */
async function dueSlot(
  o: CronPass,
  a: AutomationConfig,
  schedule: CronSchedule
): Promise<Date | undefined> {
  const token = cronToken(a.id)
  const stamps = (await o.marks.list(token)).sort()
  const newest = stamps.length > 0 ? stampSlot(stamps[stamps.length - 1]!) : undefined
  if (!newest) {
    const stamp = slotStamp(o.now)
    if (o.dryRun) {
      o.log(
        `cron ${a.id}: first look; would record ${o.now.toISOString()} and fire from the next slot`
      )
    } else if (await o.marks.take(token, stamp)) {
      o.log(`cron ${a.id}: first look; recorded ${o.now.toISOString()}, fires from the next slot`)
    }
    return undefined
  }
  const from = new Date(Math.max(newest.getTime(), o.now.getTime() - LOOKBACK_MS))
  const due = cronSlots(schedule, from, o.now)
  const slot = due[due.length - 1]
  if (!slot) {
    o.log(`cron ${a.id}: no slot since ${newest.toISOString()}`)
    return undefined
  }
  const missed =
    due.length > 1
      ? ` (${due.length - 1} earlier slot(s) since the last fire collapse into it)`
      : ''
  if (o.dryRun) {
    o.log(`cron ${a.id}: would fire the slot of ${slot.toISOString()}${missed}`)
    return slot
  }
  if (!(await o.marks.take(token, slotStamp(slot)))) {
    o.log(`cron ${a.id}: another reconcile fired the slot of ${slot.toISOString()}`)
    return undefined
  }
  o.log(`cron ${a.id}: fired the slot of ${slot.toISOString()}${missed}`)
  for (const s of stamps) {
    const at = stampSlot(s)
    if (at && at.getTime() < slot.getTime() - KEEP_MS) {
      await o.marks.drop(token, s).catch(() => undefined)
    }
  }
  return slot
}

/** Wakes each issue `a`'s filter admits (filter.states, else the active states), up to filter.limit. */
async function wakeAdmitted(
  o: CronPass,
  a: AutomationConfig,
  slot: Date
): Promise<{ started: number; failed: number }> {
  const states = a.filter.states.length > 0 ? a.filter.states : o.config.tracker.activeStates
  const seen = new Set<string>()
  const admitted: Issue[] = []
  for (const found of await o.source.list(states, o.log)) {
    if ('problem' in found) continue
    const key = o.source.keyOf(found)
    if (seen.has(key) || !found.state || !states.some((s) => sameState(s, found.state!))) continue
    seen.add(key)
    if (commonFilter(a, { state: found.state }, { issue: found })) admitted.push(found)
  }
  const chosen = a.filter.limit !== undefined ? admitted.slice(0, a.filter.limit) : admitted
  const step = cronStep(a, slot)
  let started = 0
  let failed = 0
  for (const issue of chosen) {
    const at = `${issue.identifier} ${issue.state ?? ''}`.trim()
    if (o.dryRun) {
      started++
      o.log(`${at}: would run automation ${a.id} for the slot of ${slot.toISOString()}`)
      continue
    }
    try {
      const record = await o.source.loadRecord(issue)
      await o.source.wake(issue, { state: issue.state!, entry: record?.entry ?? 0, step })
      started++
      o.log(`${at}: started automation ${a.id} for the slot of ${slot.toISOString()}`)
    } catch (err) {
      failed++
      o.log(`${at}: automation ${a.id} not started: ${oneLine(messageOf(err))}`)
    }
  }
  if (chosen.length === 0) o.log(`cron ${a.id}: no issue its filter admits`)
  return { started, failed }
}
