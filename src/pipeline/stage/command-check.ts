import { existsSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { resolveCommand } from '../../agent/command.js'
import { missingModelKey } from '../../agent/model-access.js'
import { presetFor } from '../../agent/presets.js'
import { closest } from '../../config/did-you-mean.js'
import type { ProfileConfig } from '../../config/types.js'
import { UserError } from '../../errors.js'

export interface CommandCheck {
  profile: ProfileConfig
  /** WORKFLOW.md as shown to the user. */
  configFile: string
  /** The repository root: a command with a slash is found relative to it. */
  cwd: string
  /** The agent's PATH, which is the job's own (agentEnvironment passes it through as it is). */
  pathVar: string | undefined
  /** For an agent that runs as another user: why that user cannot run the file, or null. */
  cannotRun?: (file: string) => string | null
}

// The CLIs a misspelt command most likely meant.
const PRESETS = ['claude', 'codex', 'gemini']

/** A stage that cannot start because its agent's command is missing or not runnable. */
export class CommandUnavailableError extends UserError {
  constructor(
    profile: string,
    /** What is wrong with the command, and what to do. */
    readonly problem: string,
    location: { file: string; line: number },
    /** The command is not there (yet): a CLI a later step or another machine may install. */
    readonly missing: boolean
  ) {
    super(`the ${profile} stage cannot start: ${problem}`, location)
    this.name = 'CommandUnavailableError'
  }
}

/**
 * Whether the profile's agent can be started: its command found where the agent will look for
 * it and runnable by the user it runs as. Checked before anything of a stage happens, so a
 * missing or misspelt CLI is one clear line rather than a crash, its retries and their partials.
 */
export function commandUnavailable(c: CommandCheck): CommandUnavailableError | null {
  const { profile } = c
  const command = profile.argv[0] ?? ''
  const found = resolveCommand(command, c.cwd, c.pathVar, profile.name)
  let problem: string
  let missing = false
  if ('error' in found) {
    // A relative path names a file of the repository, which no later step installs.
    const script = command.includes('/') && !isAbsolute(command)
    missing = !script && !existsSync(command)
    const fix = missing
      ? 'install it (in CI: in a step before this action)'
      : existsSync(resolve(c.cwd, command))
        ? 'make it executable (chmod +x, and commit that)'
        : 'commit it'
    const meant = missing ? closest(command, PRESETS) : undefined
    const hint = meant && meant !== command ? ` (did you mean "${meant}"?)` : ''
    problem = `${found.error}${hint}; ${fix} or fix ${profile.commandAt.key}`
  } else {
    // A repository script is run from the agent's own clone, which that user owns.
    const barred = isAbsolute(command) || !command.includes('/') ? c.cannotRun?.(found.path) : null
    if (!barred) return null
    problem = `command "${command}" of profile "${profile.name}" is at ${found.path}, ${barred}`
  }
  return new CommandUnavailableError(
    profile.name,
    problem,
    { file: c.configFile, line: profile.commandAt.line },
    missing
  )
}

/**
 * Whether the profile's agent CLI has a way to its model: a missing key is one line naming the
 * secret, before anything of the stage happens, rather than an agent that fails to log in and
 * the retries and partials that follow. `ownHome` as missingModelKey takes it.
 */
export function modelKeyUnavailable(
  profile: ProfileConfig,
  configFile: string,
  env: Record<string, string | undefined>,
  ownHome: string | undefined
): CommandUnavailableError | null {
  const preset = presetFor(profile.argv, { maxTurns: 0, isRoot: false }).name
  const problem = missingModelKey(preset, env, ownHome)
  if (problem === null) return null
  return new CommandUnavailableError(
    profile.name,
    problem,
    { file: configFile, line: profile.commandAt.line },
    false
  )
}
