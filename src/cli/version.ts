import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** The npm package the CLI is published in. */
export const PACKAGE_NAME = '@itervox/handoff'

/**
 * This CLI's version, from the package.json of the package it runs from: the bundle is
 * dist/cli/index.js, two folders below it, and npm's bin link is followed to it.
 */
export function cliVersion(script: string | undefined = process.argv[1]): string | undefined {
  if (!script || !existsSync(script)) return undefined
  let dir = dirname(realpathSync(script))
  for (let up = 0; up < 3; up++, dir = dirname(dir)) {
    const path = join(dir, 'package.json')
    if (!existsSync(path)) continue
    const pkg: unknown = JSON.parse(readFileSync(path, 'utf8'))
    if (typeof pkg !== 'object' || pkg === null) continue
    const { name, version } = pkg as { name?: unknown; version?: unknown }
    if (name === PACKAGE_NAME && typeof version === 'string') return version
  }
  return undefined
}
