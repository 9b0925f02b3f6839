import { existsSync } from 'node:fs'
import { isAbsolute, relative, resolve } from 'node:path'
import { repoRootOf } from '../config/disk-files.js'
import { formatWarning, loadWorkflowFile } from '../config/load.js'
import type { WorkflowConfig } from '../config/types.js'
import { UserError } from '../errors.js'

/** Loads WORKFLOW.md for a CLI command, printing each warning on stderr. */
export function loadWorkflowForCli(path: string): WorkflowConfig {
  if (!existsSync(path)) {
    throw new UserError(`${path} not found; run itervox-handoff init, or pass --workflow FILE`)
  }
  // Profile files are found relative to the workflow file, in its repository: one elsewhere
  // would be checked against files that are not this repository's.
  const root = repoRootOf(process.cwd())
  const rel = relative(root, resolve(path))
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new UserError(
      `${path} is outside the repository ${root}; the workflow file must be in it (its profile files are found relative to it): copy it into the repository and pass that path`
    )
  }
  const { config, warnings } = loadWorkflowFile(path, process.env)
  for (const w of warnings) process.stderr.write(formatWarning(w) + '\n')
  return config
}
