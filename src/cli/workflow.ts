import { existsSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { repoRootOf } from '../config/disk-files.js'
import { formatWarning, loadWorkflowFile, type LoadedWorkflow } from '../config/load.js'
import type { WorkflowConfig } from '../config/types.js'
import { UserError } from '../errors.js'

const WORKFLOW_FILE = 'WORKFLOW.md'

/**
 * The workflow file a command reads: `--workflow FILE` as given, else the WORKFLOW.md nearest
 * at or above the current folder, the way git finds `.git`; the search stops at the
 * repository's top level. The path is relative to the current folder, as errors show it.
 */
export function findWorkflowFile(given: string | undefined): string {
  if (given !== undefined) return given
  const cwd = process.cwd()
  const top = repoRootOf(cwd)
  for (let dir = cwd; ; dir = dirname(dir)) {
    const path = join(dir, WORKFLOW_FILE)
    if (existsSync(path)) return relative(cwd, path)
    if (dir === top || dirname(dir) === dir) break
  }
  const where = top === cwd ? 'here' : `here or in a folder above, up to ${top}`
  throw new UserError(
    `no ${WORKFLOW_FILE} ${where}; run itervox-handoff init, or pass --workflow FILE`
  )
}

/** Loads the workflow file for a CLI command; its warnings are the caller's to show. */
export function loadWorkflowChecked(path: string): LoadedWorkflow {
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
  return loadWorkflowFile(path, process.env)
}

/** Loads the workflow file for a CLI command, printing each warning on stderr. */
export function loadWorkflowForCli(path: string): WorkflowConfig {
  const { config, warnings } = loadWorkflowChecked(path)
  for (const w of warnings) process.stderr.write(formatWarning(w) + '\n')
  return config
}
