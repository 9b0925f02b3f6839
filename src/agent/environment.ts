import { isRunnerVariable } from '../config/runner-variables.js'
import type { AgentContract } from './types.js'

/** What the agent gets besides the parent's PATH, locale, proxies, TERM, CI and ITERVOX_*. */
export interface AgentEnvironmentOptions {
  /**
   * Names it may also take from the parent: the profile's `env` and its preset's model
   * variables (see `allowedNames`). Runner variables are never taken, even when named.
   */
  allowed: readonly string[]
  /**
   * Its HOME, USER, LOGNAME, TMPDIR and SHELL, each set only when given (over a declared one;
   * without a value the variable is absent unless the profile declares it).
   */
  home: string | undefined
  user?: string
  logname?: string
  tmpdir?: string
  shell?: string
}

/** The parent's USER, LOGNAME, TMPDIR and SHELL, for an agent that runs as the same user. */
export function parentIdentity(
  parent: Record<string, string | undefined>
): Pick<AgentEnvironmentOptions, 'user' | 'logname' | 'tmpdir' | 'shell'> {
  return { user: parent.USER, logname: parent.LOGNAME, tmpdir: parent.TMPDIR, shell: parent.SHELL }
}

// Not secrets, and what programs need to run at all, speak the user's language and reach the
// network through the runner's proxy.
const BASE_NAMES = new Set([
  'PATH',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TERM',
  'CI',
  ...['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY'].flatMap((n) => [n, n.toLowerCase()])
])

function isBaseName(name: string): boolean {
  return BASE_NAMES.has(name) || name.startsWith('LC_') || name.startsWith('ITERVOX_')
}

/**
 * The agent's environment, from an allow-list: of the parent's variables only PATH, the locale
 * (LANG, LANGUAGE, LC_*, TZ), the proxy settings, TERM, CI, ITERVOX_* and the `allowed` names
 * pass, never a runner variable; HOME and the other identity variables are the caller's; the
 * agent contract variables are set over anything inherited. Everything else the job holds (a
 * cloud key, an npm token, the runner's context) stays out unless a profile names it.
 */
export function agentEnvironment(
  parent: Record<string, string | undefined>,
  contract: AgentContract,
  opts: AgentEnvironmentOptions
): Record<string, string> {
  const allowed = new Set(opts.allowed)
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || isRunnerVariable(name)) continue
    if (isBaseName(name) || allowed.has(name)) env[name] = value
  }
  const identity = {
    HOME: opts.home,
    USER: opts.user,
    LOGNAME: opts.logname,
    TMPDIR: opts.tmpdir,
    SHELL: opts.shell
  }
  for (const [name, value] of Object.entries(identity)) if (value !== undefined) env[name] = value
  env.ITERVOX_HANDOFF_PATH = contract.handoffPath
  env.ITERVOX_RUN_TIMESTAMP = contract.runTimestamp
  env.ITERVOX_PROFILE = contract.profile
  env.ITERVOX_ISSUE = contract.issue
  env.ITERVOX_PROMPT_FILE = contract.promptFile
  env.ITERVOX_AGENT = '1'
  return env
}
