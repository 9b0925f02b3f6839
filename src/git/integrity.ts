import { createHash } from 'node:crypto'
import { GitDirTamperedError } from './guard.js'
import { sharedObjects } from './objects.js'

/**
 * Checks that the base commit and the trees a new commit is built from (the root and every
 * directory above a changed path) hash to their names; returns the root tree's. An agent running as our user can
 * overwrite loose objects or add packs, and git does not re-hash what it reads: a tree swapped
 * under its name would slip extra files into the commit we push. Trees the commit does not
 * touch are referenced by name only, and the remote already holds the real ones.
 */
export async function verifyBaseTrees(
  repo: string,
  commitSha: string,
  paths: readonly string[]
): Promise<string> {
  const algo = formatOf(commitSha)
  const idLength = algo === 'sha256' ? 32 : 20

  const commit = await readVerified(repo, 'commit', commitSha, algo)
  const root = /^tree ([0-9a-f]+)$/m.exec(commit.toString('utf8'))?.[1]
  if (!root) throw tampered(`commit ${commitSha} has no tree`)

  const wanted = new Set<string>()
  for (const p of paths) {
    const parts = p.split('/')
    for (let i = 1; i < parts.length; i++) wanted.add(parts.slice(0, i).join('/'))
  }
  const queue: [dir: string, sha: string][] = [['', root]]
  while (queue.length > 0) {
    const [dir, sha] = queue.shift()!
    const tree = await readVerified(repo, 'tree', sha, algo, dir)
    for (const entry of treeEntries(tree, idLength)) {
      const full = dir ? `${dir}/${entry.name}` : entry.name
      if (entry.mode === '40000' && wanted.has(full)) queue.push([full, entry.id])
    }
  }
  return root
}

/**
 * The repository's hash, told by a full object name git gave: 40 hex digits with sha1, 64
 * with sha256. Known from any such name, so git is never asked.
 */
export function formatOf(oid: string): 'sha1' | 'sha256' {
  return oid.length === 64 ? 'sha256' : 'sha1'
}

/** The name git gives an object with this content. */
export function objectId(type: 'blob' | 'tree' | 'commit', body: Buffer, algo: string): string {
  return createHash(algo).update(`${type} ${body.length}\0`).update(body).digest('hex')
}

async function readVerified(
  repo: string,
  type: 'commit' | 'tree',
  sha: string,
  algo: 'sha1' | 'sha256',
  dir?: string
): Promise<Buffer> {
  const body = await sharedObjects(repo).readObject(sha, type)
  const actual = createHash(algo).update(`${type} ${body.length}\0`).update(body).digest('hex')
  if (actual !== sha) {
    const what = dir === undefined ? `commit ${sha}` : `the tree of "${dir || '/'}" (${sha})`
    throw tampered(`${what} does not match its contents`)
  }
  return body
}

function* treeEntries(
  tree: Buffer,
  idLength: number
): Generator<{ mode: string; name: string; id: string }> {
  let at = 0
  while (at < tree.length) {
    const space = tree.indexOf(0x20, at)
    const nul = tree.indexOf(0, space)
    if (space < 0 || nul < 0 || nul + 1 + idLength > tree.length) throw tampered('a malformed tree')
    yield {
      mode: tree.toString('latin1', at, space),
      name: tree.toString('utf8', space + 1, nul),
      id: tree.toString('hex', nul + 1, nul + 1 + idLength)
    }
    at = nul + 1 + idLength
  }
}

function tampered(what: string): GitDirTamperedError {
  return new GitDirTamperedError(
    `the git object store was altered while the agent ran (${what}); refusing to commit from it`
  )
}
