import { lstatSync } from 'node:fs'
import { join } from 'node:path'
import { fetchBranches, type FetchedBranches } from '../git/fetch-branches.js'
import type { Trigger } from './event.js'
import { readSettings } from './inputs.js'
import { samePlan, stageStart, type FetchPlan } from './stage-start.js'

/** The stage's first fetch, started by the main step's light entry before the program loads. */
export interface EarlyFetch {
  /**
   * What the fetch brought, if it was started for exactly `plan`. Undefined when it failed:
   * the stage then fetches itself, so that a failure is reported in the stage's own words (its
   * error classes are the other bundle's). Undefined too for another plan, once the early git
   * has ended, as the stage's own fetch clears git's lock files.
   */
  take(plan: FetchPlan): Promise<FetchedBranches | undefined>
  /** Settles once the fetch itself is under way, or once there is nothing more to start. */
  started: Promise<void>
}

/**
 * Starts the fetch the stage would start first, when the settings and the job's `trigger`
 * (jobTrigger) say a stage runs: loading the rest of the program (~100 ms of one core) then
 * overlaps git and the network. Anything the stage would refuse, report or do otherwise starts
 * nothing here.
 */
export function startEarlyFetch(
  env: NodeJS.ProcessEnv,
  trigger: Trigger | undefined
): EarlyFetch | undefined {
  let plan: FetchPlan
  try {
    const s = readSettings(env)
    if (s.mode !== 'stage' || !trigger) return undefined
    const start = stageStart(s, trigger)
    if (start.kind !== 'run') return undefined
    plan = start.fetch
    // Only into a checkout: a workspace the fetch has to make a repository in would, after a
    // failure here, look like a checkout to the stage's own fetch.
    if (!lstatSync(join(plan.repo, '.git'), { throwIfNoEntry: false })) return undefined
  } catch {
    // The stage says what is wrong, once it has loaded.
    return undefined
  }
  let fetchUnderWay = () => {}
  const started = new Promise<void>((resolve) => (fetchUnderWay = resolve))
  const fetching = fetchBranches({ ...plan, whileFetching: fetchUnderWay }).catch(() => undefined)
  void fetching.then(fetchUnderWay)
  return {
    take: (p) => (samePlan(p, plan) ? fetching : fetching.then(() => undefined)),
    started
  }
}
