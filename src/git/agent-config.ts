import { chmod, mkdir, rm, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { isAgentConfig } from '../agent/config-paths.js'
import { lstatOrNull } from './lstat.js'
import { sharedObjects } from './objects.js'

export interface ConfigEntry {
  /** `100644`, `100755` or `120000`. */
  mode: string
  oid: string
}

/**
 * The agent configuration a commit holds, by path (gitlinks are never anyone's settings): its
 * trees walked through the stage's object reader, a level at a time.
 */
export async function agentConfigAt(
  repo: string,
  commit: string
): Promise<Map<string, ConfigEntry>> {
  const objects = sharedObjects(repo)
  const found = new Map<string, ConfigEntry>()
  for (let level = ['']; level.length > 0;) {
    const listings = await Promise.all(level.map((dir) => objects.listTree(commit, dir)))
    const next: string[] = []
    listings.forEach((listing, i) => {
      for (const e of listing.entries) {
        const p = level[i] ? `${level[i]}/${e.name}` : e.name
        if (e.type === 'tree') next.push(p)
        else if (e.type === 'blob' && isAgentConfig(p)) found.set(p, { mode: e.mode, oid: e.oid })
      }
    })
    level = next
  }
  return found
}

/**
 * Makes the agent configuration in `tree` what `commit` (in `repo`'s objects) has: every path
 * in `replacing` and in the commit's configuration is removed, then the commit's files are
 * written. Nothing is written through a symlink or into a folder that is not a real one.
 * Returns the paths that could not be written that way.
 */
export async function putAgentConfig(o: {
  repo: string
  tree: string
  commit: string
  replacing: Iterable<string>
}): Promise<string[]> {
  const wanted = await agentConfigAt(o.repo, o.commit)
  for (const p of new Set([...o.replacing, ...wanted.keys()])) {
    if (await realParents(o.tree, p)) {
      await rm(path.join(o.tree, p), { recursive: true, force: true })
    }
  }
  const skipped: string[] = []
  if (wanted.size === 0) return skipped
  const blobs = await sharedObjects(o.repo).readBlobs([...wanted.values()].map((e) => e.oid))
  for (const [p, entry] of wanted) {
    const file = path.join(o.tree, p)
    if (!(await makeParents(o.tree, p)) || (await lstatOrNull(file))) {
      skipped.push(p)
      continue
    }
    const content = blobs.get(entry.oid)!
    if (entry.mode === '120000') await symlink(content, file)
    else {
      await writeFile(file, content, { flag: 'wx' })
      if (entry.mode === '100755') await chmod(file, 0o755)
    }
  }
  return skipped
}

/** Every folder on the way to `p` is a real folder in `tree` (none is a symlink or a file). */
async function realParents(tree: string, p: string): Promise<boolean> {
  const parts = p.split('/')
  for (let i = 1; i < parts.length; i++) {
    const st = await lstatOrNull(path.join(tree, ...parts.slice(0, i)))
    if (!st?.isDirectory()) return false
  }
  return true
}

/** Makes the folders on the way to `p`; false when something else is in the way. */
function makeParents(tree: string, p: string): Promise<boolean> {
  const parent = path.posix.dirname(p)
  return parent === '.' ? Promise.resolve(true) : makeFolders(tree, parent)
}

/** Makes `rel` and the folders on its way without following a symlink; false if one is there. */
export async function makeFolders(tree: string, rel: string): Promise<boolean> {
  const parts = rel.split('/')
  for (let i = 1; i <= parts.length; i++) {
    const dir = path.join(tree, ...parts.slice(0, i))
    const st = await lstatOrNull(dir)
    if (!st) await mkdir(dir)
    else if (!st.isDirectory()) return false
  }
  return true
}
