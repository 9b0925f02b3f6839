import { UserError } from '../errors.js'
import { didYouMean } from './did-you-mean.js'
import type { AutomationConfig, WorkflowConfig } from './types.js'
import { quoted } from './source-map.js'

/** States match case-insensitively, as GitHub labels do: equal states have equal keys. */
export function stateKey(state: string): string {
  return state.toLowerCase()
}

export function sameState(a: string, b: string): boolean {
  return stateKey(a) === stateKey(b)
}

/** Active, terminal, completion and failed states, each once (first spelling wins). */
export function statesOf(tracker: WorkflowConfig['tracker']): string[] {
  const all = [
    ...tracker.activeStates,
    ...tracker.terminalStates,
    ...(tracker.completionState ? [tracker.completionState] : []),
    ...(tracker.failedState ? [tracker.failedState] : [])
  ]
  return all.filter((state, i) => all.findIndex((other) => sameState(other, state)) === i)
}

export function knownStates(config: WorkflowConfig): string[] {
  return statesOf(config.tracker)
}

/** The enabled automation that entering `state` starts, if any. */
export function findAutomation(
  config: WorkflowConfig,
  state: string
): AutomationConfig | undefined {
  return config.automations.find((a) => a.enabled && a.states.some((s) => sameState(s, state)))
}

/**
 * The automation a run of `profile` belongs to: the one `state` starts when it runs this
 * profile, else the profile's first enabled automation.
 */
export function automationForProfile(
  config: WorkflowConfig,
  profile: string,
  state: string | null | undefined
): AutomationConfig | undefined {
  const byState = state ? findAutomation(config, state) : undefined
  if (byState?.profile === profile) return byState
  return config.automations.find((a) => a.enabled && a.profile === profile)
}

/** The error for a profile name given outside WORKFLOW.md (e.g. `--profile`) that it lacks. */
export function unknownProfileError(
  config: WorkflowConfig,
  name: string,
  where: string
): UserError {
  const names = Object.keys(config.agent.profiles)
  const hint =
    didYouMean(name, names) ||
    (names.length > 0 ? `; it has: ${names.join(', ')}` : '; it defines no profiles')
  return new UserError(`${where}: ${config.file} has no profile named ${quoted(name)}${hint}`)
}
