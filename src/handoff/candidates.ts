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

/**
 * Filters, sorts and caps a directory listing; every skipped `.md` entry is reported. Sizes are
 * checked later, only for the files that may be read.
 */
export function selectCandidates<E extends DirEntry>(
  all: E[],
  opts: CandidateOptions
): Candidates<E> {
  const own = opts.ownPath ? baseName(opts.ownPath) : undefined
  const ownPartial = opts.ownPath ? baseName(partialPathOf(opts.ownPath)) : undefined
  const skipped = new Map<string, string[]>()
  const skip = (reason: string, name: string) => {
    const names = skipped.get(reason) ?? []
    names.push(name)
    skipped.set(reason, names)
  }
  const kept: { key: string; entry: E }[] = []
  for (const e of all) {
    if (!e.name.endsWith('.md') || e.mode === '040000' || e.type === 'tree') continue
    if (e.name === own || e.name === ownPartial) continue
    if (!isSafeName(e.name)) {
      skip('names that are not [A-Za-z0-9._-]+.md', quoteName(e.name))
    } else if (e.mode === '120000') {
      skip('symbolic links (mode 120000), never followed', e.name)
    } else if (e.mode === '160000' || e.type === 'commit') {
      skip('submodules (gitlinks, mode 160000)', e.name)
    } else if ((e.mode !== '100644' && e.mode !== '100755') || e.type !== 'blob') {
      skip('entries that are not regular files', `${e.name} (mode ${e.mode})`)
    } else {
      kept.push({ key: handoffSortKey(e.name), entry: e })
    }
  }
  // Safe names and their keys are ASCII, where `<` is byte order.
  kept.sort((a, b) => ascii(a.key, b.key) || ascii(a.entry.name, b.entry.name))

  const warnings = [...skipped].map(([reason, names]) => {
    const shown = names.slice(0, LISTED_PER_WARNING).join(', ')
    const more =
      names.length > LISTED_PER_WARNING ? `, and ${names.length - LISTED_PER_WARNING} more` : ''
    return `skipped ${names.length} prior handoff file${names.length === 1 ? '' : 's'}: ${reason}: ${shown}${more}`
  })
  const max = Math.max(0, Math.floor(opts.maxFiles))
  const omitted = Math.max(0, kept.length - max)
  if (omitted > 0) {
    // omitted > 0: kept holds at least `omitted` entries.
    const range =
      omitted === 1
        ? kept[0]!.entry.name
        : `${kept[0]!.entry.name} … ${kept[omitted - 1]!.entry.name}`
    warnings.push(
      `only the newest ${max} of ${kept.length} prior handoff files were considered; ` +
        `${omitted} older ${omitted === 1 ? 'one' : 'ones'} (${range}) ${omitted === 1 ? 'was' : 'were'} left out`
    )
  }
  const entries = kept.slice(omitted).map((k) => k.entry)
  entries.reverse()
  return { entries, omitted, warnings }
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
