import type { Issue, Published, PublishTarget, Tracker, Workspace } from './ports.js'
import { NEEDS_ATTENTION_LABEL } from './names.js'
import { clip, fenced } from './untrusted-text.js'

// Where a stage's commit goes, and what the issue is told when the pipeline cannot go on:
// the job's advance phase and the `post:` step, which finishes a killed job, both use these.

// Shown on the issue when a deliverable could not be pushed anywhere; the summary has it all.
const UNSAVED_IN_COMMENT = 3000

/**
 * Pushes the stage's commit to its branch, or, when the branch refuses it, to this run's rescue
 * ref; never throws for a refused push (the result says where it went).
 */
export async function publishCommit(
  workspace: Workspace,
  target: PublishTarget,
  sha: string,
  run: string,
  log?: (line: string) => void
): Promise<Published> {
  const rescue = `${target.branch}-rescue-${run.replace(/[^A-Za-z0-9._-]/g, '-')}`
  const published = await workspace.publish(target, sha, rescue)
  if ('notice' in published && published.notice) log?.(published.notice)
  return published
}

/** Why the work did not reach the issue branch, in a sentence; undefined when it did. */
export function unpublishedReason(
  published: Published | null,
  branch: string,
  profile: string
): string | undefined {
  if (!published) return undefined
  if ('failed' in published) {
    return `the ${profile} stage's work could not be pushed anywhere (${published.failed}); its deliverable is in the job summary`
  }
  if (published.rescuedTo) {
    return `${branch} refused the push (${published.refusal ?? 'refused'}); the ${profile} stage's work is on branch ${published.rescuedTo}`
  }
  return undefined
}

/** A deliverable pushed nowhere, shown on the issue (cut) below the run line. */
export function unsavedBlock(unsaved: { path: string; text: string } | undefined): string {
  if (!unsaved) return ''
  return `\n\n<details><summary>${unsaved.path}</summary>\n\n${fenced(clip(unsaved.text, UNSAVED_IN_COMMENT), '~', 'markdown')}\n\n</details>`
}

/** Flags the issue for a person and says why, once per key. */
export async function noticeAttention(
  tracker: Tracker,
  issue: Issue,
  key: string,
  body: string
): Promise<void> {
  await tracker.setFlag(issue, NEEDS_ATTENTION_LABEL, true)
  await tracker.comment(issue, { key, body })
}
