/**
 * A copy of a parsed config (plain and null-prototype objects, arrays, primitives) that keeps
 * each object's prototype, which structuredClone and JSON do not: a test that changes the copy
 * starts from what the loader returned without parsing the file again.
 */
export function deepCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(deepCopy) as T
  if (typeof value !== 'object' || value === null) return value
  const out = Object.create(Object.getPrototypeOf(value) as object | null) as Record<
    string,
    unknown
  >
  for (const [key, v] of Object.entries(value)) out[key] = deepCopy(v)
  return out as T
}
