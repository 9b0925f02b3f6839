import { UserError } from '../errors.js'
import path from 'node:path'
import { git } from './git.js'
import { lstatOrNull } from './lstat.js'

/** The top of the git checkout that holds `dir`; a user error outside one. */
export async function repoRoot(dir: string): Promise<string> {
  const r = await git(dir, ['rev-parse', '--show-toplevel'], { okCodes: [128] })
  if (r.code !== 0) {
    throw new UserError(
      `${dir} is not inside a git repository; run this in your project's checkout`
    )
  }
  return r.stdout.trim()
}

/** The commit a revision names, or null when it names none (e.g. HEAD of a new repository). */
export async function resolveCommit(repo: string, rev: string): Promise<string | null> {
  const r = await git(repo, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], {
    okCodes: [1, 128]
  })
  return r.code === 0 ? r.stdout.trim() : null
}

/** Whether the clone is shallow: git keeps the shallow commits in `.git/shallow`, so that says. */
export async function isShallow(repo: string): Promise<boolean> {
  const gitDir = await lstatOrNull(path.join(repo, '.git'))
  if (gitDir?.isDirectory()) {
    return ((await lstatOrNull(path.join(repo, '.git', 'shallow')))?.size ?? 0) > 0
  }
  const r = await git(repo, ['rev-parse', '--is-shallow-repository'])
  return r.stdout.trim() === 'true'
}
