import { dirname, resolve } from 'node:path'
import { formatWarning } from '../config/load.js'
import type { AutomationConfig, TriggerType, WorkflowConfig } from '../config/types.js'
import { UserError, UserErrors } from '../errors.js'
import { repoRootOf } from '../config/disk-files.js'
import { parseCommandArgs, stringOpt, type Command } from './args.js'
import { preflight, warningLine } from './preflight.js'
import { findWorkflowFile, loadWorkflowChecked } from './workflow.js'

const USAGE = `
Usage: itervox-handoff validate [--workflow FILE] [--json]

Checks WORKFLOW.md and the profile files it names, and what a run will need: every
template rendered strictly against a sample issue (first run and retry), the states the
profiles' files tell agents to ask for, each profile's agent command on PATH, and the label
list of .github/workflows/itervox.yml. Every mistake is printed as file:line:col: message
and exits 1. Warnings: keys itervox knows but this runner ignores, and an agent command not
found here (CI installs its CLI in a step before the action; a stage does not start without
it).

Options:
  --workflow FILE   the workflow file (default: the WORKFLOW.md here or in the nearest
                    folder above, up to the repository's top level)
  --json            print one JSON object instead (see the README); exits 1 when it
                    holds errors
  -h, --help        show this help
`

/** One problem in `validate --json`; `line` and `col` are null when there is no position. */
interface JsonProblem {
  file: string | null
  line: number | null
  col: number | null
  message: string
}

/** What `validate --json` prints; the README documents it, so keys are only ever added. */
interface ValidateJson {
  file: string
  valid: boolean
  errors: JsonProblem[]
  warnings: JsonProblem[]
  profiles: string[]
  automations: {
    states: string[]
    profile: string
    moveToState: string | null
    id: string
    trigger: TriggerType
  }[]
}

export const validateCommand: Command = {
  summary: 'check WORKFLOW.md and its profile files',
  usage: USAGE,
  async run(argv) {
    const { values, help } = parseCommandArgs('validate', USAGE, argv, {
      workflow: { type: 'string' },
      json: { type: 'boolean' }
    })
    if (help) return 0
    const file = findWorkflowFile(stringOpt(values.workflow))
    if (values.json === true) return printJson(await validateJson(file))

    const { config, warnings } = loadWorkflowChecked(file)
    for (const w of warnings) process.stderr.write(formatWarning(w) + '\n')
    const found = await preflight(config, repoRootOf(dirname(resolve(file))))
    for (const w of found.warnings) process.stderr.write(warningLine(w) + '\n')
    if (found.errors.length > 0) throw new UserErrors(found.errors)
    const chain = enabledAutomations(config).map(
      (a) => `${startedBy(a)} → ${a.profile}${a.moveToState ? ` → ${a.moveToState}` : ''}`
    )
    const profiles = Object.keys(config.agent.profiles)
    process.stdout.write(
      `${file} is valid: ${profiles.length} profile${profiles.length === 1 ? '' : 's'} (${profiles.join(', ')}), ` +
        `${chain.length} automation${chain.length === 1 ? '' : 's'}\n` +
        chain.map((c) => `  ${c}\n`).join('')
    )
    return 0
  }
}

/** Every problem as data: loading stops at the first kind of mistake, as it does for people. */
async function validateJson(file: string): Promise<ValidateJson> {
  const out: ValidateJson = {
    file,
    valid: false,
    errors: [],
    warnings: [],
    profiles: [],
    automations: []
  }
  let config: WorkflowConfig
  try {
    const loaded = loadWorkflowChecked(file)
    config = loaded.config
    out.warnings = loaded.warnings.map((w) => problem(w.message, w.location))
  } catch (e) {
    if (!(e instanceof UserError)) throw e
    out.errors = (e instanceof UserErrors ? e.errors : [e]).map((u) =>
      problem(u.message, u.location)
    )
    return out
  }
  const found = await preflight(config, repoRootOf(dirname(resolve(file))))
  out.errors = found.errors.map((u) => problem(u.message, u.location))
  out.warnings.push(...found.warnings.map((w) => problem(w.message, w.location)))
  out.valid = out.errors.length === 0
  out.profiles = Object.keys(config.agent.profiles)
  out.automations = enabledAutomations(config).map((a) => ({
    states: a.states,
    profile: a.profile,
    moveToState: a.moveToState ?? null,
    id: a.id,
    trigger: a.trigger.type
  }))
  return out
}

function printJson(out: ValidateJson): number {
  process.stdout.write(JSON.stringify(out, null, 2) + '\n')
  return out.valid ? 0 : 1
}

function enabledAutomations(config: WorkflowConfig) {
  return config.automations.filter((a) => a.enabled)
}

/** What starts an automation, in the summary's words: its states, or its trigger. */
function startedBy(a: AutomationConfig): string {
  const t = a.trigger
  if (t.type === 'issue_entered_state') return a.states.join('|')
  if (t.type === 'cron') return `cron "${t.schedule.expression}" (${t.schedule.timeZone})`
  return t.type
}

function problem(
  message: string,
  at: { file: string; line?: number; col?: number } | undefined
): JsonProblem {
  return { file: at?.file ?? null, line: at?.line ?? null, col: at?.col ?? null, message }
}
