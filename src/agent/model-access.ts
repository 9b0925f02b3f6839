import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { modelProvider } from './model-providers.js'
import type { HomeFile } from './model-providers.js'
import { startModelProxy } from './model-proxy.js'
import type { ModelProxy } from './model-proxy.js'
import type { PresetName } from './types.js'

/** How the agent reaches its model without holding the key. */
export interface ModelAccess {
  /** Set in the agent's environment, after `hidden` has been removed from the parent's. */
  env: Record<string, string>
  /** Written to the agent's HOME before it starts. */
  files: HomeFile[]
  /** Close it once the agent has ended. */
  proxy: Pick<ModelProxy, 'url' | 'requests' | 'close'>
  /** Parent variables the agent must not get: the proxy holds the key and the base URL. */
  hidden: string[]
}

/**
 * Starts the model proxy for a preset and says what the agent gets instead of the key. Null
 * for `generic`, whose model API is unknown (its environment passes as it is); `missing` when
 * the parent holds no key for the preset, a case to warn about: the agent then has no key.
 */
export async function setUpModelAccess(
  preset: PresetName,
  parentEnv: Record<string, string | undefined>
): Promise<ModelAccess | { missing: string } | null> {
  const provider = modelProvider(preset)
  if (provider === undefined) return null
  const names = provider.credentials.map((c) => c.variable)
  const found = provider.credentials.find((c) => parentEnv[c.variable]?.trim())
  if (found === undefined) return { missing: `none of ${names.join(', ')} is set` }

  // A secret pasted with its trailing newline would be an invalid header.
  const key = (parentEnv[found.variable] ?? '').trim()
  const { variable, default: fallback } = provider.baseUrl
  const upstream = baseUrl(variable, parentEnv[variable] || fallback)
  // New per run: a placeholder that leaks is worth nothing outside this job.
  const placeholder = `itervox-placeholder-${randomBytes(16).toString('hex')}`
  const proxy = await startModelProxy({
    upstream,
    route: provider.route,
    placeholder,
    credential: {
      header: found.header,
      value: found.header === 'authorization' ? `Bearer ${key}` : key
    }
  })
  const agent = provider.agent(proxy.url, placeholder, found.variable)
  return {
    env: { ...agent.env, ...noProxy(parentEnv) },
    files: agent.files,
    proxy,
    hidden: [...names, variable, ...provider.conflicting]
  }
}

/**
 * Why the preset's CLI would have no way to its model, naming the secret to set; null when it
 * has one, or for `generic`. `ownHome` is the HOME of an agent that runs as the user (isolation
 * none, the CLI): a login saved there counts.
 */
export function missingModelKey(
  preset: PresetName,
  env: Record<string, string | undefined>,
  ownHome: string | undefined
): string | null {
  const provider = modelProvider(preset)
  if (provider === undefined) return null
  const { credentials, otherLogins: other, secret } = provider
  const set = (name: string) => Boolean(env[name]?.trim())
  if (credentials.some((c) => set(c.variable)) || other.variables.some(set)) return null
  if (ownHome) {
    const folder =
      (other.home.variable && env[other.home.variable]) || join(ownHome, other.home.folder)
    const saved = [
      ...other.home.files.map((f) => join(folder, f)),
      ...other.homeFiles.map((f) => join(ownHome, f))
    ]
    if (saved.some((f) => existsSync(f))) return null
  }
  const others = credentials.map((c) => c.variable).filter((v) => v !== secret)
  return `${preset} has no model key: set ${secret} (or ${others.join(', ')}); in CI, a repository secret passed in the action step's env:`
}

function baseUrl(variable: string, value: string): URL {
  const url = URL.canParse(value) ? new URL(value) : undefined
  // The value is not repeated: a base URL can carry credentials of its own.
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new Error(`${variable} is not an http or https URL`)
  }
  return url
}

// A CLI that honours the user's HTTPS_PROXY would otherwise send its loopback calls there,
// where the proxy cannot be reached. Both spellings, as clients differ in which they read.
function noProxy(parentEnv: Record<string, string | undefined>): Record<string, string> {
  const hosts = [parentEnv.NO_PROXY, parentEnv.no_proxy, '127.0.0.1']
    .flatMap((v) => (v ?? '').split(','))
    .map((h) => h.trim())
    .filter(Boolean)
  const value = [...new Set(hosts)].join(',')
  return { NO_PROXY: value, no_proxy: value }
}
