// Which entries of `.itervox/handoff` may be shown as prior handoffs, newest first.
import { baseName, handoffSortKey, partialPathOf } from './naming.js'

/** One entry of the handoff directory (a `TreeEntry`, or a file given as text). */
export interface DirEntry {
  name: string
  mode: string
  type: string
  size: number | null
}

export interface CandidateOptions {
  maxFiles: number
  ownPath?: string
}

export interface Candidates<E extends DirEntry> {
  /** Newest first. */
  entries: E[]
  /** Older candidates left out by the `maxFiles` cap. */
  omitted: number
  warnings: string[]
}

// itervox shows any `*.md` (case-sensitive); we also require a name that cannot break out of
// its `### <name>` header line or look like something else.
const SAFE_NAME = /^[A-Za-z0-9._-]+\.md$/
const MAX_NAME_BYTES = 255

/** A name that may appear in a `### <name>` header (and so in a one-line message). */
export const isSafeName = (name: string): boolean =>
  SAFE_NAME.test(name) && name.length <= MAX_NAME_BYTES
const LISTED_PER_WARNING = 10

/** Tallies skipped `.md` entries by reason, in the order reasons first occur. */
export class Skips {
  private readonly byReason = new Map<string, { count: number; names: string[] }>()

  add(reason: string, shownName: string): void {
    const seen = this.byReason.get(reason) ?? { count: 0, names: [] }
    seen.count++
    if (seen.names.length < LISTED_PER_WARNING) seen.names.push(shownName)
    this.byReason.set(reason, seen)
  }

  warnings(): string[] {
    return [...this.byReason].map(([reason, { count, names }]) => {
      const more = count > LISTED_PER_WARNING ? `, and ${count - LISTED_PER_WARNING} more` : ''
      return `skipped ${count} prior handoff file${count === 1 ? '' : 's'}: ${reason}: ${names.join(', ')}${more}`
    })
  }
}

/** Whether a `.md` entry is left out silently (a directory, or the run's own deliverable). */
export function isIgnored(e: DirEntry, ownNames: string[]): boolean {
  return e.mode === '040000' || e.type === 'tree' || ownNames.includes(e.name)
}

/** The run's own deliverable and its partial, never shown. */
export function ownNamesOf(opts: CandidateOptions): string[] {
  return opts.ownPath ? [baseName(opts.ownPath), baseName(partialPathOf(opts.ownPath))] : []
}

/** Why a `.md` entry that is not ignored cannot be shown, with its name as the warning lists it. */
export function skipOf(e: DirEntry): { reason: string; shown: string } | null {
  if (!isSafeName(e.name)) {
    return { reason: 'names that are not [A-Za-z0-9._-]+.md', shown: quoteName(e.name) }
  }
  if (e.mode === '120000')
    return { reason: 'symbolic links (mode 120000), never followed', shown: e.name }
  if (e.mode === '160000' || e.type === 'commit') {
    return { reason: 'submodules (gitlinks, mode 160000)', shown: e.name }
  }
  if ((e.mode !== '100644' && e.mode !== '100755') || e.type !== 'blob') {
    return { reason: 'entries that are not regular files', shown: `${e.name} (mode ${e.mode})` }
  }
  return null
}

/** The `maxFiles` cap: how many of `kept` are left out, and the warning that says so. */
export function capOf(
  kept: number,
  opts: CandidateOptions,
  nameAt: (ascendingIndex: number) => string
): { max: number; omitted: number; warning?: string } {
  const max = Math.max(0, Math.floor(opts.maxFiles))
  const omitted = Math.max(0, kept - max)
  if (omitted === 0) return { max, omitted }
  const range = omitted === 1 ? nameAt(0) : `${nameAt(0)} … ${nameAt(omitted - 1)}`
  return {
    max,
    omitted,
    warning:
      `only the newest ${max} of ${kept} prior handoff files were considered; ` +
      `${omitted} older ${omitted === 1 ? 'one' : 'ones'} (${range}) ${omitted === 1 ? 'was' : 'were'} left out`
  }
}

/** Older first: by the instant in the name, then by the name (safe names are ASCII). */
export const compareCandidates = (
  a: { key: string; name: string },
  b: { key: string; name: string }
) => ascii(a.key, b.key) || ascii(a.name, b.name)

/**
 * Filters, sorts and caps a directory listing; every skipped `.md` entry is reported. Sizes are
 * checked later, only for the files that may be read.
 */
export function selectCandidates<E extends DirEntry>(
  all: E[],
  opts: CandidateOptions
): Candidates<E> {
  const ownNames = ownNamesOf(opts)
  const skips = new Skips()
  const kept: { key: string; name: string; entry: E }[] = []
  for (const e of all) {
    if (!e.name.endsWith('.md') || isIgnored(e, ownNames)) continue
    const skip = skipOf(e)
    if (skip) skips.add(skip.reason, skip.shown)
    else kept.push({ key: handoffSortKey(e.name), name: e.name, entry: e })
  }
  kept.sort(compareCandidates)
  const warnings = skips.warnings()
  const cap = capOf(kept.length, opts, (i) => kept[i]!.name)
  if (cap.warning) warnings.push(cap.warning)
  const entries = kept.slice(cap.omitted).map((k) => k.entry)
  entries.reverse()
  return { entries, omitted: cap.omitted, warnings }
}

const ascii = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** A name made safe for a one-line message: quoted, anything outside printable ASCII escaped. */
function quoteName(name: string): string {
  let out = '"'
  for (const ch of name) {
    const cp = ch.codePointAt(0) as number
    if (ch === '"' || ch === '\\') out += `\\${ch}`
    else if (cp >= 0x20 && cp < 0x7f) out += ch
    else out += `\\u{${cp.toString(16)}}`
  }
  return `${out}"`
}
