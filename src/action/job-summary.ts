import * as core from '@actions/core'

/**
 * Adds markdown to the step's job summary. Some runners have none (`@github/local-action`,
 * older GitHub Enterprise Server): the stage's work is done and its outputs set by then, so a
 * summary that cannot be written is a warning in the log, never the step's failure.
 */
export async function writeJobSummary(markdown: string): Promise<void> {
  try {
    await core.summary.addRaw(markdown).write()
  } catch (err) {
    core.summary.emptyBuffer()
    core.warning(
      `no job summary: ${(err as Error)?.message ?? String(err)}; the outcome is in this log and the step's outputs`
    )
  }
}
