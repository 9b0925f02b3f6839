import { setTimeout as sleep } from 'node:timers/promises'
import path from 'node:path'
import { UserError } from '../errors.js'
import { resetBranchTo, validateBranchName } from './branch.js'
import {
  git,
  gitBytes,
  GitError,
  gitVersion,
  PUSH_GIT_VERSION,
  versionAtLeast,
  type GitAuth
} from './git.js'
import { resolveCommit } from './repo.js'

export interface PushOptions {
  repo: string
  branch: string
  /** The stage's commit (`commitAllowed`'s `sha`); its parent must be `baseSha`. */
  sha: string
  baseSha: string
  /** `prepareIssueBranch`'s `created`: the remote had no such branch when the stage began. */
  created: boolean
  remote?: string
  auth?: GitAuth
  attempts?: number
  /** First wait before a retry; doubles each time, with jitter. */
  backoffMs?: number
}

export interface PushResult {
  /** What the branch now holds: the stage's commit, or its copy on top of newer commits. */
  sha: string
  /** Pushes tried. */
  attempts: number
  /** The commit was re-created on top of commits pushed meanwhile. */
  rebased: boolean
}

export type PushFailure = 'rejected' | 'conflict' | 'deleted' | 'rewritten' | 'exhausted'

/** The push cannot be done; the message says why in one line. Never retried by the caller. */
export class PushError extends UserError {
  constructor(
    readonly kind: PushFailure,
    message: string,
    readonly attempts: number,
    readonly paths: string[] = []
  ) {
    super(message)
    this.name = 'PushError'
  }
}

/**
 * Pushes the stage's commit to the branch as a compare-and-swap: the remote must still be where
 * the stage began (`--force-with-lease` with that exact value; the commit descends from it, so
 * nothing is ever overwritten). If others pushed meanwhile, the commit is re-created on top of
 * theirs with `merge-tree` and `commit-tree` (no worktree, no hook) and the push retried, a few
 * times. A branch deleted or rewritten meanwhile, a conflict, or a refusal by the remote's
 * policy ends at once with a PushError.
 */
export async function pushWithRetry(o: PushOptions): Promise<PushResult> {
  const repo = path.resolve(o.repo)
  const remote = o.remote ?? 'origin'
  const attempts = Math.max(1, o.attempts ?? 4)
  const backoffMs = o.backoffMs ?? 1000
  await validateBranchName(o.branch)
  const v = await gitVersion()
  if (!versionAtLeast(v, PUSH_GIT_VERSION)) {
    throw new UserError(
      `git ${v.text} is too old to push stages; install git ${PUSH_GIT_VERSION} or newer`
    )
  }
  const commit = await readCommit(repo, o.sha)
  if (commit.parents.length !== 1 || commit.parents[0] !== o.baseSha) {
    throw new Error(`commit ${o.sha} is not a single commit on top of ${o.baseSha}`)
  }

  let sha = o.sha
  let parent = o.baseSha
  let expected: string | null = o.created ? null : o.baseSha
  for (let attempt = 1; ; attempt++) {
    const verdict = await pushOnce(repo, remote, o.branch, sha, expected, o.auth)
    if (verdict.ok) {
      if (sha !== o.sha) await resetBranchTo(repo, o.branch, sha)
      return { sha, attempts: attempt, rebased: sha !== o.sha }
    }
    if (verdict.policy) {
      throw new PushError(
        'rejected',
        `${remote} refused the push to ${o.branch}: ${verdict.why}`,
        attempt
      )
    }
    if (attempt >= attempts) {
      throw new PushError(
        'exhausted',
        `${o.branch} kept moving on ${remote}; gave up after ${attempt} push attempt${attempt === 1 ? '' : 's'}`,
        attempt
      )
    }
    await sleep(backoffMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2))

    const head = await fetchBranch(repo, remote, o.branch, o.auth)
    if (head === null) {
      if (expected !== null) {
        throw new PushError(
          'deleted',
          `${o.branch} was deleted on ${remote} while this stage ran; not re-creating it from stale state`,
          attempt
        )
      }
      continue
    }
    if (await isAncestor(repo, sha, head)) return { sha, attempts: attempt, rebased: sha !== o.sha }
    if (!(await isAncestor(repo, parent, head))) {
      throw new PushError(
        'rewritten',
        `${o.branch} was rewritten (force-pushed) on ${remote} while this stage ran; not pushing on top of history the stage did not start from`,
        attempt
      )
    }
    sha = await replayOnto(repo, commit, sha, head, attempt, o.branch)
    parent = head
    expected = head
  }
}

type Verdict =
  { ok: true } | { ok: false; policy: false } | { ok: false; policy: true; why: string }

/** The remote moved under us (worth a fetch and retry), as opposed to a refusal. */
const MOVED = /^\[rejected\] \((stale info|fetch first|non-fast-forward)\)/
const RACED = /cannot lock ref|failed to update ref|failed to lock|incorrect old value/

async function pushOnce(
  repo: string,
  remote: string,
  branch: string,
  sha: string,
  expected: string | null,
  auth?: GitAuth
): Promise<Verdict> {
  const ref = `refs/heads/${branch}`
  const args = [
    'push',
    '--porcelain',
    '--no-verify',
    '--recurse-submodules=no',
    `--force-with-lease=${ref}:${expected ?? ''}`,
    remote,
    `${sha}:${ref}`
  ]
  const r = await git(repo, args, { auth, okCodes: [1, 128] })
  const status = r.stdout.split('\n').find((l) => l.split('\t')[1]?.endsWith(`:${ref}`))
  const remoteSays = r.stderr
    .split('\n')
    .filter((l) => l.startsWith('remote: '))
    .map((l) => l.slice(8).trim())
    .filter(Boolean)
    .join(' ')
    .slice(0, 400)
  if (!status) {
    if (/\b403\b|denied|not allowed|permission/i.test(r.stderr)) {
      const said = r.stderr.trim().split('\n').pop() ?? ''
      return { ok: false, policy: true, why: said }
    }
    throw new GitError(args, r.code, r.stderr)
  }
  const [flag, , summary = ''] = status.split('\t')
  if (flag !== '!') return { ok: true }
  if (MOVED.test(summary) || (summary.startsWith('[remote rejected]') && RACED.test(summary))) {
    return { ok: false, policy: false }
  }
  return { ok: false, policy: true, why: remoteSays ? `${summary}: ${remoteSays}` : summary }
}

/** The branch's head on the remote, fetched; null when the remote has no such branch. */
async function fetchBranch(
  repo: string,
  remote: string,
  branch: string,
  auth?: GitAuth
): Promise<string | null> {
  const tracking = `refs/remotes/${remote}/${branch}`
  const args = [
    'fetch',
    '--no-tags',
    '--recurse-submodules=no',
    remote,
    `+refs/heads/${branch}:${tracking}`
  ]
  const r = await git(repo, args, { auth, okCodes: [128] })
  if (r.code === 128) {
    if (/couldn't find remote ref/i.test(r.stderr)) return null
    throw new GitError(args, r.code, r.stderr)
  }
  const head = await resolveCommit(repo, tracking)
  if (!head) throw new Error(`fetching ${branch} left no ${tracking}`)
  return head
}

async function isAncestor(repo: string, a: string, b: string): Promise<boolean> {
  const r = await git(repo, ['merge-base', '--is-ancestor', a, b], { okCodes: [1] })
  return r.code === 0
}

/**
 * Our change again, on top of `head`. The merge base is our parent: it is an ancestor of
 * `head` (checked) and the only parent of our commit, so merge-tree finds it unaided.
 */
async function replayOnto(
  repo: string,
  commit: CommitInfo,
  sha: string,
  head: string,
  attempt: number,
  branch: string
): Promise<string> {
  const merge = await git(
    repo,
    ['merge-tree', '--write-tree', '--no-messages', '--name-only', '-z', head, sha],
    { okCodes: [1] }
  )
  const [tree, ...rest] = merge.stdout.split('\0')
  if (merge.code === 1) {
    const paths = [...new Set(rest.filter(Boolean))].sort()
    throw new PushError(
      'conflict',
      `the branch ${branch} moved and conflicts with this stage's commit in ${paths.join(', ')}`,
      attempt,
      paths
    )
  }
  const r = await git(repo, ['commit-tree', '--no-gpg-sign', tree.trim(), '-p', head, '-F', '-'], {
    env: {
      GIT_AUTHOR_NAME: commit.author.name,
      GIT_AUTHOR_EMAIL: commit.author.email,
      GIT_AUTHOR_DATE: commit.author.date,
      GIT_COMMITTER_NAME: commit.committer.name,
      GIT_COMMITTER_EMAIL: commit.committer.email
    },
    input: commit.message
  })
  return r.stdout.trim()
}

interface Ident {
  name: string
  email: string
  date: string
}

interface CommitInfo {
  parents: string[]
  author: Ident
  committer: Ident
  message: Buffer
}

async function readCommit(repo: string, sha: string): Promise<CommitInfo> {
  const raw = (await gitBytes(repo, ['cat-file', 'commit', sha])).stdout
  const split = raw.indexOf('\n\n')
  const headers = raw
    .subarray(0, split < 0 ? raw.length : split)
    .toString('utf8')
    .split('\n')
  const ident = (key: string): Ident => {
    const line = headers.find((h) => h.startsWith(`${key} `)) ?? ''
    const m = /^\S+ (.*) <([^>]*)> (\d+ [+-]\d{4})$/.exec(line)
    if (!m) throw new Error(`commit ${sha} has no readable ${key}`)
    return { name: m[1], email: m[2], date: `@${m[3]}` }
  }
  return {
    parents: headers.filter((h) => h.startsWith('parent ')).map((h) => h.slice(7)),
    author: ident('author'),
    committer: ident('committer'),
    message: split < 0 ? Buffer.alloc(0) : raw.subarray(split + 2)
  }
}
