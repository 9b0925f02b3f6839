import { git } from './git.js'
import { sharedObjects } from './objects.js'

/**
 * The most file contents one signed commit sends. GitHub documents no limit for
 * `createCommitOnBranch`; the contents travel base64 in one GraphQL request, so the action keeps
 * that request small and pushes a bigger change the ordinary way.
 */
const SIGNED_MAX_BYTES = 10 * 1024 * 1024

/** `createCommitOnBranch`'s `fileChanges`: each added or changed file whole, base64. */
export interface FileChanges {
  additions: { path: string; contents: string }[]
  deletions: { path: string }[]
}

/**
 * What turns `from` into `to`, as `createCommitOnBranch` takes it; or why it cannot say it.
 * The mutation writes plain files (mode 100644) only: a symlink, an executable file, or a path
 * that was either before, cannot be expressed.
 */
export async function fileChangesOf(
  repo: string,
  from: string,
  to: string,
  maxBytes = SIGNED_MAX_BYTES
): Promise<FileChanges | { unsupported: string }> {
  const diff = await git(repo, ['diff-tree', '-r', '-z', '--no-renames', from, to])
  const fields = diff.stdout.split('\0')
  const deletions: { path: string }[] = []
  const added: { path: string; id: string }[] = []
  for (let i = 0; i + 1 < fields.length; i += 2) {
    // `:<old mode> <new mode> <old id> <new id> <status>`, then the path.
    const [oldMode = '', newMode = '', , id = '', status = ''] = (fields[i] ?? '')
      .slice(1)
      .split(' ')
    const p = fields[i + 1] ?? ''
    if (status === 'D') {
      deletions.push({ path: p })
      continue
    }
    if (newMode === '120000') return { unsupported: `${p} is a symlink` }
    if (newMode === '100755') return { unsupported: `${p} is executable (mode 100755)` }
    if (newMode !== '100644') return { unsupported: `${p} has mode ${newMode}` }
    // Whether GitHub keeps an existing file's mode when the mutation rewrites it is not said.
    if (oldMode !== '000000' && oldMode !== '100644') {
      return { unsupported: `${p} changes from mode ${oldMode} to 100644` }
    }
    added.push({ path: p, id })
  }
  const objects = sharedObjects(repo)
  const sizes = await objects.blobSizes(added.map((a) => a.id))
  const bytes = added.reduce((n, a) => n + (sizes.get(a.id) ?? 0), 0)
  if (bytes > maxBytes) {
    return { unsupported: `its files hold ${bytes} bytes, more than the ${maxBytes} sent signed` }
  }
  const blobs = await objects.readBlobs(added.map((a) => a.id))
  return {
    additions: added.map((a) => ({
      path: a.path,
      contents: (blobs.get(a.id) ?? Buffer.alloc(0)).toString('base64')
    })),
    deletions
  }
}
