import path from 'node:path'
import { git } from './git.js'
import { lstatOrNull } from './lstat.js'
import { sharedObjects } from './objects.js'
import type { TreeEntry } from './raw-tree.js'

/** How many paths are looked at side by side. */
const AT_ONCE = 256

/**
 * Marks in the index at `env.GIT_INDEX_FILE`, fresh from `read-tree base`, every file of `base`
 * that `tree` now holds as a regular file larger than `maxBytes` and of another size than
 * committed (assume-unchanged, which a refresh and diff-files pass by), and answers them with
 * their mode in `base`. Such an index has no stat data, so a refresh hashes every file whole:
 * a sparse file of terabytes would keep git busy for hours. One that large cannot be committed
 * anyway; the caller judges it without reading it, and the index keeps it as committed. The
 * files of `base` are read through the stage's object reader: no git process unless one is
 * found.
 */
export async function setAsideOversized(
  repo: string,
  base: string,
  tree: string,
  env: Record<string, string>,
  maxBytes: number
): Promise<Map<string, string>> {
  const large: { path: string; entry: TreeEntry; size: number }[] = []
  const files = await filesOf(repo, base)
  for (let i = 0; i < files.length; i += AT_ONCE) {
    await Promise.all(
      files.slice(i, i + AT_ONCE).map(async (f) => {
        const st = await lstatOrNull(path.join(tree, f.path))
        if (st?.isFile() && st.size > maxBytes) large.push({ ...f, size: st.size })
      })
    )
  }
  const out = new Map<string, string>()
  if (large.length === 0) return out
  const sizes = await sharedObjects(repo).blobSizes(large.map((f) => f.entry.oid))
  for (const f of large) {
    // A file as large as it was committed is most likely unchanged: git judges it as before.
    if (sizes.get(f.entry.oid) !== f.size) out.set(f.path, f.entry.mode)
  }
  if (out.size > 0) {
    await git(repo, ['update-index', '--assume-unchanged', '-z', '--stdin'], {
      env,
      input: [...out.keys()].map((p) => `${p}\0`).join('')
    })
  }
  return out
}

/** The regular files of `commit`, its directories read a level at a time. */
async function filesOf(
  repo: string,
  commit: string
): Promise<Array<{ path: string; entry: TreeEntry }>> {
  const objects = sharedObjects(repo)
  const root = await objects.findTree(commit, '')
  if (root.kind !== 'tree') return []
  const files: Array<{ path: string; entry: TreeEntry }> = []
  let dirs = [{ path: '', oid: root.oid }]
  while (dirs.length > 0) {
    const read = await Promise.all(
      dirs.map(async (d) => ({
        dir: d.path,
        entries: (
          await objects.readRawTree({ oid: d.oid, what: `${d.path || '/'} at ${commit}` })
        ).entries()
      }))
    )
    dirs = []
    for (const { dir, entries } of read) {
      for (const entry of entries) {
        const p = dir ? `${dir}/${entry.name}` : entry.name
        if (entry.type === 'tree') dirs.push({ path: p, oid: entry.oid })
        else if (entry.mode === '100644' || entry.mode === '100755') files.push({ path: p, entry })
      }
    }
  }
  return files
}
