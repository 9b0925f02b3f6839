import type { Identity } from './commit.js'
import { git } from './git.js'

/**
 * Who `git commit` here would record, by the names git reads: GIT_AUTHOR_NAME and
 * GIT_AUTHOR_EMAIL (GIT_COMMITTER_* for the committer), else the repository's user.name and
 * user.email. Null when no name or email is set, where git would refuse to commit.
 */
export async function userIdentity(
  repo: string,
  env: NodeJS.ProcessEnv,
  role: 'author' | 'committer'
): Promise<Identity | null> {
  const prefix = `GIT_${role.toUpperCase()}`
  const name = env[`${prefix}_NAME`] || (await configValue(repo, 'user.name'))
  const email = env[`${prefix}_EMAIL`] || (await configValue(repo, 'user.email'))
  return name && email ? { name, email } : null
}

async function configValue(repo: string, key: string): Promise<string> {
  const r = await git(repo, ['config', '--get', key], { okCodes: [1] })
  return r.code === 0 ? r.stdout.trim() : ''
}
