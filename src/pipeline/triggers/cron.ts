// cron: an automation's schedule reached a slot. The scheduled reconcile fires each slot once
// (tracker/cron-fire.ts) and wakes every issue the automation's filter admits, naming the
// automation and the slot in the wake-up's step; the job checks both against WORKFLOW.md again,
// since a wake-up is untrusted, and runs the automation once per issue and slot.
import { createHash } from 'node:crypto'
import type { AutomationConfig } from '../../config/types.js'
import { cronSlots } from '../../config/cron.js'
import type { AutomationEvent } from '../ports.js'
import { currentPlace, type TriggerRule } from './rule.js'

type Cron = Extract<AutomationEvent, { type: 'cron' }>

const STEP = /^cron-(\d{12})-([A-Za-z0-9_-]{1,60})$/

/**
 * How a wake-up step and a ref name an automation: its id when that is a plain word of up to
 * 40 characters, else a hash of it (ids are compared ignoring case, as WORKFLOW.md reads them).
 */
export function cronToken(id: string): string {
  const plain = id.toLowerCase()
  if (/^[a-z0-9_-]{1,40}$/.test(plain)) return plain
  return `h${createHash('sha256').update(plain).digest('hex').slice(0, 32)}`
}

/** A slot as the step and the refs write it: its UTC minute, `YYYYMMDDHHMM`. */
export function slotStamp(slot: Date): string {
  return slot.toISOString().slice(0, 16).replace(/[-T:]/g, '')
}

/** The instant a stamp names, or undefined when it names none. */
export function stampSlot(stamp: string): Date | undefined {
  const m = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(stamp)
  if (!m) return undefined
  const d = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:00Z`)
  return Number.isNaN(d.getTime()) || slotStamp(d) !== stamp ? undefined : d
}

/** The wake-up step that runs `automation` for `slot`. */
export function cronStep(automation: AutomationConfig, slot: Date): string {
  return `cron-${slotStamp(slot)}-${cronToken(automation.id)}`
}

/** The cron event a wake-up's step names, or undefined when it names none. */
export function cronEvent(step: string | undefined): Cron | undefined {
  const m = STEP.exec(step ?? '')
  if (!m || !stampSlot(m[1]!)) return undefined
  return { type: 'cron', slot: m[1]!, automation: m[2]! }
}

export const cronFired: TriggerRule<Cron> = {
  type: 'cron',
  occasion(e, c) {
    const slot = stampSlot(e.slot)!
    if (slot.getTime() > c.now.getTime())
      return { skip: `the slot ${slot.toISOString()} has not come yet` }
    const place = currentPlace(c)
    if (!place) return { skip: `${c.issue.identifier} carries no state` }
    return {
      ...place,
      key: `cron-${e.slot}`,
      about: `The schedule of this automation reached its slot of ${slot.toISOString()}; the automation runs on ${c.issue.identifier} once for that slot.`
    }
  },
  conditions(a, e) {
    const slot = stampSlot(e.slot)!
    const t = a.trigger
    const due =
      t.type === 'cron' &&
      cronSlots(t.schedule, new Date(slot.getTime() - 60_000), slot).length === 1
    return [cronToken(a.id) === e.automation, due]
  }
}
