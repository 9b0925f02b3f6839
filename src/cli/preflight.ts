import { existsSync } from 'node:fs'
import { join, relative } from 'node:path'
import { unknownStateMentions } from '../config/state-mentions.js'
import type { ProfileConfig, WorkflowConfig } from '../config/types.js'
import { formatLocation, type Location, messageOf, UserError } from '../errors.js'
import { readCappedText } from '../files/read-capped.js'
import { commandUnavailable } from '../pipeline/stage/command-check.js'
import { checkTemplates } from '../prompt/check-templates.js'
import { ACTIONS_WORKFLOW_PATH, issueInputProblem, labelListProblems } from './actions-workflow.js'
import { missingEventProblems } from './workflow-events.js'

// A workflow file is a few KiB.
const WORKFLOW_YML_MAX_BYTES = 256 * 1024

export interface PreflightWarning {
  message: string
  location?: Location
}

export interface Preflight {
  errors: UserError[]
  warnings: PreflightWarning[]
}

/** `file:line:col: warning: message`, as a person reads it. */
export function warningLine(w: PreflightWarning): string {
  return `${w.location ? `${formatLocation(w.location)}: ` : ''}warning: ${w.message}`
}

/**
 * What `run` and the action will need beyond a WORKFLOW.md that loads: templates that render,
 * states that exist, agent commands that can be found, and a GitHub workflow that lets the
 * stages' labels through. A command missing here is a warning (CI installs its CLI in a step
 * before the action); the stage itself refuses to start without it.
 */
export async function preflight(config: WorkflowConfig, root: string): Promise<Preflight> {
  const errors = await checkTemplates(config)
  const warnings: PreflightWarning[] = unknownStateMentions(config)

  // Profiles that share a command (agent.command) are checked and reported together.
  const groups = new Map<string, ProfileConfig[]>()
  for (const profile of Object.values(config.agent.profiles)) {
    if (!profile.enabled) continue
    const key = `${profile.commandAt.line}\0${profile.command}`
    groups.set(key, [...(groups.get(key) ?? []), profile])
  }
  for (const [first, ...others] of groups.values()) {
    const problem = commandUnavailable({
      profile: first!,
      configFile: config.file,
      cwd: root,
      pathVar: process.env.PATH
    })
    if (!problem) continue
    const names = [first!, ...others].map((p) => JSON.stringify(p.name)).join(', ')
    const text = problem.problem.replace(
      `of profile ${JSON.stringify(first!.name)}`,
      `of profile${others.length > 0 ? 's' : ''} ${names}`
    )
    if (!problem.missing) {
      errors.push(new UserError(text, problem.location))
      continue
    }
    warnings.push({
      message: `${text}; a stage does not start without it`,
      location: problem.location
    })
  }

  const workflow = join(root, ACTIONS_WORKFLOW_PATH)
  if (existsSync(workflow)) {
    const shown = relative(process.cwd(), workflow) || ACTIONS_WORKFLOW_PATH
    let text: string
    try {
      text = readCappedText(workflow, WORKFLOW_YML_MAX_BYTES)
    } catch (err) {
      return {
        errors,
        warnings: [
          ...warnings,
          { message: `not checked: ${messageOf(err)}`, location: { file: shown } }
        ]
      }
    }
    for (const p of labelListProblems(text, config)) {
      if (p.error) errors.push(new UserError(p.message, { file: shown, line: p.line }))
      else warnings.push({ message: p.message, location: { file: shown, line: p.line } })
    }
    for (const p of missingEventProblems(text, config, new Date())) {
      warnings.push({ message: p.message, location: { file: shown, line: p.line } })
    }
    const issueInput = issueInputProblem(text, config)
    if (issueInput) {
      warnings.push({
        message: issueInput.message,
        location: { file: shown, line: issueInput.line }
      })
    }
  }
  return { errors, warnings }
}
