// blockers_resolved, and the stages the blocker hold (pipeline/blocker-hold.ts) kept waiting:
// when every blocker of an issue waiting in the hold's state (the first of tracker.active_states,
// or a blockers_resolved automation's filter.states) is done, the first blockers_resolved
// automation whose filter admits it moves it by its policy.move_to_state, and the new state's
// stage is woken as after any move; with no such automation, the stage the hold kept is woken.
// Run by the `issues: closed` job for the dependants of the issue that closed, and by every
// scheduled reconcile for closings it missed. Only an issue whose stage in that state has not
// run yet is moved: one that ran was never held.
import { sameState } from '../config/lookup.js'
import type { AutomationConfig, WorkflowConfig } from '../config/types.js'
import { messageOf } from '../errors.js'
import { blockerNumbers } from '../pipeline/decision/blocker-phrases.js'
import type { Issue } from '../pipeline/ports.js'
import { owedWake } from '../pipeline/record/stage-owed.js'
import { commonFilter } from '../pipeline/triggers/index.js'
import { oneLine } from '../pipeline/untrusted-text.js'
import type { ReconcileSource } from './reconcile-source.js'

export interface BlockersPass {
  source: ReconcileSource
  config: WorkflowConfig
  /** The issue that closed (its key): only its dependants are looked at. Absent: every one. */
  closed?: string
  dryRun: boolean
  log: (line: string) => void
}

/** The moves and wake-ups sent, and the issues that failed. */
export async function resolveBlockers(
  o: BlockersPass
): Promise<{ started: number; failed: number }> {
  const { source, config, log } = o
  const blockers = source.blockers
  const moveState = source.moveState
  if (!blockers || !moveState) return { started: 0, failed: 0 }
  const resolvers = config.automations.filter(
    (a) => a.enabled && a.trigger.type === 'blockers_resolved' && a.moveToState
  )
  const holdState = config.tracker.activeStates[0]
  const states = [
    ...(holdState ? [holdState] : []),
    ...resolvers.flatMap((a) => a.filter.states)
  ].filter((s, i, all) => all.findIndex((t) => sameState(t, s)) === i)
  const blocking =
    o.closed && source.blocking ? new Set(await source.blocking(o.closed)) : undefined
  let started = 0
  let failed = 0
  const seen = new Set<string>()
  for (const found of await source.list(states, log)) {
    if ('problem' in found || !found.state) continue
    const key = source.keyOf(found)
    if (seen.has(key)) continue
    seen.add(key)
    if (
      o.closed &&
      !blocking?.has(key) &&
      !blockerNumbers(found.description).map(String).includes(o.closed)
    ) {
      continue
    }
    const at = `${found.identifier} ${found.state}`
    try {
      const record = await source.loadRecord(found)
      const need = owedWake({ config, state: found.state, record, labels: found.labels })
      // Its stage here ran (or runs): it was never held, or is no longer.
      if ('skip' in need || !need.entered) continue
      const all = await blockers(found)
      if (all.length === 0 || all.some((b) => !b.done)) continue
      const resolver = resolverFor(resolvers, found, holdState)
      if (source.mayStart) {
        const may = await source.mayStart(found, found.state)
        if (!may.allowed) {
          log(`${at}: its blockers are done, but nothing started: ${oneLine(may.reason)}`)
          continue
        }
      }
      if (!resolver) {
        if (!holdState || !sameState(holdState, found.state)) continue
        if (o.dryRun) {
          log(
            `${at}: its blockers are done; would start ${need.wake.state}, entry ${need.wake.entry}`
          )
        } else {
          await source.wake(found, need.wake)
          log(`${at}: its blockers are done; started ${need.wake.state}, entry ${need.wake.entry}`)
        }
        started++
        continue
      }
      const to = resolver.moveToState!
      const why = `automation ${resolver.id}: every blocker is done`
      if (o.dryRun) {
        log(`${at}: would move to "${to}" (${why})`)
        started++
        continue
      }
      const moved = await moveState(found, found.state, to)
      if (!moved.current || !sameState(moved.current, to)) {
        log(`${at}: not moved (someone moved it meanwhile)`)
        continue
      }
      await source.wake(
        { ...found, state: moved.current },
        { state: to, entry: (record?.entry ?? 0) + 1 }
      )
      started++
      log(`${at}: moved to "${to}" (${why}); started ${to}, entry ${(record?.entry ?? 0) + 1}`)
    } catch (err) {
      failed++
      log(`${at}: failed: ${oneLine(messageOf(err))}`)
    }
  }
  return { started, failed }
}

/** The first blockers_resolved automation whose filter admits the issue where it is. */
function resolverFor(
  resolvers: AutomationConfig[],
  issue: Issue,
  holdState: string | undefined
): AutomationConfig | undefined {
  return resolvers.find((a) => {
    // With no filter.states, it moves issues from the hold's state only.
    const inState =
      a.filter.states.length > 0 || (holdState !== undefined && sameState(holdState, issue.state!))
    return inState && commonFilter(a, { state: issue.state! }, { issue })
  })
}
