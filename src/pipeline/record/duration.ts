/**
 * A duration for people: `45s`, `3m 7s`, `2h 5m`; '' for anything that is not one (a record's
 * figure may have been edited). With `tenths`, under a minute reads `4.2s`, so a live clock
 * visibly moves.
 */
export function formatDuration(ms: number, o: { tenths?: boolean } = {}): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return ''
  if (o.tenths && ms < 60_000) return `${(ms / 1000).toFixed(1)}s`
  const s = Math.round(ms / 1000)
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`
}
