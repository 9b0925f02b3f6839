// `run --restart`: which state a stopped local issue starts again in, and the line that tells a
// plain `run` how to restart it. The restart itself is the job loop's (pipeline/decision/restart.ts).
import { didYouMean } from '../config/did-you-mean.js'
import { findAutomation, knownStates } from '../config/load.js'
import { sameState } from '../config/lookup.js'
import type { WorkflowConfig } from '../config/types.js'
import { UserError } from '../errors.js'
import type { IssueRecord } from '../pipeline/record/record.js'
import { stoppedBecause } from '../pipeline/decision/restart.js'

/** Why the issue's pipeline stopped, or null when it did not. */
export function stoppedLocal(
  config: WorkflowConfig,
  record: IssueRecord,
  state: string
): string | null {
  return stoppedBecause(record, state, config.tracker.failedState)
}

/**
 * The state to restart in: `asked`, or the state of the last stage that ran (the one that
 * stopped), or else the first state that starts an automation.
 */
export function restartState(
  config: WorkflowConfig,
  id: string,
  state: string,
  record: IssueRecord,
  asked?: string
): string {
  if (stoppedLocal(config, record, state) === null) {
    throw new UserError(
      `--restart: ${id} is in "${state}" and its pipeline has not stopped; run it without --restart`
    )
  }
  const starting = knownStates(config).filter((s) => findAutomation(config, s))
  if (asked === undefined) {
    const last = record.stages.at(-1)?.state
    const to = starting.find((s) => last !== undefined && sameState(s, last)) ?? starting[0]
    if (to === undefined) {
      throw new UserError(`--restart: no state of ${config.file} starts an automation`)
    }
    return to
  }
  const known = starting.find((s) => sameState(s, asked))
  if (known) return known
  const hint =
    didYouMean(asked, starting) || `; the states that start one are ${starting.join(', ')}`
  throw new UserError(`--state: "${asked}" starts no automation of ${config.file}${hint}`)
}

/** One line: why nothing runs, and the command that starts the issue again. */
export function restartHint(
  config: WorkflowConfig,
  id: string,
  state: string,
  record: IssueRecord,
  stopped: string
): string {
  const to = restartState(config, id, state, record)
  return `the pipeline stopped (${stopped}); to start "${to}" again: itervox-handoff run --issue ${id} --restart`
}
