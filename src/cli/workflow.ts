import { existsSync } from 'node:fs'
import { formatWarning, loadWorkflowFile } from '../config/load.js'
import type { WorkflowConfig } from '../config/types.js'
import { UserError } from '../errors.js'

/** Loads WORKFLOW.md for a CLI command, printing each warning on stderr. */
export function loadWorkflowForCli(path: string): WorkflowConfig {
  if (!existsSync(path)) {
    throw new UserError(`${path} not found; run itervox-handoff init, or pass --workflow FILE`)
  }
  const { config, warnings } = loadWorkflowFile(path, process.env)
  for (const w of warnings) process.stderr.write(formatWarning(w) + '\n')
  return config
}
