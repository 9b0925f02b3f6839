import { UserError } from '../errors.js'
import { validateBranchName } from '../git/branch-name.js'
import { git, GitError } from '../git/git.js'
import { forkPoint } from '../git/fork-point.js'
import { resolveCommit } from '../git/repo.js'
import { LOCAL_ISSUES_DIR } from '../tracker/local.js'
import { RUNS_DIR } from '../tracker/local-record.js'

export interface LocalBranch {
  branch: string
  /** The commit the stage starts from: the branch's head. */
  baseSha: string
  /** Where the branch left the base branch (handoffs there are earlier issues'). */
  forkSha: string
  /** The branch was made for this stage. */
  created: boolean
}

/** The branch a local issue's stages run on. */
export function localIssueBranch(id: string): string {
  return `itervox/${id}`
}

/**
 * Checks out the issue branch `itervox/<id>`: the existing one, or a new one made from the base
 * branch (see baseBranchOf), never from whatever happens to be checked out. There is no
 * remote: nothing is fetched or pushed.
 */
export async function checkoutIssueBranch(
  root: string,
  id: string,
  base: string
): Promise<LocalBranch> {
  const branch = await validateBranchName(localIssueBranch(id))
  const current = await currentBranch(root)
  const existing = await resolveCommit(root, `refs/heads/${branch}`)
  if (existing) {
    const forkSha = await localForkPoint(root, existing, branch, base)
    if (current !== branch) await checkout(root, ['--quiet', branch], branch)
    return { branch, baseSha: existing, forkSha, created: false }
  }
  const baseSha = await baseCommit(root, base)
  await checkout(root, ['--quiet', '-b', branch, baseSha], branch)
  return { branch, baseSha, forkSha: baseSha, created: true }
}

/**
 * Where a new issue branch starts and whose history tells an issue's handoffs from earlier
 * ones: `workspace.base_branch` when WORKFLOW.md names it, else the repository's default
 * branch (origin's HEAD, then `init.defaultBranch`, `main`, `master`, whichever exists here).
 */
export async function baseBranchOf(root: string, configured?: string): Promise<string> {
  if (!(await resolveCommit(root, 'HEAD'))) {
    throw new UserError(
      'the repository has no commit yet; commit WORKFLOW.md and the profile files first'
    )
  }
  if (configured) return validateBranchName(configured)
  const named: string[] = []
  const originHead = await git(root, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD'], {
    okCodes: [1, 128]
  })
  const prefix = 'refs/remotes/origin/'
  if (originHead.code === 0 && originHead.stdout.startsWith(prefix)) {
    named.push(originHead.stdout.trim().slice(prefix.length))
  }
  const init = await git(root, ['config', '--get', 'init.defaultBranch'], { okCodes: [1] })
  if (init.code === 0) named.push(init.stdout.trim())
  named.push('main', 'master')
  for (const name of named) {
    if (name && (await resolveCommit(root, `refs/heads/${name}`))) return name
  }
  throw new UserError(
    'cannot tell which branch is the base of issue branches here (no main or master); name it in WORKFLOW.md as workspace.base_branch'
  )
}

/** Where `head` left the base branch, for the handoffs the stage at `head` may show. */
export async function localForkPoint(
  root: string,
  head: string,
  branch: string,
  base: string
): Promise<string> {
  await baseCommit(root, base)
  return forkPoint({ repo: root, head, base: `refs/heads/${base}`, branch, baseBranch: base })
}

/** The base branch's commit: what WORKFLOW.md and the agent configuration are trusted from. */
export async function baseCommit(root: string, base: string): Promise<string> {
  const sha = await resolveCommit(root, `refs/heads/${base}`)
  if (sha) return sha
  throw new UserError(
    `the base branch "${base}" is not a branch of this repository (or has no commit yet); create it or set workspace.base_branch in WORKFLOW.md`
  )
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
