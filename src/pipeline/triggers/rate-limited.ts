// rate_limited: the daemon switches a rate-limited issue to another profile. Here that is the
// fallback profile (recovery.ts): a stage of the automation's `profile` that ends rate_limited,
// in a state its filter admits, goes on under policy.switch_to_profile at once (retrying the limited profile
// would meet the same limit), once per entry into the state, as a fallback runs. That once is
// what cooldown_minutes guards in the daemon; switch_to_backend is the profile's own command.
import { sameState } from '../../config/lookup.js'
import type { WorkflowConfig } from '../../config/types.js'

/** The profile a rate-limited stage of `profile` in `state` switches to, if any automation says. */
export function rateLimitSwitch(
  config: WorkflowConfig,
  profile: string,
  state: string
): string | undefined {
  for (const a of config.automations) {
    const t = a.trigger
    if (!a.enabled || t.type !== 'rate_limited' || a.profile !== profile) continue
    if (t.switchToProfile === profile) continue
    const states = a.filter.states
    if (states.length > 0 && !states.some((s) => sameState(s, state))) continue
    if (config.agent.profiles[t.switchToProfile]?.enabled) return t.switchToProfile
  }
  return undefined
}
