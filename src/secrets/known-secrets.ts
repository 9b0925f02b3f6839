import { modelProvider } from '../agent/model-providers.js'
import type { PresetName } from '../agent/types.js'

/** A secret the job holds: where it came from (never shown with it) and its value. */
export interface KnownSecret {
  name: string
  value: string
}

const PRESETS: readonly PresetName[] = ['claude', 'codex', 'gemini', 'generic']

// The runner's tokens, whatever the workflow calls its own variables.
const RUNNER_SECRETS = [
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'GH_ENTERPRISE_TOKEN',
  'GITHUB_ENTERPRISE_TOKEN',
  'INPUT_GITHUB-TOKEN',
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN'
]

// Any other variable a workflow names like a credential (NPM_TOKEN, AWS_SECRET_ACCESS_KEY, ...).
const SECRET_NAME =
  /(?:^|[_-])(?:TOKEN|SECRET|PASSWORD|PASSWD|API[_-]?KEY|ACCESS[_-]?KEY|PRIVATE[_-]?KEY|CREDENTIALS?|AUTH)(?:[_-]|$)/i

/**
 * Shorter values are words, numbers or flags (`true`, `1`, `prod`) that occur everywhere;
 * no credential is this short.
 */
const MIN_LENGTH = 8

/** Every model key variable a preset's CLI reads. */
function modelKeyNames(): string[] {
  return PRESETS.flatMap((p) => modelProvider(p)?.credentials.map((c) => c.variable) ?? [])
}

/**
 * The secrets of `env` the action knows of: the runner's tokens, every preset's model keys,
 * whatever `names` lists (the variables the profiles' `env` passes to agents) and any variable
 * named like a credential; then `extra` (the `github-token` input). One entry per value.
 */
export function knownSecrets(
  env: Record<string, string | undefined>,
  names: readonly string[],
  extra: readonly KnownSecret[] = []
): KnownSecret[] {
  const wanted = new Set([...RUNNER_SECRETS, ...modelKeyNames(), ...names])
  const found: KnownSecret[] = [...extra]
  for (const name of wanted) {
    const value = env[name]
    if (value !== undefined) found.push({ name, value })
  }
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !wanted.has(name) && SECRET_NAME.test(name)) {
      found.push({ name, value })
    }
  }
  const seen = new Set<string>()
  const out: KnownSecret[] = []
  for (const s of found) {
    // A value read from a file often ends in a newline that never travels with it.
    const value = s.value.trim()
    if (value.length < MIN_LENGTH || seen.has(value)) continue
    seen.add(value)
    out.push({ name: s.name, value })
  }
  return out
}
