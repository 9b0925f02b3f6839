import { UserErrors } from '../errors.js'
import { dirname, resolve } from 'node:path'
import { repoRootOf } from '../config/disk-files.js'
import { parseCommandArgs, stringOpt, type Command } from './args.js'
import { preflight } from './preflight.js'
import { loadWorkflowForCli } from './workflow.js'

const USAGE = `
Usage: itervox-handoff validate [--workflow FILE]

Checks WORKFLOW.md and the profile files it names, and what a run will need: every
template rendered strictly against a sample issue (first run and retry), the states the
profiles' files tell agents to ask for, each profile's agent command on PATH, and the label
list of .github/workflows/itervox.yml. Every mistake is printed as file:line:col: message
and exits 1. Warnings: keys itervox knows but this runner ignores, and an agent command not
found here (CI installs its CLI in a step before the action; a stage does not start without
it).

Options:
  --workflow FILE   the workflow file (default: WORKFLOW.md)
  -h, --help        show this help
`

export const validateCommand: Command = {
  summary: 'check WORKFLOW.md and its profile files',
  async run(argv) {
    const { values, help } = parseCommandArgs('validate', USAGE, argv, {
      workflow: { type: 'string' }
    })
    if (help) return 0
    const file = stringOpt(values.workflow) ?? 'WORKFLOW.md'
    const config = loadWorkflowForCli(file)
    const found = await preflight(config, repoRootOf(dirname(resolve(file))))
    for (const w of found.warnings) process.stderr.write(w + '\n')
    if (found.errors.length > 0) throw new UserErrors(found.errors)
    const profiles = Object.keys(config.agent.profiles)
    const chain = config.automations
      .filter((a) => a.enabled)
      .map(
        (a) => `${a.states.join('|')} → ${a.profile}${a.moveToState ? ` → ${a.moveToState}` : ''}`
      )
    process.stdout.write(
      `${file} is valid: ${profiles.length} profile${profiles.length === 1 ? '' : 's'} (${profiles.join(', ')}), ` +
        `${chain.length} automation${chain.length === 1 ? '' : 's'}\n` +
        chain.map((c) => `  ${c}\n`).join('')
    )
    return 0
  }
}
