import { describe, expect, it } from '@jest/globals'
import { type CronSchedule, cronSlots, parseCron } from '../../src/config/cron.js'

function schedule(expression: string, zone?: string): CronSchedule {
  const read = parseCron(expression, zone)
  if ('error' in read) throw new Error(read.error)
  return read.schedule
}

function slots(expression: string, zone: string | undefined, after: string, until: string) {
  return cronSlots(schedule(expression, zone), new Date(after), new Date(until)).map((d) =>
    d.toISOString()
  )
}

describe('parseCron', () => {
  it('reads lists, ranges, steps, names and ? as robfig/cron does', () => {
    expect(schedule('*/20 9-11,14 ? jan-MAR Mon-fri')).toMatchObject({
      timeZone: 'UTC',
      minutes: [0, 20, 40],
      hours: [9, 10, 11, 14],
      months: [1, 2, 3],
      daysOfWeek: [1, 2, 3, 4, 5],
      anyDayOfMonth: true,
      anyDayOfWeek: false
    })
    // "a/n" runs to the field's end; 7 is Sunday.
    expect(schedule('5/15 0 1 * 7')).toMatchObject({ minutes: [5, 20, 35, 50], daysOfWeek: [0] })
    expect(schedule('@daily')).toMatchObject({ minutes: [0], hours: [0], anyDayOfMonth: true })
  })

  it('takes a CRON_TZ= prefix as the zone', () => {
    expect(schedule('CRON_TZ=Asia/Tokyo 0 9 * * *')).toMatchObject({
      expression: '0 9 * * *',
      timeZone: 'Asia/Tokyo'
    })
    expect(parseCron('CRON_TZ=Asia/Tokyo 0 9 * * *', 'UTC')).toEqual({
      error: 'names a time zone twice (CRON_TZ= and timezone); keep one'
    })
  })

  it.each([
    ['0 9 * *', 'has 4 fields; write 5 fields'],
    ['60 * * * *', 'the minute field is not valid'],
    ['0 24 * * *', 'the hour field is not valid'],
    ['0 0 0 * *', 'the day-of-month field is not valid'],
    ['0 0 * 13 *', 'the month field is not valid'],
    ['0 0 * * 8', 'the day-of-week field is not valid'],
    ['5-1 * * * *', 'the minute field is not valid'],
    ['*/0 * * * *', 'the minute field is not valid'],
    ['? * * * *', 'the minute field is not valid'],
    ['0 0 * * funday', 'the day-of-week field is not valid'],
    ['@every 1h', '@every counts from when the daemon started']
  ])('rejects %j', (expression, message) => {
    const read = parseCron(expression)
    expect('error' in read && read.error).toContain(message)
  })

  it('rejects an unknown time zone', () => {
    expect(parseCron('0 9 * * *', 'Europe/Atlantis')).toEqual({
      error: 'unknown time zone; use an IANA name such as Europe/Prague or UTC'
    })
  })
})

describe('cronSlots', () => {
  it('lists the whole minutes after A up to and including B', () => {
    expect(
      slots('*/15 * * * *', undefined, '2025-01-01T10:00:00Z', '2025-01-01T10:45:00Z')
    ).toEqual(['2025-01-01T10:15:00.000Z', '2025-01-01T10:30:00.000Z', '2025-01-01T10:45:00.000Z'])
    expect(slots('0 * * * *', undefined, '2025-01-01T10:00:30Z', '2025-01-01T10:59:59Z')).toEqual(
      []
    )
  })

  it('reads the day fields as either-or when both are restricted, else both', () => {
    // 2025-06-13 is a Friday; the 1st is a Sunday.
    const either = slots('0 12 13 * 5', undefined, '2025-06-01T00:00:00Z', '2025-06-21T00:00:00Z')
    expect(either).toEqual([
      '2025-06-06T12:00:00.000Z',
      '2025-06-13T12:00:00.000Z',
      '2025-06-20T12:00:00.000Z'
    ])
    const fridays = slots('0 12 * * 5', undefined, '2025-06-01T00:00:00Z', '2025-06-14T00:00:00Z')
    expect(fridays).toEqual(['2025-06-06T12:00:00.000Z', '2025-06-13T12:00:00.000Z'])
  })

  it('reads the wall clock of the zone', () => {
    expect(
      slots('0 9 * * 1-5', 'Asia/Kolkata', '2025-03-07T00:00:00Z', '2025-03-11T00:00:00Z')
    ).toEqual(['2025-03-07T03:30:00.000Z', '2025-03-10T03:30:00.000Z'])
  })

  it('skips the wall-clock times a spring-forward removes', () => {
    // New York, 2024-03-10: 02:00 EST jumps to 03:00 EDT.
    expect(
      slots('30 1,2,3 * * *', 'America/New_York', '2024-03-10T05:00:00Z', '2024-03-10T09:00:00Z')
    ).toEqual(['2024-03-10T06:30:00.000Z', '2024-03-10T07:30:00.000Z'])
  })

  it('fires a wall-clock time a fall-back repeats once, at its first occurrence', () => {
    // New York, 2024-11-03: 02:00 EDT goes back to 01:00 EST, so 01:30 happens twice.
    expect(
      slots('30 * * * *', 'America/New_York', '2024-11-03T04:00:00Z', '2024-11-03T08:00:00Z')
    ).toEqual(['2024-11-03T04:30:00.000Z', '2024-11-03T05:30:00.000Z', '2024-11-03T07:30:00.000Z'])
    // A window that starts inside the repeated hour still knows it is a repeat.
    expect(
      slots('30 1 * * *', 'America/New_York', '2024-11-03T06:00:00Z', '2024-11-03T07:00:00Z')
    ).toEqual([])
  })

  it('handles a half-hour daylight-saving change', () => {
    // Lord Howe Island, 2024-04-07: 02:00 (+11) goes back to 01:30 (+10:30).
    expect(
      slots('45 1 * * *', 'Australia/Lord_Howe', '2024-04-06T13:00:00Z', '2024-04-06T16:00:00Z')
    ).toEqual(['2024-04-06T14:45:00.000Z'])
  })
})
