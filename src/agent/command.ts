import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, isAbsolute, join, resolve } from 'node:path'

/**
 * Where the profile's command lives: a name with a slash is taken relative to the repository
 * root, a bare name is looked up on the agent environment's PATH (never run through a
 * shell). Returns the absolute path, or a one-line reason naming the command and profile.
 */
export function resolveCommand(
  command: string,
  cwd: string,
  pathVar: string | undefined,
  profile: string
): { path: string } | { error: string } {
  if (command === '') return { error: `profile "${profile}" has no command` }
  if (command.includes('/')) {
    const path = isAbsolute(command) ? command : resolve(cwd, command)
    if (isExecutableFile(path)) return { path }
    return {
      error: `command "${command}" of profile "${profile}" ${existsAsFile(path) ? 'is not executable' : 'does not exist'}`
    }
  }
  for (const dir of (pathVar ?? '').split(delimiter)) {
    if (dir === '') continue // an empty PATH entry would mean the current directory
    const path = resolve(cwd, join(dir, command))
    if (isExecutableFile(path)) return { path }
  }
  return { error: `command "${command}" of profile "${profile}" was not found on PATH` }
}

function existsAsFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

function isExecutableFile(path: string): boolean {
  if (!existsAsFile(path)) return false
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}
