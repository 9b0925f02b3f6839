import { chmod, mkdir, rm, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { isAgentConfig } from '../agent/config-paths.js'
import { lstatOrNull } from './lstat.js'
import { sharedObjects } from './objects.js'
import type { TreeEntry } from './raw-tree.js'

export interface ConfigEntry {
  /** `100644`, `100755` or `120000`. */
  mode: string
  oid: string
}

/** Modes of what can be someone's settings: files and symlinks (a gitlink never is). */
const SETTINGS_MODES = new Set(['100644', '100755', '120000'])

/**
 * The agent configuration paths whose content differs between commits `from` and `to`: their
 * trees compared a level at a time through the stage's object reader, going down only into
 * folders that differ, so this costs what differs, not the size of the repository.
 */
export async function agentConfigChanges(
  repo: string,
  from: string,
  to: string
): Promise<string[]> {
  const objects = sharedObjects(repo)
  const roots = await Promise.all([from, to].map((c) => objects.findTree(c, '')))
  const rootOf = (i: number) => {
    const r = roots[i]
    return r?.kind === 'tree' ? r.oid : null
  }
  const entriesOf = async (oid: string | null, what: string) =>
    oid ? (await objects.readRawTree({ oid, what })).entries() : []
  const found: string[] = []
  for (let level = [{ dir: '', a: rootOf(0), b: rootOf(1) }]; level.length > 0;) {
    const next: typeof level = []
    await Promise.all(
      level.map(async ({ dir, a, b }) => {
        const what = `${dir || '/'} at ${from} or ${to}`
        const [before, after] = await Promise.all([entriesOf(a, what), entriesOf(b, what)])
        const was = new Map(before.map((e) => [e.name, e]))
        const now = new Map(after.map((e) => [e.name, e]))
        for (const name of new Set([...was.keys(), ...now.keys()])) {
          const x = was.get(name)
          const y = now.get(name)
          if (x && y && x.oid === y.oid && x.mode === y.mode) continue
          const p = dir ? `${dir}/${name}` : name
          const tree = (e: TreeEntry | undefined) => (e?.type === 'tree' ? e.oid : null)
          if (tree(x) || tree(y)) next.push({ dir: p, a: tree(x), b: tree(y) })
          const settings = (e: TreeEntry | undefined) => !!e && SETTINGS_MODES.has(e.mode)
          if ((settings(x) || settings(y)) && isAgentConfig(p)) found.push(p)
        }
      })
    )
    level = next
  }
  return found
}

/**
 * What `commit` holds at each of `paths` that is agent configuration (a file or a symlink),
 * read a folder at a time through the stage's object reader; paths it has none at are absent.
 */
export async function agentConfigEntries(
  repo: string,
  commit: string,
  paths: Iterable<string>
): Promise<Map<string, ConfigEntry>> {
  const byDir = new Map<string, string[]>()
  for (const p of new Set(paths)) {
    if (!isAgentConfig(p)) continue
    const dir = path.posix.dirname(p)
    const key = dir === '.' ? '' : dir
    byDir.set(key, [...(byDir.get(key) ?? []), p])
  }
  const objects = sharedObjects(repo)
  const found = new Map<string, ConfigEntry>()
  await Promise.all(
    [...byDir].map(async ([dir, inDir]) => {
      const listing = await objects.listTree(commit, dir)
      for (const p of inDir) {
        const e = listing.entries.find((x) => x.name === path.posix.basename(p))
        if (e?.type === 'blob' && SETTINGS_MODES.has(e.mode))
          found.set(p, { mode: e.mode, oid: e.oid })
      }
    })
  )
  return found
}

/**
 * Makes each of `paths` in `tree` what `commit` (in `repo`'s objects) has there: removed, then
 * the commit's file or symlink written where it has one. Nothing is written through a symlink
 * or into a folder that is not a real one. Returns the paths that could not be written that way.
 */
export async function putAgentConfig(o: {
  repo: string
  tree: string
  commit: string
  paths: Iterable<string>
}): Promise<string[]> {
  const paths = [...new Set(o.paths)]
  for (const p of paths) {
    if (await realParents(o.tree, p)) {
      await rm(path.join(o.tree, p), { recursive: true, force: true })
    }
  }
  const wanted = await agentConfigEntries(o.repo, o.commit, paths)
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
