import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

type Steps = typeof import('./steps.js')

/**
 * The steps' code, from the one bundle beside this step's own (dist/steps/index.js next to
 * dist/main and dist/post), so that the two steps do not each carry a copy of the program.
 * The path is built at run time and the import left to node: a bundler would otherwise pull the
 * whole program into this light entry again.
 */
export async function loadSteps(): Promise<Steps> {
  const here = dirname(fileURLToPath(import.meta.url))
  const bundle = pathToFileURL(join(here, '..', 'steps', 'index.js')).href
  return (await import(/* webpackIgnore: true */ bundle)) as Steps
}
