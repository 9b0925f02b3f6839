export type Env = Record<string, string | undefined>

export interface Interpolated {
  value: string
  /** Variables used but unset or empty. */
  missing: string[]
  /** Some text came from the environment. */
  usedEnv: boolean
  /** A `${` that is not `${NAME}`. */
  malformed: boolean
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y
const BRACED = /\{([A-Za-z_][A-Za-z0-9_]*)\}/y

/**
 * Replaces `$VAR` and `${VAR}` with their environment values; `$$` is a literal `$`, and so
 * is a `$` followed by anything that cannot start a name.
 */
export function interpolate(text: string, env: Env): Interpolated {
  const result: Interpolated = { value: '', missing: [], usedEnv: false, malformed: false }
  let i = 0
  for (let dollar = text.indexOf('$'); dollar !== -1; dollar = text.indexOf('$', i)) {
    result.value += text.slice(i, dollar)
    const next = text[dollar + 1]
    let name: string
    if (next === '$') {
      result.value += '$'
      i = dollar + 2
      continue
    }
    if (next === '{') {
      BRACED.lastIndex = dollar + 1
      const braced = BRACED.exec(text)
      if (!braced) {
        result.malformed = true
        result.value += '$'
        i = dollar + 1
        continue
      }
      name = braced[1] ?? ''
      i = BRACED.lastIndex
    } else {
      NAME.lastIndex = dollar + 1
      const bare = NAME.exec(text)
      if (!bare) {
        result.value += '$'
        i = dollar + 1
        continue
      }
      name = bare[0]
      i = NAME.lastIndex
    }
    // Own properties only: `$constructor` must not find Object.prototype.constructor.
    const value = Object.hasOwn(env, name) ? env[name] : undefined
    if (typeof value === 'string' && value !== '') {
      result.value += value
      result.usedEnv = true
    } else if (!result.missing.includes(name)) {
      result.missing.push(name)
    }
  }
  result.value += text.slice(i)
  return result
}

/**
 * What to write instead of a `$` that names no variable. `$$` is a literal `$`, except where
 * no `$` may stay at all (a command, which runs without a shell: command.ts), so the advice
 * never leads into that rule.
 */
export function literalDollarAdvice(dollarAllowed: boolean): string {
  return dollarAllowed ? 'write $$ for a literal $' : 'a command may not hold a literal $'
}
