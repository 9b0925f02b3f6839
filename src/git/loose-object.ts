import { randomBytes } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { deflateSync } from 'node:zlib'
import { GitDirTamperedError } from './guard.js'
import { objectId } from './integrity.js'
import { lstatOrNull } from './lstat.js'

/**
 * Stores `content` as a blob the way `git hash-object -w` does, without starting a git: a loose
 * object, `<type> <size>\0<content>` deflated, at `.git/objects/<2 hex>/<rest>`, written to a
 * temporary file and renamed into place. One already there is replaced, not trusted: an agent
 * running as our user could have put other bytes under that name. Returns the blob's name.
 */
export async function writeBlob(
  repo: string,
  content: Buffer,
  algo: 'sha1' | 'sha256'
): Promise<string> {
  const oid = objectId('blob', content, algo)
  const objects = path.join(repo, '.git', 'objects')
  const dir = path.join(objects, oid.slice(0, 2))
  const st = await lstatOrNull(dir)
  if (st && !st.isDirectory()) {
    throw new GitDirTamperedError(`${dir} is not a directory; refusing to write objects through it`)
  }
  if (!st) await mkdir(dir)
  const body = deflateSync(Buffer.concat([Buffer.from(`blob ${content.length}\0`), content]))
  const tmp = path.join(objects, `tmp_obj_${randomBytes(8).toString('hex')}`)
  try {
    await writeFile(tmp, body, { flag: 'wx', mode: 0o444 })
    await rename(tmp, path.join(dir, oid.slice(2)))
  } finally {
    await rm(tmp, { force: true })
  }
  return oid
}
