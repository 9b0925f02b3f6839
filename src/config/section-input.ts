import { DAEMON_ONLY_KEYS, SCHEMA_1_KEYS, type Section } from './daemon-keys.js'
import { type Env, interpolate, literalDollarAdvice } from './interpolate.js'
import type { Problems } from './problems.js'
import type { Path } from './source-map.js'

export interface SectionOptions {
  /** Where `$VAR` values come from; without it nothing is interpolated. */
  env?: Env
  /** Keys whose values are left as written (Liquid text, or parts checked on their own). */
  verbatim?: readonly string[]
}

/**
 * A section ready for its schema: daemon-only keys dropped with a warning, schema-1 keys
 * dropped with an error, and `$VAR` / `${VAR}` replaced in every string value.
 */
export function sectionInput(
  raw: unknown,
  path: Path,
  section: Section,
  problems: Problems,
  options: SectionOptions
): unknown {
  if (!isMap(raw)) return raw
  const out: Record<string, unknown> = Object.create(null)
  for (const [key, value] of Object.entries(raw)) {
    const keyPath = [...path, key]
    const rejected = SCHEMA_1_KEYS[section]?.[key]
    if (DAEMON_ONLY_KEYS[section].includes(key)) {
      problems.warnAtKey(keyPath, 'used only by the itervox daemon; this CI runner ignores it')
    } else if (rejected !== undefined) {
      problems.errorAtKey(keyPath, rejected)
    } else {
      out[key] =
        options.env === undefined || options.verbatim?.includes(key)
          ? value
          : interpolateTree(value, keyPath, problems, options.env)
    }
  }
  return out
}

function interpolateTree(value: unknown, path: Path, problems: Problems, env: Env): unknown {
  if (typeof value === 'string') return interpolateValue(value, path, problems, env)
  if (Array.isArray(value)) {
    return value.map((item, i) => interpolateTree(item, [...path, i], problems, env))
  }
  if (isMap(value)) {
    const out: Record<string, unknown> = Object.create(null)
    for (const [key, item] of Object.entries(value)) {
      out[key] = interpolateTree(item, [...path, key], problems, env)
    }
    return out
  }
  return value
}

function interpolateValue(text: string, path: Path, problems: Problems, env: Env): string {
  const result = interpolate(text, env)
  // agent.command and a profile's command.
  const command = path.at(-1) === 'command'
  for (const name of result.missing) {
    problems.errorAt(
      path,
      command
        ? `environment variable ${name} is not set or is empty; set it, or leave it out (${literalDollarAdvice(false)})`
        : `environment variable ${name} is not set or is empty; set it, or ${literalDollarAdvice(true)}`
    )
  }
  if (result.malformed) {
    problems.errorAt(
      path,
      command
        ? `a "\${" must be followed by a variable name and "}", as in \${NAME} (${literalDollarAdvice(false)})`
        : `a "\${" must be followed by a variable name and "}", as in \${NAME}; ${literalDollarAdvice(true)}`
    )
  }
  if (result.missing.length > 0 || result.malformed) {
    problems.markBroken(path)
    return text
  }
  if (result.usedEnv) problems.markFromEnv(path)
  return result.value
}

/** A YAML map as the tree reader makes it. */
export function isMap(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === null || proto === Object.prototype
}
