// A person may merge an issue's pull request before its pipeline ends, keeping the branch or
// deleting it. Its commits are then in the base: the live merge-base is the branch's own tip
// (or, once the branch is made again from the base, the base's), so every handoff on it would
// look like the base's. The fork point the issue's record kept still tells them apart.
import { git } from './git.js'
import { ownCommits, trailLog } from './trail-log.js'
import { ISSUE_TRAILER, issueValue } from './trailers.js'

/**
 * The newest commit of `fork..head` that one of the issue's stages made (its Itervox-Issue
 * trailer, which only the action writes), or null: whether `head` holds the issue's work.
 */
export async function newestIssueCommit(
  repo: string,
  head: string,
  fork: string,
  issue: string
): Promise<string | null> {
  const want = issueValue(issue)
  const found = ownCommits(await trailLog(repo, head), fork).find(
    (c) => c.trailers.get(ISSUE_TRAILER.toLowerCase()) === want
  )
  return found?.sha ?? null
}

/** Whether `a` is `b` or one of its ancestors; false when either is not in the repository. */
export async function isAncestor(repo: string, a: string, b: string): Promise<boolean> {
  const r = await git(repo, ['merge-base', '--is-ancestor', a, b], { okCodes: [1, 128] })
  return r.code === 0
}
