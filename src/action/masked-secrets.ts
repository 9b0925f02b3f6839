import * as core from '@actions/core'
import { jobSecrets } from '../secrets/job-secrets.js'
import type { SecretScanner } from '../secrets/scanner.js'

/**
 * The job's secrets (the runner's environment, the variables `names` lists (the profiles' `env`),
 * the token input, WORKFLOW.md's Linear key), each form of each registered with the runner, which masks them wherever
 * they would be printed from now on. The scanner also catches what the runner cannot: keys
 * recognised by their shape.
 */
export function maskedSecrets(
  names: readonly string[],
  token: string,
  linearKey?: string
): SecretScanner {
  const secrets = jobSecrets(names, process.env, [
    ...(token ? [{ name: 'github-token', value: token }] : []),
    ...(linearKey ? [{ name: 'tracker.api_key', value: linearKey }] : [])
  ])
  for (const value of secrets.masks()) core.setSecret(value)
  return secrets
}
