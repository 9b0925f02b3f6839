import { didYouMean } from './did-you-mean.js'
import type { Problems } from './problems.js'
import { quoted } from './source-map.js'
import type { ProfileConfig } from './types.js'

/**
 * Each `fallback_profile` names a profile, not its own, and no chain of them comes back to where
 * it started: a fallback runs once, so a cycle could only mean a misread configuration.
 */
export function checkFallbacks(
  profiles: Record<string, ProfileConfig>,
  profileNames: string[],
  problems: Problems
): void {
  for (const profile of Object.values(profiles)) {
    const name = profile.fallbackProfile
    if (name === undefined) continue
    const path = ['agent', 'profiles', profile.name, 'fallback_profile']
    if (!profileNames.includes(name)) {
      const hint = problems.isFromEnv(path) ? '' : didYouMean(name, profileNames)
      problems.errorAt(
        path,
        `no profile named ${problems.quote(path, name)}${hint || `; use one of: ${profileNames.join(', ')}`}`
      )
      continue
    }
    const chain = [profile.name]
    let next: string | undefined = name
    while (next !== undefined && !chain.includes(next)) {
      chain.push(next)
      next = profiles[next]?.fallbackProfile
    }
    if (next === profile.name) {
      problems.errorAt(
        path,
        `the fallback profiles go round in a circle (${[...chain, next].map(quoted).join(' → ')}); remove fallback_profile from one of them`
      )
    } else if (profiles[name]?.enabled === false) {
      problems.errorAt(
        path,
        `profile ${quoted(name)} is disabled; enable it or name another profile`
      )
    }
  }
}
