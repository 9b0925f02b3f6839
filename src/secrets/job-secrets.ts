import type { WorkflowConfig } from '../config/types.js'
import { knownSecrets, type KnownSecret } from './known-secrets.js'
import { SecretScanner } from './scanner.js'

/** Every variable any profile's `env` hands its agent: whatever it holds is a secret. */
export function secretNamesOf(config: WorkflowConfig): string[] {
  return [...new Set(Object.values(config.agent.profiles).flatMap((p) => p.env))]
}

/** The scanner for one job: the secrets of `env` (see knownSecrets), `names`, and `extra`. */
export function jobSecrets(
  names: readonly string[],
  env: Record<string, string | undefined>,
  extra: readonly KnownSecret[] = []
): SecretScanner {
  return new SecretScanner(knownSecrets(env, names, extra))
}
