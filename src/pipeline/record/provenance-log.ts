import { ownCommits, trailLog } from '../../git/trail-log.js'
import {
  HANDOFF_TRAILER,
  ISSUE_TRAILER,
  issueValue,
  PROVENANCE_TRAILER
} from '../../git/trailers.js'
import { decodeProvenance, type LandedProvenance } from './provenance.js'

/**
 * The provenance of this issue's stages on the branch, oldest first: the commits in
 * `since..head` (the issue's own, not its base branch's) whose trailers name the issue. Only
 * the action writes these trailers (an agent's own commits never land, see commitAllowed).
 */
export async function readProvenance(
  repo: string,
  head: string,
  since: string | null,
  issue: string
): Promise<LandedProvenance[]> {
  const rows: LandedProvenance[] = []
  for (const { sha, trailers } of ownCommits(await trailLog(repo, head), since).reverse()) {
    if (trailers.get(ISSUE_TRAILER.toLowerCase()) !== issueValue(issue)) continue
    const p = decodeProvenance(trailers.get(PROVENANCE_TRAILER.toLowerCase()) ?? '')
    if (!p) continue
    const handoffPath = trailers.get(HANDOFF_TRAILER.toLowerCase())
    rows.push({ ...p, sha, handoffPath: handoffPath || undefined })
  }
  return rows
}
