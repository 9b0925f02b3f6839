import { chmod, mkdir, rm, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { AGENT_CONFIG_PATHSPECS, isAgentConfig } from '../agent/config-paths.js'
import { git } from './git.js'
import { lstatOrNull } from './lstat.js'
import { sharedObjects } from './objects.js'

export interface ConfigEntry {
  /** `100644`, `100755` or `120000`. */
  mode: string
  oid: string
}

/** Modes of what can be someone's settings: files and symlinks (a gitlink never is). */
const SETTINGS_MODES = new Set(['100644', '100755', '120000'])

/**
 * The agent configuration paths whose content differs between commits `from` and `to`. git
 * compares the two trees and passes over every folder that is the same in both, so this costs
 * what differs, not the size of the repository.
 */
export async function agentConfigChanges(
  repo: string,
  from: string,
  to: string
): Promise<string[]> {
  const r = await git(repo, [
    'diff-tree',
    '-r',
    '-z',
    '--no-renames',
    from,
    to,
    '--',
    ...AGENT_CONFIG_PATHSPECS
  ])
  const out = r.stdout.split('\0')
  const paths: string[] = []
  for (let i = 0; i + 1 < out.length; i += 2) {
    // `:<from mode> <to mode> <from id> <to id> <status>`, then the path.
    const [fromMode = '', toMode = ''] = (out[i] ?? '').slice(1).split(' ')
    const p = out[i + 1] ?? ''
    if ((SETTINGS_MODES.has(fromMode) || SETTINGS_MODES.has(toMode)) && isAgentConfig(p)) {
      paths.push(p)
    }
  }
  return paths
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
