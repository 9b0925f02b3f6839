import { git, GitError } from '../git/git.js'
import { resolveCommit } from '../git/repo.js'
import { currentBranch } from './local-branch.js'

/** What the user had checked out before a run: a branch, or a detached commit. */
export type UserCheckout = { branch: string } | { detached: string } | null

export async function rememberCheckout(root: string): Promise<UserCheckout> {
  const branch = await currentBranch(root)
  if (branch) return { branch }
  const sha = await resolveCommit(root, 'HEAD')
  return sha ? { detached: sha } : null
}

/**
 * Puts the user back where they were once a run has switched to the issue branch. Never
 * forced: what git will not carry over stays, and a warning (returned) says where they are.
 */
export async function restoreCheckout(root: string, was: UserCheckout): Promise<string | null> {
  if (!was) return null
  const now = await currentBranch(root)
  if (
    'branch' in was
      ? now === was.branch
      : !now && (await resolveCommit(root, 'HEAD')) === was.detached
  )
    return null
  const args = 'branch' in was ? [was.branch] : ['--detach', was.detached]
  try {
    await git(root, ['checkout', '--quiet', ...args])
    return null
  } catch (err) {
    if (!(err instanceof GitError)) throw err
    const said = err.stderr.trim().split('\n')[0] ?? ''
    const back = 'branch' in was ? was.branch : was.detached.slice(0, 12)
    return `you are still on ${now ?? 'a detached HEAD'}: git could not switch back to ${back} (${said})`
  }
}
