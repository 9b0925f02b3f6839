import { parseCommandArgs, stringOpt, type Command } from './args.js'
import { loadWorkflowForCli } from './workflow.js'

const USAGE = `
Usage: itervox-handoff validate [--workflow FILE]

Checks WORKFLOW.md and the profile files it names. Every mistake is printed as
file:line:col: message; keys itervox knows but this runner ignores are warnings.

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
