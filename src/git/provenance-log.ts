import { decodeProvenance, type LandedProvenance } from '../pipeline/provenance.js'
import { validateBranchName } from './branch.js'
import { git } from './git.js'
import {
  HANDOFF_TRAILER,
  ISSUE_TRAILER,
  issueValue,
  PROVENANCE_TRAILER,
  trailerMap
} from './trailers.js'

/**
 * The provenance of this issue's stages on the branch, oldest first: the commits in
 * `since..head` (the issue's own, not its base branch's) whose trailers name the issue. Only
 * the action writes these trailers (an agent's own commits never land, see commitAllowed).
 */
export async function readProvenance(
  repo: string,
  head: string,
  since: string | null,
  issue: string,
  maxCount = 500
): Promise<LandedProvenance[]> {
  if (!/^[0-9a-f]{40,64}$/.test(head)) await validateBranchName(head)
  const range = since && since !== head ? `${since}..${head}` : head
  const r = await git(repo, [
    'log',
    '--reverse',
    `--max-count=${maxCount}`,
    '--format=%H%x1f%(trailers:only,unfold)%x1e',
    range,
    '--'
  ])
  const rows: LandedProvenance[] = []
  for (const entry of r.stdout.split('\x1e')) {
    const [sha, block = ''] = entry.trim().split('\x1f')
    if (!sha) continue
    const trailers = trailerMap(block)
    if (trailers.get(ISSUE_TRAILER.toLowerCase()) !== issueValue(issue)) continue
    const p = decodeProvenance(trailers.get(PROVENANCE_TRAILER.toLowerCase()) ?? '')
    if (!p) continue
    const handoffPath = trailers.get(HANDOFF_TRAILER.toLowerCase())
    rows.push({ ...p, sha, ...(handoffPath ? { handoffPath } : {}) })
  }
  return rows
}
