import { messageOf } from '../errors.js'
import { admit } from './admit.js'
import { advance } from './advance.js'
import { guardedTracker } from './guarded-tracker.js'
import type { Ending, Job, JobInput, JobResult } from './job-values.js'
import { prepare } from './prepare.js'
import { run } from './run.js'
import { oneLine } from './untrusted-text.js'

export type { JobInput, JobResult } from './job-values.js'

/**
 * The one job loop, for every tracker and adapter, in DESIGN.md's four phases: admit (who, what
 * is owed, which stage), prepare (its branch, command, budget, slot and claim), run (prompt,
 * agent, commit) and advance (publish, settle, record, effects). The record of intent is written
 * before any effect, and every run first finishes what the last one left owed, so no failure
 * after the agent leaves the pipeline stopped without saying so. When the agent's command cannot
 * be run, the stage does not start: the job says so on the issue and throws
 * CommandUnavailableError.
 */
export async function runJob(input: JobInput): Promise<JobResult> {
  const job: Job = {
    ...input,
    startedMs: Date.now(),
    withheld: [],
    finishedOwed: 0,
    slotHeld: false
  }
  job.tracker = guardedTracker(input.tracker, input.secrets, (line) => job.withheld.push(line))
  try {
    const admitted = await phase(job, 'Deciding', () => admit(job))
    if ('stop' in admitted) return end(job, admitted.stop)
    const prepared = await phase(job, `Preparing ${admitted.branch}`, () => prepare(job, admitted))
    if ('stop' in prepared) return end(job, prepared.stop)
    const ran = await phase(job, `Running ${prepared.stage.profile.name}`, () => run(job, prepared))
    if ('stop' in ran) return end(job, ran.stop)
    return end(job, await phase(job, 'Publishing', () => advance(job, ran)))
  } finally {
    // Whatever ended the job; a release that fails leaves the slot to the dead-run reclaim.
    if (job.slotHeld) {
      await job.slots?.release().catch((e: unknown) => {
        job.log?.(`could not give the agent slot back: ${oneLine(messageOf(e))}`)
      })
    }
  }
}

/** Every result of the job, however it ended. */
function end(job: Job, e: Ending): JobResult {
  return {
    refused: [],
    warnings: [],
    finishedOwed: job.finishedOwed,
    durationMs: Date.now() - job.startedMs,
    ...e,
    withheld: [...job.withheld]
  }
}

/** One phase, as one section of the job log. */
async function phase<T>(job: Job, title: string, body: () => Promise<T>): Promise<T> {
  job.sections?.open(title)
  try {
    return await body()
  } finally {
    job.sections?.close()
  }
}
