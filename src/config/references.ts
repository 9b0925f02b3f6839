import type { ReadAutomation } from './automations.js'
import { didYouMean, editDistance } from './did-you-mean.js'
import { checkFallbacks } from './fallbacks.js'
import { sameState, stateKey, statesOf } from './lookup.js'
import type { Problems } from './problems.js'
import { type Path, quoted } from './source-map.js'
import type { ProfileConfig, WorkflowConfig } from './types.js'

export interface References {
  /** undefined when the tracker section itself is broken: states are then not checked. */
  tracker?: WorkflowConfig['tracker']
  reviewerProfile?: string
  reviewerProfiles?: string[]
  autoReview: boolean
  /** agent.max_concurrent_agents_by_state, as written. */
  stateCaps: Array<{ state: string; max: number }>
  /** Every profile name written, including profiles that failed their own checks. */
  profileNames: string[]
  profiles: Record<string, ProfileConfig>
  automations: ReadAutomation[]
}

/** Checks that every profile and state named anywhere exists, and that ids are unique. */
export function checkReferences(refs: References, problems: Problems): void {
  checkReviewer(refs, problems)
  checkFallbacks(refs.profiles, refs.profileNames, problems)
  if (refs.tracker) checkAllowedStates(refs, statesOf(refs.tracker), problems)
  if (refs.tracker) {
    const known = statesOf(refs.tracker)
    for (const cap of refs.stateCaps) {
      checkState(cap.state, ['agent', 'max_concurrent_agents_by_state', cap.state], known, problems)
    }
  }
  const ids = new Map<string, number>()
  const starters = new Map<string, ReadAutomation>()
  for (const read of refs.automations) {
    const { config, index } = read
    const path = ['automations', index]
    const first = ids.get(config.id.toLowerCase())
    if (first === undefined) ids.set(config.id.toLowerCase(), index)
    else {
      problems.errorAt(
        [...path, 'id'],
        `id ${problems.quote([...path, 'id'], config.id)} is already used by automations[${first}] (ids ignore case); rename one`
      )
    }
    if (checkProfile(config.profile, [...path, 'profile'], refs, problems)) {
      const profile = refs.profiles[config.profile]
      if (config.enabled && profile && !profile.enabled) {
        problems.warnAt(
          [...path, 'profile'],
          `profile ${quoted(config.profile)} is disabled, so this automation will be skipped`
        )
      }
    }
    if (refs.tracker) {
      const known = statesOf(refs.tracker)
      config.states.forEach((state, i) => {
        // One path per state; the automation's own is the fallback.
        const at = read.statePaths[i] ?? path
        checkState(state, at, known, problems)
        if (!config.enabled) return
        const other = starters.get(stateKey(state))
        if (other) {
          problems.errorAt(
            at,
            `state ${problems.quote(at, state)} already starts automations[${other.index}] (${quoted(other.config.id)}); a state may start only one enabled automation`
          )
        } else starters.set(stateKey(state), read)
      })
      if (config.moveToState) {
        checkState(config.moveToState, [...path, 'policy', 'move_to_state'], known, problems)
      }
      checkFilterStates(read, refs.tracker, problems)
    }
    checkTriggerProfiles(read, refs, problems)
  }
  if (refs.tracker) {
    checkEndStates(refs.tracker, starters, problems)
    checkEndStateSpelling(refs, problems)
  }
}

/**
 * An end state may be a state of its own, a label nothing starts (the seed's "Won't Do"), so
 * it is known by being written. One that is not a state of the pipeline but one edit from one
 * is taken for a misspelling of it.
 */
function checkEndStateSpelling(refs: References, problems: Problems): void {
  const tracker = refs.tracker!
  const declared = [
    ...tracker.activeStates,
    ...tracker.terminalStates,
    ...refs.automations.flatMap((a) => [...a.config.states, a.config.moveToState ?? '']),
    ...Object.values(refs.profiles).flatMap((p) => p.allowedStates)
  ].filter(Boolean)
  const ends: [string, string | undefined][] = [
    ['completion_state', tracker.completionState],
    ['failed_state', tracker.failedState]
  ]
  for (const [key, state] of ends) {
    const path = ['tracker', key]
    if (!state || problems.isFromEnv(path) || declared.some((k) => sameState(k, state))) continue
    // One letter off only: "Blocked" is a state of its own, not a misspelt "Closed".
    const near = declared.find((k) => editDistance(stateKey(k), stateKey(state)) <= 1)
    if (near === undefined) continue
    problems.errorAt(
      path,
      `unknown state ${problems.quote(path, state)}; did you mean ${quoted(near)}? If ${quoted(state)} is meant, list it in tracker.terminal_states`
    )
  }
}

/** Where the pipeline ends must not start it again. */
function checkEndStates(
  tracker: WorkflowConfig['tracker'],
  starters: Map<string, ReadAutomation>,
  problems: Problems
): void {
  const starts = (state: string | undefined) => (state ? starters.get(stateKey(state)) : undefined)
  const failed = starts(tracker.failedState)
  if (failed) {
    problems.errorAt(
      ['tracker', 'failed_state'],
      `${quoted(tracker.failedState ?? '')} starts automations[${failed.index}] (${quoted(failed.config.id)}), so an escalated issue would run again; name a state no automation starts, e.g. "Blocked"`
    )
  }
  const done = starts(tracker.completionState)
  if (done) {
    problems.warnAt(
      ['tracker', 'completion_state'],
      `${quoted(tracker.completionState ?? '')} starts automations[${done.index}] (${quoted(done.config.id)}), so the pipeline does not end there`
    )
  }
}

/** A filter state the pipeline never has: worth a look, not fatal (the daemon takes it). */
function unknownFilterState(state: string, path: Path, known: string[], problems: Problems): void {
  if (known.some((k) => sameState(k, state))) return
  const hint = problems.isFromEnv(path) ? '' : didYouMean(state, known)
  problems.warnAt(
    path,
    `names no state of the pipeline, so no issue in it is admitted${hint || '; add it to tracker.active_states, terminal_states or backlog_states'}`
  )
}

function checkFilterStates(
  read: ReadAutomation,
  tracker: WorkflowConfig['tracker'],
  problems: Problems
): void {
  const known = [...statesOf(tracker), ...tracker.backlogStates]
  const path = ['automations', read.index, 'filter']
  // Where the list was read from: states, else its alias.
  const key = problems.map.has([...path, 'states']) ? 'states' : 'states_any'
  read.config.filter.states.forEach((state, i) =>
    unknownFilterState(state, [...path, key, i], known, problems)
  )
  if (read.config.trigger.type === 'issue_moved_to_backlog' && tracker.backlogStates.length === 0) {
    problems.warnAt(
      ['automations', read.index, 'trigger', 'type'],
      'tracker.backlog_states is empty (the default for github), so this never fires; list the labels that mean backlog there'
    )
  }
}

/** The daemon's checks of the profiles a trigger's policy names or needs. */
function checkTriggerProfiles(read: ReadAutomation, refs: References, problems: Problems): void {
  const { config, index } = read
  const policy = ['automations', index, 'policy']
  const trigger = config.trigger
  if (trigger.type === 'rate_limited') {
    const at = [...policy, 'switch_to_profile']
    if (
      checkProfile(trigger.switchToProfile, at, refs, problems) &&
      config.enabled &&
      refs.profiles[trigger.switchToProfile]?.enabled === false
    ) {
      problems.errorAt(
        at,
        `profile ${quoted(trigger.switchToProfile)} is disabled; enable it or name another profile`
      )
    }
  }
  const profile = refs.profiles[config.profile]
  if (trigger.type === 'blockers_resolved' && config.moveToState && profile) {
    if (!profile.allowedActions.includes('move_state')) {
      problems.errorAt(
        [...policy, 'move_to_state'],
        `needs profile ${quoted(config.profile)} to allow move_state; add it to that profile's allowed_actions`
      )
    }
  }
}

function checkAllowedStates(refs: References, known: string[], problems: Problems): void {
  for (const profile of Object.values(refs.profiles)) {
    const path = ['agent', 'profiles', profile.name, 'allowed_states']
    profile.allowedStates.forEach((state, i) => checkState(state, [...path, i], known, problems))
    if (profile.allowedStates.length > 0 && !profile.allowedActions.includes('move_state')) {
      problems.warnAtKey(
        path,
        `has no effect: profile ${quoted(profile.name)} may not move the issue; add move_state to its allowed_actions`
      )
    }
  }
}

function checkReviewer(refs: References, problems: Problems): void {
  const many = refs.reviewerProfiles
  if (refs.autoReview && !refs.reviewerProfile && !many) {
    problems.errorAt(
      ['agent', 'auto_review'],
      'needs agent.reviewer_profile; name the profile that reviews, or set auto_review: false'
    )
  }
  const named: Array<[string, Path]> = many
    ? many.map((name, i) => [name, ['agent', 'reviewer_profiles', i]])
    : refs.reviewerProfile
      ? [[refs.reviewerProfile, ['agent', 'reviewer_profile']]]
      : []
  if (many && refs.reviewerProfile && !many.includes(refs.reviewerProfile)) {
    problems.warnAt(
      ['agent', 'reviewer_profile'],
      'has no effect: agent.reviewer_profiles names the reviewers; add this profile there or remove it'
    )
  }
  named.forEach(([name, path], i) => {
    if (named.findIndex(([other]) => other === name) !== i) {
      problems.errorAt(path, `profile ${quoted(name)} is listed twice; a reviewer reviews once`)
      return
    }
    if (!checkProfile(name, path, refs, problems)) return
    if (refs.profiles[name]?.enabled === false) {
      problems.errorAt(
        path,
        `profile ${quoted(name)} is disabled; enable it or name another profile`
      )
    }
  })
}

function checkProfile(name: string, path: Path, refs: References, problems: Problems): boolean {
  if (refs.profileNames.includes(name)) return true
  const hint = problems.isFromEnv(path) ? '' : didYouMean(name, refs.profileNames)
  const fallback =
    refs.profileNames.length > 0
      ? `; use one of: ${refs.profileNames.join(', ')}`
      : '; define it under agent.profiles'
  problems.errorAt(path, `no profile named ${problems.quote(path, name)}${hint || fallback}`)
  return false
}

function checkState(state: string, path: Path, known: string[], problems: Problems): void {
  if (known.some((k) => sameState(k, state))) return
  const hint = problems.isFromEnv(path) ? '' : didYouMean(state, known)
  problems.errorAt(
    path,
    `unknown state ${problems.quote(path, state)}${hint || '; add it to tracker.active_states or tracker.terminal_states'}`
  )
}
