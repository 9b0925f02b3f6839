// The candidates of a committed handoff directory, read from its raw tree without parsing
// every entry. Git keeps a tree's names in byte order, and a handoff name
// `YYYY-MM-DDTHH-MM-SS.mmmZ_…` sorts by its instant in that same order, so the newest of them
// are the tree's last; only names of other shapes (rare) are parsed and sorted. The result is
// exactly `selectCandidates` over the branch's own entries, which is what runs whenever a tree
// breaks that order.
import type { RawTree, TreeEntry } from '../git/raw-tree.js'
import {
  Skips,
  capOf,
  compareCandidates,
  isIgnored,
  isSafeName,
  ownNamesOf,
  selectCandidates,
  skipOf,
  type CandidateOptions,
  type Candidates
} from './candidates.js'
import { handoffSortKey } from './naming.js'

const LISTED_CHANGED = 10

/**
 * The candidates at `head`, leaving out every name `since` (the fork point's directory, or
 * null when there is none) already had: those are earlier issues' deliverables.
 */
export function treeCandidates(
  head: RawTree,
  since: RawTree | null,
  opts: CandidateOptions
): Candidates<TreeEntry> {
  // The leading entries the fork point holds byte for byte are never shown nor reported.
  const shared = since ? head.commonLeadingEntries(since) : 0
  if (!head.namesAscend() || (since && !since.namesAscend(Math.max(0, shared - 1)))) {
    return fromEntries(head.entries(), since?.entries() ?? null, opts)
  }
  const ownNames = ownNamesOf(opts)
  const ownBytes = ownNames.map((n) => Buffer.from(n))
  const skips = new Skips()
  const changed: string[] = []
  let changedCount = 0
  const plain: number[] = []
  const other: { key: string; name: string; i: number }[] = []
  let j = shared
  for (let i = shared; i < head.count; i++) {
    if (since) {
      while (j < since.count && head.compareNames(i, since, j) > 0) j++
      if (j < since.count && head.compareNames(i, since, j) === 0) {
        if (!head.sameOid(i, since, j) && isSafeName(head.name(i))) {
          if (changedCount++ < LISTED_CHANGED) changed.push(head.name(i))
        }
        continue
      }
    }
    const from = head.nameStart(i)
    const to = head.nameEnd(i)
    const data = head.data
    if (!endsWithMd(data, from, to)) continue
    if (head.isPlainFile(i) && isTimestamped(data, from, to)) {
      if (!ownBytes.some((b) => b.length === to - from && b.equals(data.subarray(from, to)))) {
        plain.push(i)
      }
      continue
    }
    const e = head.entry(i)
    if (isIgnored(e, ownNames)) continue
    const skip = skipOf(e)
    if (skip) skips.add(skip.reason, skip.shown)
    else other.push({ key: handoffSortKey(e.name), name: e.name, i })
  }
  other.sort(compareCandidates)

  // Both runs are oldest first; merging them from their newest ends gives the candidates.
  const named = (i: number) => {
    const name = head.name(i)
    return { key: handoffSortKey(name), name, i }
  }
  let p = plain.length - 1
  let o = other.length - 1
  const nextNewest = (): { name: string; i: number } => {
    const a = p >= 0 ? named(plain[p]!) : null
    const b = o >= 0 ? other[o]! : null
    if (a && (!b || compareCandidates(a, b) > 0)) {
      p--
      return a
    }
    o--
    return b as { name: string; i: number }
  }
  const kept = plain.length + other.length
  const oldest = () => {
    const a = plain.length > 0 ? named(plain[0]!) : null
    const b = other[0]
    return (a && (!b || compareCandidates(a, b) < 0) ? a : (b as { name: string })).name
  }
  const newest: TreeEntry[] = []
  const take = Math.min(kept, Math.max(0, Math.floor(opts.maxFiles)))
  for (let n = 0; n < take; n++) newest.push(head.entry(nextNewest().i))
  // The cap's warning names the oldest candidate and the newest one it left out.
  const newestLeftOut = take < kept ? nextNewest().name : ''
  const cap = capOf(kept, opts, (ascending) => (ascending === 0 ? oldest() : newestLeftOut))
  const warnings = skips.warnings()
  if (cap.warning) warnings.push(cap.warning)
  if (changedCount > 0) warnings.unshift(changedWarning(changedCount, changed))
  return { entries: newest, omitted: cap.omitted, warnings }
}

/** The same from fully parsed listings: the reference the raw walk must equal. */
export function fromEntries(
  head: TreeEntry[],
  since: TreeEntry[] | null,
  opts: CandidateOptions
): Candidates<TreeEntry> {
  if (!since) return selectCandidates(head, opts)
  const oids = new Map(since.map((e) => [e.name, e.oid]))
  const changed: string[] = []
  const own = head.filter((e) => {
    const oid = oids.get(e.name)
    if (oid !== undefined && oid !== e.oid && isSafeName(e.name)) changed.push(e.name)
    return oid === undefined
  })
  const found = selectCandidates(own, opts)
  if (changed.length > 0) {
    found.warnings.unshift(changedWarning(changed.length, changed.slice(0, LISTED_CHANGED)))
  }
  return found
}

// A name the base branch already had at the fork point is another issue's deliverable, also
// when this branch changed its text.
function changedWarning(count: number, names: string[]): string {
  const shown = names.join(', ') + (count > LISTED_CHANGED ? ', …' : '')
  const one = count === 1
  return `left out ${count} handoff file${one ? '' : 's'} that ${one ? 'was' : 'were'} on the base branch before this branch left it, though this branch changed ${one ? 'it' : 'them'}: ${shown}`
}

const endsWithMd = (data: Buffer, from: number, to: number): boolean =>
  to - from >= 3 && data[to - 3] === 0x2e && data[to - 2] === 0x6d && data[to - 1] === 0x64

// `YYYY-MM-DDTHH-MM-SS.mmmZ_`, then only [A-Za-z0-9._-], at most 255 bytes: a safe name whose
// sort key orders as its bytes do.
const SHAPE = 'dddd-dd-ddTdd-dd-dd.dddZ_'
const SAFE = new Uint8Array(256)
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-') {
  SAFE[c.charCodeAt(0)] = 1
}
function isTimestamped(data: Buffer, from: number, to: number): boolean {
  if (to - from > 255 || to - from < SHAPE.length + 3) return false
  for (let k = 0; k < SHAPE.length; k++) {
    const c = data[from + k]!
    const want = SHAPE.charCodeAt(k)
    if (want === 0x64 /* d */ ? c < 0x30 || c > 0x39 : c !== want) return false
  }
  for (let k = from + SHAPE.length; k < to; k++) if (!SAFE[data[k]!]) return false
  return true
}
