import { existsSync } from 'node:fs'
import { join } from 'node:path'
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

/** WORKFLOW.md read at the checkout's commit while git fetches the default branch. */
export interface WorkflowReadAhead {
  /**
   * Starts the reading: once the fetch is under way, so that it uses the time spent waiting.
   * Settles when the reading has, whatever its outcome.
   */
  start(): Promise<void>
  /**
   * WORKFLOW.md at the trusted commit: the early reading when that is the commit it read (an
   * object id names its content, so it reads the same), else a reading at `trusted`.
   */
  at(trusted: string): Promise<LoadedWorkflow>
}

/**
 * actions/checkout checks out the commit the event names, which is usually the tip of the
 * default branch the stage then fetches: WORKFLOW.md can be read there before the fetch ends.
 */
export function workflowReadAhead(
  repo: string,
  workflowPath: string,
  env: Record<string, string | undefined>
): WorkflowReadAhead {
  const load = (commit: string) => loadWorkflowAt(repo, commit, workflowPath, env)
  let ahead: Promise<{ commit: string; loaded: Promise<LoadedWorkflow> } | null> | undefined
  return {
    async start() {
      // A workspace with no repository yet has no commit to read (the fetch makes one).
      ahead ??= existsSync(join(repo, '.git'))
        ? sharedObjects(repo)
            .resolve('HEAD^{commit}')
            .then((commit) => (commit ? { commit, loaded: load(commit) } : null))
            .catch(() => null)
        : Promise.resolve(null)
      // Its failure matters only if it is asked for, at that commit.
      await (await ahead)?.loaded.catch(() => undefined)
    },
    async at(trusted) {
      const early = await ahead
      if (early?.commit !== trusted) return load(trusted)
      // A mistake in the files is the same at the same commit; any other failure (git's
      // reader ended while the fetch ran, say) is not the content's, so it is read again.
      return early.loaded.catch((err: unknown) => {
        if (err instanceof UserError) throw err
        return load(trusted)
      })
    }
  }
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
