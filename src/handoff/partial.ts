// Marks a run's deliverable as partial when the run did not succeed. Only that run's exact file
// is ever touched: never another profile's, never one picked by suffix or by mtime.
import { constants } from 'node:fs'
import { mkdir, open, rename, rm, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { checkDeliverable } from './deliverable.js'
import { HANDOFF_DIR, baseName, parseRunFileName, partialPathOf } from './naming.js'
import { sanitizeUntrusted } from './sanitize.js'
import { describeStat, lstatOrNull, splitRelative } from './worktree-path.js'

export interface PartialInfo {
  profile: string
  /** How the run ended: `failed`, `stalled`, `timed_out`, `cancelled`, `rate_limited`, … */
  outcome: string
  /** One line on what happened (longer text is cut, line breaks become spaces). */
  detail: string
  at: Date
}

export interface PartialOptions {
  /** The agent's file is only kept if it passes the deliverable checks under this cap. */
  maxBytes: number
}

export interface PartialResult {
  /** The partial's repository-relative path, `<ts>_<profile>.partial.md`. */
  path: string
  /** `renamed`: the agent's file; `written`: our own note; `kept`: a partial already there. */
  how: 'renamed' | 'written' | 'kept'
  warnings: string[]
}

// Characters (code points) of the one-line detail.
const MAX_DETAIL = 300

export async function markPartial(
  repoRoot: string,
  handoffPath: string,
  info: PartialInfo,
  opts: PartialOptions = { maxBytes: 1024 * 1024 }
): Promise<PartialResult> {
  const parsed = parseRunFileName(baseName(handoffPath))
  if (!parsed || handoffPath !== `${HANDOFF_DIR}/${baseName(handoffPath)}`) {
    throw new Error(`markPartial: not a run's handoff path: ${JSON.stringify(handoffPath)}`)
  }
  if (parsed.profile !== info.profile) {
    throw new Error(`markPartial: ${handoffPath} is not profile ${info.profile}'s file`)
  }
  if (!/^[a-z_]+$/.test(info.outcome)) {
    throw new Error(`markPartial: bad outcome ${JSON.stringify(info.outcome)}`)
  }
  const partial = partialPathOf(handoffPath)
  const warnings: string[] = []

  const source = await checkDeliverable(repoRoot, handoffPath, { maxBytes: opts.maxBytes })
  await ensureRealDir(repoRoot, warnings)
  // Junk at the partial's own name (a symlink, a hard link, …) must not be committed.
  const existing = await checkDeliverable(repoRoot, partial, { maxBytes: opts.maxBytes })
  if (existing.ok) {
    if (source.ok) {
      warnings.push(`${partial} already exists; kept it and left ${handoffPath} in place`)
    }
    return { path: partial, how: 'kept', warnings }
  }
  if (await lstatOrNull(join(repoRoot, partial))) {
    await rm(join(repoRoot, partial), { recursive: true, force: true })
    warnings.push(`removed ${partial}, which was not usable: ${existing.problem}`)
  }

  if (source.ok) {
    await rename(join(repoRoot, handoffPath), join(repoRoot, partial))
    return { path: partial, how: 'renamed', warnings }
  }
  const at = join(repoRoot, handoffPath)
  const st = await lstatOrNull(at)
  if (st && !st.isFile() && !st.isDirectory()) {
    await unlink(at)
    warnings.push(`removed ${handoffPath}: it was ${describeStat(st)}, not followed`)
  }
  await writeNew(join(repoRoot, partial), partialNote(handoffPath, info, source.problem))
  return { path: partial, how: 'written', warnings }
}

/** Our own partial, for when the agent left nothing usable. */
function partialNote(handoffPath: string, info: PartialInfo, problem: string): string {
  const chars = [...sanitizeUntrusted(info.detail).text.replace(/\s+/g, ' ').trim()]
  const detail =
    chars.length > MAX_DETAIL ? `${chars.slice(0, MAX_DETAIL).join('')}…` : chars.join('')
  return [
    `# Partial handoff: ${info.profile} (${info.outcome})`,
    '',
    `The ${info.profile} agent exited before completing its deliverable (outcome: \`${info.outcome}\`) and left nothing usable: ${problem}.`,
    '',
    `- profile: \`${info.profile}\``,
    `- outcome: \`${info.outcome}\``,
    `- detail: ${detail || '(none)'}`,
    `- time: ${info.at.toISOString()}`,
    '',
    `handoff-action wrote this note in place of \`${baseName(handoffPath)}\`. Start from the earlier handoffs and the branch as it is.`,
    ''
  ].join('\n')
}

// `.itervox` and `.itervox/handoff` must be real directories before anything is written into
// them; a symlink or file there (left by the agent, or committed) is removed, never followed.
async function ensureRealDir(repoRoot: string, warnings: string[]): Promise<void> {
  const parts = splitRelative(HANDOFF_DIR)
  for (let i = 1; i <= parts.length; i++) {
    const rel = parts.slice(0, i).join('/')
    const abs = join(repoRoot, rel)
    const st = await lstatOrNull(abs)
    if (st?.isDirectory()) continue
    if (st) {
      await unlink(abs)
      warnings.push(`removed ${rel}: it was ${describeStat(st)}, not a directory`)
    }
    await mkdir(abs)
  }
}

async function writeNew(path: string, text: string): Promise<void> {
  const fh = await open(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o644
  )
  try {
    await fh.writeFile(text, 'utf8')
  } finally {
    await fh.close()
  }
}
