import { parseWorkflow, type LoadedWorkflow } from '../config/load.js'
import { withProfileTexts } from '../config/profiles.js'
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
  // them at hand: the one pass stands in an empty text for each file and notes its path.
  // When the files are all there, their texts go into that pass's result; a missing file, or
  // any other mistake, takes a second pass, which reports every mistake.
  const wanted = new Set<string>()
  let first: LoadedWorkflow | undefined
  try {
    first = parseWorkflow(text, { ...opts, readFile: (p) => (wanted.add(p), '') })
  } catch {
    // Reported below.
  }
  const files = new Map<string, string | null>()
  for (const p of wanted) files.set(p, await readRegularFile(objects, commit, p))
  if (first && [...files.values()].every((t) => t !== null)) {
    const profiles = withProfileTexts(first.config.agent.profiles, (p) => files.get(p) ?? '')
    const agent = { ...first.config.agent, profiles }
    return { ...first, config: { ...first.config, agent } }
  }
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
