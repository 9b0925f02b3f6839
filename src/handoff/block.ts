// The `## Prior Agent Handoffs` block: newest handoffs first until the budget is full, shown
// oldest first. Files are read lazily, newest to oldest, and the walk stops at the first file
// that does not fit, so the cost follows what is shown, not the size of the history.
import type { GitObjects } from '../git/objects.js'
import type { TreeEntry } from '../git/raw-tree.js'
import { BlockBudget } from './budget.js'
import { selectCandidates, type Candidates, type DirEntry } from './candidates.js'
import { cleanHandoffText, describeCleaning } from './handoff-text.js'
import { JOIN, fileHeader } from './layout.js'
import { HANDOFF_DIR } from './naming.js'
import { treeCandidates } from './tree-candidates.js'
import { addCounts, emptyCounts, type SanitizeCounts } from './sanitize.js'
import { decodeUtf8, utf8Length, type Decoded } from './utf8.js'

export { renderRunContext } from './layout.js'

export interface BlockOptions {
  /** Bytes of the whole rendered block (default 30 KiB). */
  budgetBytes: number
  /** Files larger than this are skipped unread (default 1 MiB). */
  maxFileBytes: number
  /** Only this many newest files are considered (default 1000). */
  maxFiles: number
  /** The current run's own deliverable; it and its partial are never shown. */
  ownPath?: string
}

export interface BlockResult {
  /** The block, or '' when there is no prior handoff to show. */
  text: string
  /** File names shown, oldest first. */
  included: string[]
  /** Older files left out (the N of the truncation marker); 0 when none. */
  dropped: number
  /** The newest file, when it alone was over the budget and was cut. */
  truncatedFile?: string
  /** UTF-8 bytes of `text`. */
  bytes: number
  warnings: string[]
  /** What cleaning removed from the files shown. */
  sanitized: SanitizeCounts
}

export const DEFAULT_BLOCK_OPTIONS: BlockOptions = {
  budgetBytes: 30 * 1024,
  maxFileBytes: 1024 * 1024,
  maxFiles: 1000
}

/** The next file the walk needs (and its index among the candidates) and how much room is left. */
interface Need<E> {
  index: number
  file: E
  remaining: number
}

function* walk<E extends DirEntry>(
  found: Candidates<E>,
  opts: BlockOptions
): Generator<Need<E>, BlockResult, Decoded> {
  const budget = new BlockBudget(opts.budgetBytes)
  const warnings = [...found.warnings]
  const sanitized = emptyCounts()
  const files = found.entries
  let dropped = found.omitted
  for (const [i, file] of files.entries()) {
    const name = file.name
    const decoded = yield { index: i, file, remaining: budget.remaining }
    if (!decoded.ok) {
      warnings.push(`skipped prior handoff ${name}: it ${decoded.problem}`)
      continue
    }
    const clean = cleanHandoffText(decoded.text)
    const older = files.length - 1 - i + found.omitted
    let shown = budget.tryAdd(name, clean.body, older)
    if (!shown && budget.isEmpty) {
      shown = budget.tryCut(name, clean.body, older)
      if (shown) {
        warnings.push(
          `prior handoff ${name} alone is over the ${opts.budgetBytes}-byte budget; it was cut`
        )
      } else {
        warnings.push(
          `the ${opts.budgetBytes}-byte handoff budget cannot hold even one prior handoff`
        )
      }
    }
    if (shown) {
      addCounts(sanitized, clean.counts)
      const note = describeCleaning(name, clean)
      if (note) warnings.push(note)
    }
    if (!shown || budget.truncatedFile) {
      dropped = older + (shown ? 0 : 1)
      break
    }
  }
  const text = budget.render(dropped)
  return {
    text,
    included: budget.included,
    dropped,
    ...(budget.truncatedFile ? { truncatedFile: budget.truncatedFile } : {}),
    bytes: utf8Length(text),
    warnings,
    sanitized
  }
}

/** The block from texts already in hand (pure; the golden tests use it). */
export function renderHandoffBlock(
  files: { name: string; text: string }[],
  opts: BlockOptions
): BlockResult {
  checkOptions(opts)
  const texts = new Map<string, string>()
  const entries: DirEntry[] = files.map((f) => {
    if (texts.has(f.name)) throw new Error(`renderHandoffBlock: ${f.name} given twice`)
    texts.set(f.name, f.text)
    return { name: f.name, mode: '100644', type: 'blob', size: utf8Length(f.text) }
  })
  const found = selectCandidates(entries, opts)
  const it = walk(found, opts)
  let step = it.next()
  while (!step.done) {
    const { name, size } = step.value.file
    const text = texts.get(name) as string
    step = it.next(overCap(size as number, opts) ?? { ok: true, text })
  }
  return step.value
}

// Sizes are asked this many files ahead; blobs are read at most this many per round trip.
const SIZE_WINDOW = 64
const MAX_BATCH = 256

/** Which commits the trail is read from. */
export interface TrailCommits {
  /** The issue branch's commit, whose handoffs are read. */
  head: string
  /**
   * Where the branch left its base branch: the handoffs committed there are earlier issues'
   * and are never shown. Null shows every handoff at `head`, as itervox does.
   */
  since: string | null
}

/** The block from the handoffs committed at `at.head` and not at `at.since`, from git objects. */
export async function buildHandoffBlock(
  git: GitObjects,
  at: TrailCommits,
  opts: BlockOptions
): Promise<BlockResult> {
  checkOptions(opts)
  const head = await git.findTree(at.head, HANDOFF_DIR)
  if (head.kind === 'missing') return noBlock([])
  if (head.kind === 'other') {
    const what =
      head.path === HANDOFF_DIR ? HANDOFF_DIR : `${head.path} (a parent of ${HANDOFF_DIR})`
    return noBlock([
      `refused ${what} at ${at.head}: it is ${describeMode(head.mode)}, not a directory; no prior handoff was read`
    ])
  }
  const before = at.since ? await git.findTree(at.since, HANDOFF_DIR) : null
  // The same directory at the fork point: the branch added no handoff, nothing to read.
  if (before?.kind === 'tree' && before.oid === head.oid) return noBlock([])
  const found = treeCandidates(
    await git.readRawTree(head),
    before?.kind === 'tree' ? await git.readRawTree(before) : null,
    opts
  )
  const files = found.entries
  const sizeOf = async (file: TreeEntry, i: number): Promise<number> => {
    if (file.size === null) {
      const window = files.slice(i, i + SIZE_WINDOW).filter((f) => f.size === null)
      const sizes = await git.blobSizes(window.map((f) => f.oid))
      for (const f of window) f.size = sizes.get(f.oid) as number
    }
    return file.size as number
  }
  const cache = new Map<number, Buffer>()
  const it = walk(found, opts)
  let step = it.next()
  while (!step.done) {
    const { index, file, remaining } = step.value
    const tooBig = overCap(await sizeOf(file, index), opts)
    if (tooBig) {
      step = it.next(tooBig)
      continue
    }
    if (!cache.has(index)) {
      // Read this file and the next older ones that could still fit, plus one more; a blob
      // over the cap is never read.
      const batch = [{ j: index, oid: file.oid }]
      let bytes = estimate(file)
      for (let j = index + 1; j < files.length && bytes < remaining; j++) {
        const older = files[j]!
        if (batch.length >= MAX_BATCH || older.size === null) break
        if (overCap(older.size, opts)) continue
        batch.push({ j, oid: older.oid })
        bytes += estimate(older)
      }
      const blobs = await git.readBlobs(batch.map((b) => b.oid))
      for (const b of batch) cache.set(b.j, blobs.get(b.oid) as Buffer)
    }
    const bytes = cache.get(index) as Buffer
    cache.delete(index)
    step = it.next(decodeUtf8(bytes))
  }
  return step.value
}

function overCap(size: number, opts: BlockOptions): Decoded | null {
  if (size <= opts.maxFileBytes) return null
  return {
    ok: false,
    problem: `is ${size} bytes, over the ${opts.maxFileBytes}-byte per-file cap; it was not read`
  }
}

function checkOptions(opts: BlockOptions): void {
  for (const key of ['budgetBytes', 'maxFileBytes', 'maxFiles'] as const) {
    const n = opts[key]
    if (!Number.isSafeInteger(n) || n < 0)
      throw new Error(`handoff ${key} must be a whole number ≥ 0, not ${n}`)
  }
}

// A file's share of the block if its blob shows unchanged: header, joins and body.
function estimate(file: { name: string; size: number | null }): number {
  return utf8Length(fileHeader(file.name)) + 2 * JOIN.length + (file.size ?? 0)
}

function noBlock(warnings: string[]): BlockResult {
  return { text: '', included: [], dropped: 0, bytes: 0, warnings, sanitized: emptyCounts() }
}

function describeMode(mode: string | undefined): string {
  if (mode === '120000') return 'a symbolic link (mode 120000)'
  if (mode === '160000') return 'a submodule (gitlink, mode 160000)'
  return `a file (mode ${mode ?? 'unknown'})`
}
