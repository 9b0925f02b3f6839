import type { Flag } from '../ports.js'

// A flag is a label on GitHub, and labels match in any case; flag names are lower case.

export function hasFlag(labels: readonly string[], flag: Flag): boolean {
  return labels.some((l) => l.toLowerCase() === flag)
}

/** The labels once `flag` is set (`on`) or cleared. */
export function withFlag(labels: readonly string[], flag: Flag, on: boolean): string[] {
  return on ? [...labels, flag] : labels.filter((l) => l.toLowerCase() !== flag)
}
