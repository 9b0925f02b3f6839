/** A JSON object from one line of an event stream. */
export type JsonObject = Record<string, unknown>

/** The line as a JSON object, or undefined for anything else (banners, garbage, cut lines). */
export function parseJsonLine(line: string): JsonObject | undefined {
  const text = line.trim()
  if (!text.startsWith('{')) return undefined
  try {
    return asObject(JSON.parse(text))
  } catch {
    return undefined
  }
}

export function asObject(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as JsonObject)
    : undefined
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** A finite, non-negative number, or undefined. */
export function asCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined
}

/** Adds counts where at least one is known; undefined when none is. */
export function addCounts(...values: (number | undefined)[]): number | undefined {
  const known = values.filter((v): v is number => v !== undefined)
  return known.length ? known.reduce((a, b) => a + b, 0) : undefined
}

// How vendors word a rate limit or an exhausted quota in error text, when they give no
// status field. 529 ("overloaded") is deliberately not here: it is the vendor's trouble,
// not the user's limit.
// Gemini CLI's stream says only "Resource has been exhausted (e.g. check quota)" for a 429.
const RATE_LIMIT_WORDING =
  /\b429\b|rate[ _-]?limit|too many requests|resource[ _](has been )?exhausted|quota exceeded|exceeded your current quota|usage limit/i

export function mentionsRateLimit(text: string): boolean {
  return RATE_LIMIT_WORDING.test(text)
}
