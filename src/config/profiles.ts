import { isRunnerVariable } from './runner-variables.js'
import { UserError } from '../errors.js'
import { commandArgv } from './command.js'
import { didYouMean } from './did-you-mean.js'
import type { Env } from './interpolate.js'
import type { Problems } from './problems.js'
import { repoPath } from './repo-path.js'
import { profileSchema } from './schema.js'
import { parseSection } from './schema-issues.js'
import { sectionInput } from './section-input.js'
import { type Path, quoted } from './source-map.js'
import type { ProfileConfig } from './types.js'

/** The daemon actions a profile may allow. */
const ACTIONS = [
  'comment',
  'comment_pr',
  'create_issue',
  'move_state',
  'provide_input',
  'merge_pr'
] as const

// What a shell accepts as a variable name.
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

// Profile names become part of handoff file names.
const PROFILE_NAME = /^[A-Za-z0-9._-]+$/

export interface ProfileContext {
  problems: Problems
  env: Env
  /** WORKFLOW.md's folder, relative to the repository root. */
  baseDir: string
  /** Null when the file is missing; throws a UserError when it is there but unusable. */
  readFile: (repoPath: string) => string | null
  /** agent.command, used when the profile names none. */
  defaultCommand: string
}

/** One `agent.profiles.<name>` entry, with its SOUL.md and INSTRUCTIONS.md read. */
export function readProfile(
  name: string,
  raw: unknown,
  ctx: ProfileContext
): ProfileConfig | undefined {
  const { problems } = ctx
  const path = ['agent', 'profiles', name]
  if (!PROFILE_NAME.test(name)) {
    const fixed = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '')
    problems.error(
      problems.map.key(path),
      `agent.profiles: profile name ${quoted(name)} may only use letters, digits, ".", "_" and "-"; rename it` +
        (fixed ? `, e.g. ${quoted(fixed)}` : '')
    )
  }
  const input = sectionInput(raw ?? Object.create(null), path, 'profile', problems, {
    env: ctx.env
  })
  const parsed = parseSection(profileSchema, input, path, 'profile', problems)
  if (!parsed) return undefined
  const soul = readProfileFile(parsed.soul_file, [...path, 'soul_file'], ctx)
  const instructions = readProfileFile(
    parsed.instructions_file,
    [...path, 'instructions_file'],
    ctx
  )
  const allowedActions = actionNames(parsed.allowed_actions, [...path, 'allowed_actions'], problems)
  const env = envNames(parsed.env, [...path, 'env'], problems)
  if (!soul || !instructions) return undefined
  const command = parsed.command ?? ctx.defaultCommand
  return {
    name,
    command,
    argv: commandArgv(command),
    commandAt: commandAt(path, parsed.command !== undefined, problems),
    soulFile: soul.file,
    soulText: soul.text,
    soulLine: problems.map.key([...path, 'soul_file']).line,
    instructionsFile: instructions.file,
    instructionsText: instructions.text,
    allowedActions,
    allowedStates: parsed.allowed_states,
    enabled: parsed.enabled,
    commitPaths: parsed.commit_paths,
    requiredSections: parsed.required_sections,
    env,
    ...(parsed.max_cost_usd !== undefined ? { maxCostUsd: parsed.max_cost_usd } : {}),
    ...(parsed.fallback_profile ? { fallbackProfile: parsed.fallback_profile } : {}),
    verify: parsed.verify,
    verifyTimeoutMs: parsed.verify_timeout_ms
  }
}

/** Which key sets the profile's command, and its line (the profile's own, when neither is written). */
function commandAt(path: Path, own: boolean, problems: Problems): ProfileConfig['commandAt'] {
  const key =
    own || !problems.map.has(['agent', 'command']) ? [...path, 'command'] : ['agent', 'command']
  return { line: problems.map.key(key).line, key: key.join('.') }
}

function readProfileFile(
  value: string,
  path: Path,
  ctx: ProfileContext
): { file: string; text: string } | undefined {
  const where = repoPath(ctx.baseDir, value)
  if ('problem' in where) {
    ctx.problems.errorAtKey(path, where.problem)
    return undefined
  }
  let text: string | null
  try {
    text = ctx.readFile(where.path)
  } catch (e) {
    if (!(e instanceof UserError)) throw e
    ctx.problems.errorAtKey(path, e.format())
    return undefined
  }
  if (text === null) {
    const what = ctx.problems.isFromEnv(path) ? 'the file it names' : where.path
    ctx.problems.errorAtKey(
      path,
      `${what} does not exist in the repository; create it or fix the path`
    )
    return undefined
  }
  return { file: where.path, text: profileText(text) }
}

/** What of a profile file's text the profile keeps. */
function profileText(text: string): string {
  return text.trim()
}

/**
 * The profiles, as readProfile makes them, with their files' texts from `read`: for a parse that
 * stood in empty texts while it learnt which files the profiles name (the texts decide no check).
 */
export function withProfileTexts(
  profiles: Record<string, ProfileConfig>,
  read: (repoPath: string) => string
): Record<string, ProfileConfig> {
  // No prototype, as parseWorkflow makes it: a profile is looked up by a name from outside.
  const out: Record<string, ProfileConfig> = Object.create(null)
  for (const [name, profile] of Object.entries(profiles)) {
    out[name] = {
      ...profile,
      soulText: profileText(read(profile.soulFile)),
      instructionsText: profileText(read(profile.instructionsFile))
    }
  }
  return out
}

/** Lower-cased, de-duplicated and sorted, as itervox keeps them; unknown names are errors. */
function actionNames(names: string[], path: Path, problems: Problems): string[] {
  const known: readonly string[] = ACTIONS
  const out = new Set<string>()
  names.forEach((raw, i) => {
    const name = raw.trim().toLowerCase()
    if (known.includes(name)) {
      out.add(name)
      return
    }
    const itemPath = [...path, i]
    const hint = problems.isFromEnv(itemPath) ? '' : didYouMean(name, known)
    problems.errorAt(
      itemPath,
      `unknown action ${problems.quote(itemPath, raw)}${hint || `; use one of: ${known.join(', ')}`}`
    )
  })
  return [...out].sort()
}

/**
 * The variables the agent may take from the job's environment, each once. The runner's own
 * (its tokens, the action's inputs, the step's command files) are refused: the agent never
 * gets them, named or not.
 */
function envNames(names: string[], path: Path, problems: Problems): string[] {
  const out = new Set<string>()
  names.forEach((name, i) => {
    const itemPath = [...path, i]
    const shown = problems.quote(itemPath, name)
    if (isRunnerVariable(name)) {
      problems.errorAt(
        itemPath,
        `${shown} is a runner variable (a token, an action input or a step file), which the agent never gets; remove it: the action pushes and comments itself after the agent exits`
      )
    } else if (!ENV_NAME.test(name)) {
      problems.errorAt(
        itemPath,
        `${shown} is not an environment variable name; use letters, digits and "_", not starting with a digit`
      )
    } else {
      out.add(name)
    }
  })
  return [...out]
}
