import { UserError } from '../errors.js'
import { validateBranchName } from '../git/branch.js'
import { git, GitError } from '../git/git.js'
import { resolveCommit } from '../git/repo.js'
import { LOCAL_ISSUES_DIR } from '../tracker/local.js'
import { RUNS_DIR } from '../tracker/local-record.js'

export interface LocalBranch {
  branch: string
  /** The commit the stage starts from: the branch's head. */
  baseSha: string
  /** The branch was made for this stage. */
  created: boolean
}

/**
 * Checks out the issue branch `itervox/<id>`: the existing one, or a new one made from
 * `workspace.base_branch` when WORKFLOW.md names it, else from the current branch. There is
 * no remote: nothing is fetched or pushed.
 */
export async function checkoutIssueBranch(
  root: string,
  id: string,
  baseBranch?: string
): Promise<LocalBranch> {
  const branch = await validateBranchName(`itervox/${id}`)
  const current = await currentBranch(root)
  const existing = await resolveCommit(root, `refs/heads/${branch}`)
  if (existing) {
    if (current !== branch) await checkout(root, ['--quiet', branch], branch)
    return { branch, baseSha: existing, created: false }
  }
  const base = baseBranch ? await validateBranchName(baseBranch) : null
  const baseSha = await resolveCommit(root, base ? `refs/heads/${base}` : 'HEAD')
  if (!baseSha) {
    throw new UserError(
      base
        ? `workspace.base_branch "${base}" is not a branch of this repository; create it or change WORKFLOW.md`
        : 'the repository has no commit yet; commit WORKFLOW.md and the profile files first'
    )
  }
  await checkout(root, ['--quiet', '-b', branch, baseSha], branch)
  return { branch, baseSha, created: true }
}

/** The checked-out branch, or null when HEAD is detached. */
export async function currentBranch(root: string): Promise<string | null> {
  const r = await git(root, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { okCodes: [1] })
  return r.code === 0 ? r.stdout.trim() : null
}

async function checkout(root: string, args: string[], branch: string): Promise<void> {
  try {
    await git(root, ['checkout', ...args])
  } catch (err) {
    if (!(err instanceof GitError)) throw err
    const said = err.stderr.trim().split('\n')[0] ?? ''
    throw new UserError(`cannot check out ${branch}: ${said}`)
  }
}

/**
 * A stage commits what it finds in the working tree (as far as the profile may) and then resets
 * the tree to its commit, so anything uncommitted would be swept in or lost. Only the local
 * tracker's own files may differ.
 */
export async function assertCleanWorktree(root: string): Promise<void> {
  const r = await git(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all'])
  const tokens = r.stdout.split('\0')
  const dirty: string[] = []
  for (let i = 0; i < tokens.length; i++) {
    const entry = tokens[i]
    if (!entry) continue
    const path = entry.slice(3)
    // A rename or copy is followed by its source path.
    if (entry[0] === 'R' || entry[0] === 'C') i++
    if (!path.startsWith(`${LOCAL_ISSUES_DIR}/`) && !path.startsWith(`${RUNS_DIR}/`))
      dirty.push(path)
  }
  if (dirty.length === 0) return
  const shown =
    dirty.slice(0, 3).join(', ') + (dirty.length > 3 ? ` and ${dirty.length - 3} more` : '')
  throw new UserError(
    `the working tree has uncommitted changes (${shown}); commit or stash them first, because a stage commits or discards whatever it finds`
  )
}

/**
 * After a stage: the tree was clean before it, so whatever it left that its commit does not hold
 * is the agent's and goes (files outside its commit_paths, edits it may not commit), as the
 * next stage needs a clean tree. The tracker's own files stay.
 */
export async function discardUncommitted(root: string): Promise<void> {
  await git(root, ['reset', '--hard', '--quiet'])
  const keep = [LOCAL_ISSUES_DIR, RUNS_DIR].map((dir) => `:(exclude)${dir}`)
  await git(root, ['clean', '-ffdq', '--', '.', ...keep])
}
