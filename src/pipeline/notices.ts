import type { StageKey } from '../git/trailers.js'
import type { Issue } from './ports.js'
import type { Job } from './job-values.js'
import { NEEDS_ATTENTION_LABEL } from './names.js'
import { noticeAttention } from './publish.js'
import { fenced, oneLine } from './untrusted-text.js'

// What the job says on the issue when it cannot go on by itself.

export async function noticeCannotStart(
  job: Job,
  issue: Issue,
  stage: { state: string; profile: string },
  line: string
): Promise<void> {
  const body = [
    `**The ${stage.profile} stage could not start**, so the issue stays in "${oneLine(stage.state)}" and nothing was committed:`,
    fenced(line),
    'Fix that, then start the stage again.',
    job.tracker.runLine(null)
  ]
    .filter(Boolean)
    .join('\n\n')
  await job.tracker
    .comment(issue, { key: `itervox:cannot-start:${job.run.id}.${job.run.attempt}`, body })
    .catch(() => undefined)
}

/** A stage claimed by a run that ended without finishing it: only a person can judge it. */
export async function noticeAbandoned(
  job: Job,
  issue: Issue,
  key: StageKey,
  holder: string
): Promise<void> {
  const body = `**The ${key.profile} stage was claimed by run ${oneLine(holder)}, which ended without finishing it**, so it was not started again. Re-run that run's job to run the stage.\n\n${job.tracker.runLine(null)}`
  const at = `${key.entry}-${key.kind}-${key.attempt}-${key.round}-${key.resume}-${key.profile}`
  await noticeAttention(job.tracker, issue, `itervox:abandoned:${at}`, body)
}

/** Says on the issue that the record could not be written; returns what it managed, as words. */
export async function noticeUnrecorded(
  job: Job,
  issue: Issue,
  why: string,
  branch: string
): Promise<string> {
  const body = `**The itervox pipeline could not save its record** (${why}), so it did not go on. The stage's work is on \`${branch}\`; re-run the job to continue.\n\n${job.tracker.runLine(branch)}`
  const said = await job.tracker
    .comment(issue, { key: `itervox:unrecorded:${job.run.id}.${job.run.attempt}`, body })
    .then(() => true)
    .catch(() => false)
  const flagged = await job.tracker
    .setFlag(issue, NEEDS_ATTENTION_LABEL, true)
    .then(() => true)
    .catch(() => false)
  return said || flagged ? 'the issue says so; ' : ''
}
