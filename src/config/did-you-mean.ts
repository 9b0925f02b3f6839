import { quoted } from './source-map.js'

/**
 * Edit distance with adjacent transpositions (optimal string alignment), so `trackr` is one
 * edit from `tracker` and `mvoe_state` one from `move_state`.
 */
export function editDistance(a: string, b: string): number {
  // Every row holds b.length + 1 distances, so each index below is in range.
  let prevPrev: number[] = []
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, prevPrev[j - 2]! + 1)
      }
      row.push(best)
    }
    prevPrev = prev
    prev = row
  }
  return prev[b.length]!
}

/** The candidate closest to `input` (ignoring case), if it is close enough to be a typo. */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  const wanted = input.toLowerCase()
  const limit = wanted.length <= 3 ? 1 : wanted.length <= 6 ? 2 : 3
  let best: string | undefined
  let bestDistance = limit + 1
  for (const candidate of candidates) {
    const other = candidate.toLowerCase()
    if (Math.abs(other.length - wanted.length) >= bestDistance) continue
    const distance = editDistance(wanted, other)
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best
}

/** `; did you mean "x"?` when a candidate is close, else ''. */
export function didYouMean(input: string, candidates: readonly string[]): string {
  const match = closest(input, candidates)
  return match === undefined ? '' : `; did you mean ${quoted(match)}?`
}
