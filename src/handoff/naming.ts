/** Where handoff deliverables live, relative to the repository root (forward slashes always). */
export const HANDOFF_DIR = '.itervox/handoff'

const PARTIAL_SUFFIX = '.partial.md'
const PROFILE_RE = /^[A-Za-z0-9._-]+$/
// Profile names end up in file names; together with the 24-byte timestamp and `.partial.md`
// this keeps every handoff name well under the 255-byte limit of common file systems.
const MAX_PROFILE_LENGTH = 100
const RUN_TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z$/
// Older tools wrote whole seconds; some wrote other fraction lengths.
const NAME_TIMESTAMP_RE = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})(?:\.(\d{1,9}))?Z_/

/** The run timestamp itervox uses: UTC `YYYY-MM-DDTHH-MM-SS.mmmZ`, with no colon anywhere. */
export function runTimestamp(date: Date): string {
  const iso = date.toISOString()
  if (!/^\d{4}-/.test(iso)) throw new Error(`runTimestamp: year out of range in ${iso}`)
  return iso.replace(/:/g, '-')
}

/** True for a timestamp of exactly the form `runTimestamp` makes. */
export function isRunTimestamp(ts: string): boolean {
  return RUN_TIMESTAMP_RE.test(ts)
}

/** True for a profile name that is safe to put in a file name: `[A-Za-z0-9._-]+`. */
export function isValidProfileName(name: string): boolean {
  return name.length <= MAX_PROFILE_LENGTH && PROFILE_RE.test(name)
}

/** The run's deliverable path, `.itervox/handoff/<ts>_<profile>.md`. */
export function handoffPath(ts: string, profile: string): string {
  if (!isRunTimestamp(ts)) throw new Error(`handoffPath: bad run timestamp ${JSON.stringify(ts)}`)
  if (!isValidProfileName(profile)) {
    throw new Error(`handoffPath: bad profile name ${JSON.stringify(profile)}`)
  }
  return `${HANDOFF_DIR}/${ts}_${profile}.md`
}

/** `…/<ts>_<profile>.md` → `…/<ts>_<profile>.partial.md`; a partial path is returned as is. */
export function partialPathOf(path: string): string {
  if (path.endsWith(PARTIAL_SUFFIX)) return path
  if (!path.endsWith('.md')) throw new Error(`partialPathOf: not a .md path: ${path}`)
  return path.slice(0, -'.md'.length) + PARTIAL_SUFFIX
}

export function isPartialName(name: string): boolean {
  return name.endsWith(PARTIAL_SUFFIX)
}

/** The last path component (paths here always use forward slashes). */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1)
}

/**
 * Splits a run's file name `<ts>_<profile>.md` (not a partial) into its parts, or returns null.
 * The timestamp has a fixed shape, so a profile that itself contains `_` splits correctly.
 */
export function parseRunFileName(name: string): { timestamp: string; profile: string } | null {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d{3})?Z)_(.+)\.md$/.exec(name)
  const [, timestamp = '', profile = ''] = m ?? []
  if (!m || isPartialName(name) || !isValidProfileName(profile)) return null
  return { timestamp, profile }
}

/**
 * The sort key of a handoff file name. Timestamped names compare by their instant, a missing
 * fraction counting as zero (`…45Z` is `…45.000Z`, so it sorts before `…45.123Z`); other names
 * (`notes.md`) use the raw name, as itervox's plain byte sort would.
 */
export function handoffSortKey(name: string): string {
  const m = NAME_TIMESTAMP_RE.exec(name)
  if (!m) return name
  return `${m[1]}.${(m[2] ?? '').padEnd(9, '0')}Z`
}

/** Chronological order of handoff file names; ties are broken by the raw name. */
export function compareHandoffNames(a: string, b: string): number {
  return compareCodePoints(handoffSortKey(a), handoffSortKey(b)) || compareCodePoints(a, b)
}

/** Code-point order, which is UTF-8 byte order (JS `<` compares UTF-16 units instead). */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number
    const y = b.codePointAt(i) as number
    if (x !== y) return x < y ? -1 : 1
    if (x > 0xffff) i++
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1
}
