import { validateBranchName } from './branch-name.js'
import { git } from './git.js'

/** One commit of a branch's history, with what its trailers say. */
export interface TrailCommit {
  sha: string
  parents: string[]
  /** By lower-cased key (see trailerMap). */
  trailers: Map<string, string>
}

// How far back a stage looks for its own commits: a pipeline makes a few per stage.
const MAX_COMMITS = 500
// A stage asks of one head several times (the landed check, the budget, the prompt's
// provenance): one `git log` answers them all. A head's history never changes, so an answer
// stays true; only the last few are kept for a process that runs many stages.
const KEEP = 4
const logs = new Map<string, Promise<TrailCommit[]>>()

/** The newest commits at or below `head`, newest first, with their trailers. */
export function trailLog(repo: string, head: string): Promise<TrailCommit[]> {
  const key = `${repo}\0${head}`
  let log = logs.get(key)
  if (!log) {
    log = readLog(repo, head)
    logs.set(key, log)
    log.catch(() => logs.delete(key))
    if (logs.size > KEEP) logs.delete(logs.keys().next().value as string)
  }
  return log
}

async function readLog(repo: string, head: string): Promise<TrailCommit[]> {
  if (!/^[0-9a-f]{40,64}$/.test(head)) await validateBranchName(head)
  const r = await git(repo, [
    'log',
    `--max-count=${MAX_COMMITS}`,
    '--format=%H%x1f%P%x1f%(trailers:only,unfold)%x1e',
    head,
    '--'
  ])
  const commits: TrailCommit[] = []
  for (const entry of r.stdout.split('\x1e')) {
    const [sha, parents = '', block = ''] = entry.trim().split('\x1f')
    if (!sha) continue
    commits.push({ sha, parents: parents.split(' ').filter(Boolean), trailers: trailerMap(block) })
  }
  return commits
}

/**
 * The commits of `log` that `since` cannot reach (git's `since..head`), newest first: the
 * issue's own, not its base branch's. `since` null (or the head itself): all of them.
 */
export function ownCommits(log: TrailCommit[], since: string | null): TrailCommit[] {
  if (!since) return log
  const bySha = new Map(log.map((c) => [c.sha, c]))
  const reached = new Set<string>()
  const todo = [since]
  while (todo.length > 0) {
    const sha = todo.pop() as string
    if (reached.has(sha)) continue
    reached.add(sha)
    for (const p of bySha.get(sha)?.parents ?? []) todo.push(p)
  }
  return log.filter((c) => !reached.has(c.sha))
}

/** `%(trailers:only,unfold)` output by lower-cased key; a repeated key keeps its last value. */
function trailerMap(block: string): Map<string, string> {
  const trailers = new Map<string, string>()
  for (const line of block.split('\n')) {
    const m = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line)
    if (m?.[1] && m[2] !== undefined) trailers.set(m[1].toLowerCase(), m[2].trim())
  }
  return trailers
}
