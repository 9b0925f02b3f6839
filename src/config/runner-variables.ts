// The runner's tokens and the files through which a step talks to the runner. An agent that
// held these could push, mint OIDC tokens, poison the cache, or forge the action's outputs
// and post-step state (security.md rules 3 and 8).
const RUNNER_NAMES = new Set([
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'GH_ENTERPRISE_TOKEN',
  'GITHUB_ENTERPRISE_TOKEN',
  'GITHUB_ENV',
  'GITHUB_OUTPUT',
  'GITHUB_STATE',
  'GITHUB_PATH',
  'GITHUB_STEP_SUMMARY'
])

// ACTIONS_* holds the runtime, cache, results and OIDC tokens and URLs; INPUT_* holds every
// action input, `github-token` included.
const RUNNER_PREFIXES = ['ACTIONS_', 'INPUT_']

/** True for a variable the agent must never see. Names are compared case-insensitively. */
export function isRunnerVariable(name: string): boolean {
  const upper = name.toUpperCase()
  return RUNNER_NAMES.has(upper) || RUNNER_PREFIXES.some((p) => upper.startsWith(p))
}
