import * as z from '../zod.js'
import { DAEMON_ONLY_KEYS, type Section } from './daemon-keys.js'
import { closest, didYouMean } from './did-you-mean.js'
import type { Problems } from './problems.js'
import { labelled, type Path, quoted } from './source-map.js'
import { PARSE_ONCE } from '../parse-once.js'

/**
 * Checks one section against its schema. Each zod issue becomes one error at the key or value
 * it is about, saying what to write instead; returns undefined when there was any.
 */
export function parseSection<T extends z.core.$ZodType>(
  schema: T,
  input: unknown,
  path: Path,
  section: Section,
  problems: Problems
): z.output<T> | undefined {
  const result = z.safeParse(schema, input, { ...PARSE_ONCE, reportInput: true })
  if (result.success) return result.data
  // Unknown keys first: a misspelt key then explains a missing one.
  const issues = [...result.error.issues].sort(
    (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys')
  )
  for (const issue of issues) report(issue, schema, path, section, problems)
  return undefined
}

function report(
  issue: z.core.$ZodIssue,
  schema: z.core.$ZodType,
  base: Path,
  section: Section,
  problems: Problems
): void {
  const rel = issue.path.filter((p): p is string | number => typeof p !== 'symbol')
  const path = [...base, ...rel]
  const missing = issue.input === undefined && !problems.map.has(path)
  if (missing && problems.isTypoTarget(path)) return
  if (missing && path.length > 0) {
    const key = String(path[path.length - 1])
    const values = issue.code === 'invalid_value' ? ` (${oneOf(issue.values)})` : ''
    problems.error(
      problems.map.key(path),
      labelled(path.slice(0, -1), `missing required key "${key}"${values}; add it`)
    )
    return
  }
  switch (issue.code) {
    case 'unrecognized_keys': {
      const known = keysAt(schema, rel)
      // A daemon-only key is a fine guess too; it then loads with a warning.
      const guesses = [...known, ...(rel.length === 0 ? DAEMON_ONLY_KEYS[section] : [])]
      for (const key of issue.keys) {
        const meant = closest(key, guesses)
        if (meant !== undefined) problems.markTypoOf([...path, meant])
        problems.error(
          problems.map.key([...path, key]),
          labelled(path, unknownKey(key, meant, known))
        )
      }
      return
    }
    case 'invalid_type':
      problems.errorAt(
        path,
        issue.input === null
          ? `is empty; write ${expected(issue.expected)}`
          : `must be ${expected(issue.expected)}, not ${describe(issue.input)}`
      )
      return
    case 'invalid_value': {
      const options = issue.values.map(String)
      const hint =
        typeof issue.input === 'string' && !problems.isFromEnv(path)
          ? didYouMean(issue.input, options)
          : ''
      problems.errorAt(path, `must be ${oneOf(issue.values)}${hint}`)
      return
    }
    case 'too_small':
      problems.errorAt(path, tooSmall(issue))
      return
    case 'too_big':
      problems.errorAt(path, `must be at most ${String(issue.maximum)}`)
      return
    // Shapes WORKFLOW.md's schema has no better words for.
    case 'custom':
    case 'invalid_element':
    case 'invalid_format':
    case 'invalid_key':
    case 'invalid_union':
    case 'not_multiple_of':
      problems.errorAt(path, issue.message)
  }
}

function unknownKey(key: string, meant: string | undefined, known: string[]): string {
  const hint =
    meant === undefined
      ? `; remove it, or use one of: ${known.join(', ')}`
      : `; did you mean ${quoted(meant)}?`
  return `unknown key ${quoted(key)}${hint}`
}

function tooSmall(issue: z.core.$ZodIssueTooSmall): string {
  if (issue.origin === 'string') return 'must not be empty'
  if (issue.origin === 'array') return `must list at least ${String(issue.minimum)}`
  return issue.inclusive
    ? `must be at least ${String(issue.minimum)}`
    : `must be greater than ${String(issue.minimum)}`
}

function oneOf(values: readonly unknown[]): string {
  return values.length === 1 ? String(values[0]) : `one of ${values.map(String).join(', ')}`
}

function expected(type: string): string {
  switch (type) {
    case 'string':
      return 'text'
    case 'number': // every number in the schema is a whole one
    case 'int':
      return 'a whole number'
    case 'boolean':
      return 'true or false'
    case 'array':
      return 'a list'
    case 'object':
      return 'a map of keys to values'
    default:
      return type
  }
}

// Numbers and booleans cannot come from the environment, so showing them leaks nothing.
function describe(value: unknown): string {
  if (typeof value === 'string') return 'text'
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return 'a list'
  return 'a map'
}

/** The keys the object schema at `path` (inside `schema`) accepts. */
function keysAt(schema: z.core.$ZodType, path: readonly (string | number)[]): string[] {
  let current: z.core.$ZodType | undefined = schema
  let i = 0
  while (current) {
    const def: z.core.$ZodTypes['_zod']['def'] = (current as z.core.$ZodTypes)._zod.def
    if (def.type === 'pipe') current = def.in
    else if (def.type === 'optional' || def.type === 'nullable') current = def.innerType
    else if (i === path.length) return def.type === 'object' ? Object.keys(def.shape) : []
    else if (def.type === 'object') current = def.shape[String(path[i++])]
    else if (def.type === 'array') {
      current = def.element
      i++
    } else return []
  }
  return []
}
