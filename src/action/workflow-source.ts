import { parseWorkflow, type LoadedWorkflow } from '../config/load.js'
import { UserError } from '../errors.js'
import { sharedObjects, type GitObjects } from '../git/objects.js'

/**
 * WORKFLOW.md and the profile files it names, read from a commit of the default branch (never
 * the issue branch, where an agent could have edited them) through git objects only.
 */
export async function loadWorkflowAt(
  repo: string,
  commit: string,
  workflowPath: string,
  env: Record<string, string | undefined>
): Promise<LoadedWorkflow> {
  const objects = sharedObjects(repo)
  const text = await readRegularFile(objects, commit, workflowPath)
  if (text === null) {
    throw new UserError(
      `${workflowPath} is not on the default branch; commit it there (itervox-handoff init writes one) or set the workflow-file input`
    )
  }
  const opts = { file: workflowPath, env }
  // Which profile files WORKFLOW.md names is known only once it is parsed, and parsing wants
  // them at hand: a first pass just collects the paths.
  const wanted = new Set<string>()
  try {
    parseWorkflow(text, { ...opts, readFile: (p) => (wanted.add(p), '') })
  } catch {
    // The second pass reports every mistake.
  }
  const files = new Map<string, string | null>()
  for (const p of wanted) files.set(p, await readRegularFile(objects, commit, p))
  return parseWorkflow(text, { ...opts, readFile: (p) => files.get(p) ?? null })
}

async function readRegularFile(
  objects: GitObjects,
  commit: string,
  path: string
): Promise<string | null> {
  const slash = path.lastIndexOf('/')
  const dir = slash < 0 ? '' : path.slice(0, slash)
  // Only a plain relative path can name a committed file; parsing reports the others.
  const parts = slash < 0 ? [] : dir.split('/')
  if (parts.some((p) => p === '' || p === '.' || p === '..' || /[\0\n\r]/.test(p))) return null
  // The listing names the entry itself, so a symlink (or a path through one) is never followed.
  const listing = await objects.listTree(commit, dir)
  const entry = listing.entries.find((e) => e.name === path.slice(slash + 1))
  if (!entry || (entry.mode !== '100644' && entry.mode !== '100755')) return null
  const blob = (await objects.readBlobs([entry.oid])).get(entry.oid)
  return blob ? blob.toString('utf8') : null
}
