/**
 * Five-field cron expressions, read as the itervox daemon reads them (robfig/cron's standard
 * parser), in an IANA time zone, and the minutes between two instants that they name.
 */
export interface CronSchedule {
  /** As written, without a CRON_TZ= prefix. */
  expression: string
  /** IANA name; UTC when none was given. */
  timeZone: string
  minutes: readonly number[]
  hours: readonly number[]
  daysOfMonth: readonly number[]
  months: readonly number[]
  /** 0 is Sunday. */
  daysOfWeek: readonly number[]
  /** Written as `*` or `?`: the other day field alone decides (else either may match). */
  anyDayOfMonth: boolean
  anyDayOfWeek: boolean
}

interface Field {
  name: string
  min: number
  max: number
  names?: readonly string[]
}

const FIELDS: readonly Field[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
  },
  // 7 is Sunday too, as in most crons.
  { name: 'day-of-week', min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] }
]

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *'
}

const SHAPE =
  'write 5 fields, minute hour day-of-month month day-of-week, e.g. "0 9 * * 1-5", or @hourly, @daily, @weekly, @monthly, @yearly'

export type CronParse = { schedule: CronSchedule } | { error: string }

/**
 * Reads `expression` in `timeZone` (undefined: a `CRON_TZ=`/`TZ=` prefix, else UTC). Errors
 * say what to write and never quote the expression, which may have come from the environment.
 */
export function parseCron(expression: string, timeZone?: string): CronParse {
  let text = expression.trim()
  let zone = timeZone
  const prefix = /^(?:CRON_TZ|TZ)=(\S+)\s+/.exec(text)
  if (prefix) {
    if (zone !== undefined) {
      return { error: 'names a time zone twice (CRON_TZ= and timezone); keep one' }
    }
    zone = prefix[1]
    text = text.slice(prefix[0].length)
  }
  zone ??= 'UTC'
  if (!isTimeZone(zone)) {
    return { error: 'unknown time zone; use an IANA name such as Europe/Prague or UTC' }
  }
  if (text.startsWith('@every')) {
    return {
      error: `@every counts from when the daemon started, which a CI schedule has no notion of; ${SHAPE}`
    }
  }
  const fields = (DESCRIPTORS[text.toLowerCase()] ?? text).split(/\s+/)
  if (fields.length !== 5) return { error: `has ${fields.length} fields; ${SHAPE}` }
  const values: number[][] = []
  for (const [i, field] of FIELDS.entries()) {
    const read = readField(fields[i]!, field)
    if (typeof read === 'string') return { error: read }
    values.push(read)
  }
  const dow = [...new Set(values[4]!.map((d) => d % 7))].sort((a, b) => a - b)
  return {
    schedule: {
      expression: text,
      timeZone: zone,
      minutes: values[0]!,
      hours: values[1]!,
      daysOfMonth: values[2]!,
      months: values[3]!,
      daysOfWeek: dow,
      anyDayOfMonth: isAny(fields[2]!),
      anyDayOfWeek: isAny(fields[4]!)
    }
  }
}

function isAny(field: string): boolean {
  return field === '*' || field === '?'
}

/** A field's values, sorted, or what is wrong with it. */
function readField(text: string, field: Field): number[] | string {
  const wrong = `the ${field.name} field is not valid: use *, a number or name in ${field.min}-${field.max}, a range a-b, a step */n or a-b/n, or a list of these joined by commas`
  const out = new Set<number>()
  for (const item of text.split(',')) {
    const m = /^(\*|\?|[A-Za-z0-9]+)(?:-([A-Za-z0-9]+))?(?:\/(\d+))?$/.exec(item)
    if (!m) return wrong
    const [, first, last, stepText] = m
    const any = first === '*' || first === '?'
    if (any && last !== undefined) return wrong
    if (first === '?' && !field.name.startsWith('day')) return wrong
    const lo = any ? field.min : valueOf(first!, field)
    // "a/n" runs from a to the field's end, as in robfig/cron.
    const hi =
      any || (stepText !== undefined && last === undefined)
        ? field.max
        : last === undefined
          ? lo
          : valueOf(last, field)
    const step = stepText === undefined ? 1 : Number(stepText)
    if (lo === undefined || hi === undefined || lo > hi || step < 1) return wrong
    for (let v = lo; v <= hi; v += step) out.add(v)
  }
  return [...out].sort((a, b) => a - b)
}

function valueOf(token: string, field: Field): number | undefined {
  const named = field.names?.indexOf(token.toLowerCase()) ?? -1
  if (named >= 0) return named + field.min
  if (!/^\d+$/.test(token)) return undefined
  const n = Number(token)
  return n >= field.min && n <= field.max ? n : undefined
}

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric'
    })
    formatters.set(zone, f)
  }
  return f
}

function isTimeZone(zone: string): boolean {
  try {
    formatter(zone)
    return true
  } catch {
    return false
  }
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** How far `zone`'s wall clock is ahead of UTC at the instant `ms`, in ms. */
export function offsetAt(zone: string, ms: number): number {
  const parts: Record<string, number> = {}
  for (const p of formatter(zone).formatToParts(ms)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value)
  }
  const wall = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!
  )
  return wall - Math.floor(ms / 1000) * 1000
}

/** Whether the wall-clock time `wall` (ms, read as UTC) is one the schedule names. */
function matchesWall(s: CronSchedule, wall: number): boolean {
  const d = new Date(wall)
  if (!s.minutes.includes(d.getUTCMinutes()) || !s.hours.includes(d.getUTCHours())) return false
  if (!s.months.includes(d.getUTCMonth() + 1)) return false
  const dom = s.daysOfMonth.includes(d.getUTCDate())
  const dow = s.daysOfWeek.includes(d.getUTCDay())
  return s.anyDayOfMonth || s.anyDayOfWeek ? dom && dow : dom || dow
}

/**
 * The slots of `schedule` after `after` and up to `until` (inclusive), oldest first: each
 * whole minute whose wall-clock time in the schedule's zone matches. A wall-clock time that a
 * daylight-saving change skips has no slot; one it repeats has one, at its first occurrence.
 */
export function cronSlots(schedule: CronSchedule, after: Date, until: Date): Date[] {
  const zone = schedule.timeZone
  const out: Date[] = []
  let hour = NaN
  // An hour's offset, or undefined when it changes within that hour.
  let hourOffset: number | undefined
  for (
    let t = Math.floor(after.getTime() / MINUTE) * MINUTE + MINUTE;
    t <= until.getTime();
    t += MINUTE
  ) {
    const h = t - (t % HOUR)
    if (h !== hour) {
      hour = h
      const start = offsetAt(zone, h)
      hourOffset = start === offsetAt(zone, h + HOUR - MINUTE) ? start : undefined
    }
    const offset = hourOffset ?? offsetAt(zone, t)
    if (matchesWall(schedule, t + offset) && !isRepeat(zone, t, offset)) out.push(new Date(t))
  }
  return out
}

/** Whether the wall-clock time at `t` was already shown earlier (a clock set back). */
function isRepeat(zone: string, t: number, offset: number): boolean {
  const before = offsetAt(zone, t - DAY)
  if (before <= offset) return false
  // The same wall time, before the clock went back.
  return offsetAt(zone, t - (before - offset)) === before
}
