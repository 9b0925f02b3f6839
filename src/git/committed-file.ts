import { sharedObjects } from './objects.js'

/** A committed regular file within `maxBytes`, as text; null when there is none. */
export async function readCommittedFile(
  repo: string,
  commit: string,
  path: string,
  maxBytes: number
): Promise<string | null> {
  const objects = sharedObjects(repo)
  const slash = path.lastIndexOf('/')
  const listing = await objects.listTree(commit, slash < 0 ? '' : path.slice(0, slash))
  const entry = listing.entries.find((e) => e.name === path.slice(slash + 1))
  if (!entry || (entry.mode !== '100644' && entry.mode !== '100755')) return null
  const size = (await objects.blobSizes([entry.oid])).get(entry.oid)
  if (size === undefined || size > maxBytes) return null
  const blob = (await objects.readBlobs([entry.oid])).get(entry.oid)
  return blob ? blob.toString('utf8') : null
}
