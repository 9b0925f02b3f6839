import { setTimeout as sleep } from 'node:timers/promises'
import path from 'node:path'
import { UserError } from '../errors.js'
import { resetBranchTo } from './branch.js'
import { validateBranchName } from './branch-name.js'
import type { CommitSigner } from './commit-signer.js'
import { fileChangesOf } from './file-changes.js'
import { gitFailure } from './git-errors.js'
import { git, gitVersion, PUSH_GIT_VERSION, versionAtLeast, type GitAuth } from './git.js'
import { sharedObjects } from './objects.js'
import { refRejection, remoteFailure, type RemoteFailure } from './remote-failure.js'

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
  /** The most pushes while the branch keeps moving under us. Default 4. */
  attempts?: number
  /**
   * The most retries of pushes and fetches that failed on the way (GitHub's 5xx, a connection
   * dropped or stalled), all told. Default 5.
   */
  retries?: number
  /** First wait before a retry; doubles each time, with jitter. */
  backoffMs?: number
  /** A transfer that moves no byte for this many seconds is given up, and retried. Default 60. */
  stallSeconds?: number
  /**
   * Has GitHub create the commit instead (signed, so marked Verified), with the same
   * compare-and-swap; a change it cannot express is pushed, and `notice` says why.
   */
  signer?: CommitSigner
  /** Branches this push must never update (the default branch, a pull request's base). */
  forbidden?: string[]
}

export interface PushResult {
  /** What the branch now holds: the stage's commit, or its copy on top of newer commits. */
  sha: string
  /** Pushes tried. */
  attempts: number
  /** The commit was re-created on top of commits pushed meanwhile. */
  rebased: boolean
  /** With a signer: GitHub created the commit (`sha` is its, not the stage's local one). */
  signed?: true
  /** With a signer: why the commit was pushed unsigned instead, in one line. */
  notice?: string
}

export type PushFailure =
  | 'forbidden'
  | 'rejected'
  | 'conflict'
  | 'deleted'
  | 'rewritten'
  | 'exhausted'
  /** The remote kept failing on the way (5xx, connections) for all the retries. */
  | 'unavailable'

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
 * times. A push or fetch that fails on the way (GitHub's 5xx, a dropped or stalled connection)
 * is retried with backoff; a push that landed although its answer was lost is then found by the
 * lease, not pushed twice. A branch deleted or rewritten meanwhile, a conflict, a refusal by the
 * remote's policy, or a remote that stays unavailable ends with a PushError.
 */
export async function pushWithRetry(o: PushOptions): Promise<PushResult> {
  const repo = path.resolve(o.repo)
  const remote = o.remote ?? 'origin'
  const attempts = Math.max(1, o.attempts ?? 4)
  const retries = Math.max(0, o.retries ?? 5)
  const backoffMs = o.backoffMs ?? 1000
  const net: Net = {
    repo,
    remote,
    branch: o.branch,
    auth: o.auth,
    stall: ['-c', 'http.lowSpeedLimit=1', '-c', `http.lowSpeedTime=${o.stallSeconds ?? 60}`]
  }
  await validateBranchName(o.branch)
  // The last word before anything is sent: whoever chose the branch, these are never pushed to.
  if (o.forbidden?.includes(o.branch)) {
    throw new PushError(
      'forbidden',
      `${o.branch} is a protected branch (the default branch or a pull request's base); a stage never pushes to it`,
      0
    )
  }
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

  const pause = (n: number) => sleep(backoffMs * 2 ** (n - 1) * (0.5 + Math.random() / 2))
  let pushes = 0
  let spent = 0
  /** Waits out a failure on the way, or gives up when the retries are spent. */
  const retryLater = async (doing: string, why: string): Promise<void> => {
    if (spent >= retries) {
      throw new PushError(
        'unavailable',
        `${remote} is unavailable: gave up ${doing} ${o.branch} after ${retries} ${retries === 1 ? 'retry' : 'retries'}: ${why}`,
        pushes
      )
    }
    await pause(++spent)
  }
  const fetchHead = async (): Promise<string | null> => {
    for (;;) {
      const head = await fetchBranch(net)
      if (typeof head === 'string' || head === null) return head
      if (head.kind === 'refused') {
        throw new PushError(
          'rejected',
          `${remote} refused the fetch of ${o.branch}: ${head.why}`,
          pushes
        )
      }
      await retryLater('fetching', head.why)
    }
  }

  let sha = o.sha
  let parent = o.baseSha
  let expected: string | null = o.created ? null : o.baseSha
  let signer = o.signer
  let notice: string | undefined
  /** Whether the mutation can say what `sha` changes; when not, pushing takes over. */
  const signable = async (): Promise<boolean> => {
    if (!signer) return false
    const changes = await fileChangesOf(repo, parent, sha)
    if (!('unsupported' in changes)) return true
    notice = `sign-commits: the stage's commit was pushed unsigned, because ${changes.unsupported}, which createCommitOnBranch cannot express`
    signer = undefined
    return false
  }
  /** GitHub's commit, fetched; the local branch then names it. */
  const adoptSigned = async (oid: string, ours: string, sent: number): Promise<PushResult> => {
    const head = await fetchHead()
    const objects = sharedObjects(repo)
    const [theirs, wanted] = [
      await objects.resolve(`${oid}^{tree}`),
      await objects.resolve(`${ours}^{tree}`)
    ]
    if (head === null || !theirs) {
      throw new PushError(
        'rewritten',
        `${o.branch} no longer holds the commit GitHub created (${oid}) on ${remote}`,
        sent
      )
    }
    if (theirs !== wanted) {
      throw new Error(
        `GitHub's commit ${oid} on ${o.branch} does not hold the stage's tree ${wanted ?? ''}`
      )
    }
    await resetBranchTo(repo, o.branch, oid)
    return { sha: oid, attempts: sent, rebased: ours !== o.sha, signed: true }
  }
  // Decided before anything is sent.
  await signable()
  for (let attempt = 1; ;) {
    let verdict: Verdict
    let made: string | undefined
    if (signer && expected === null) {
      // createCommitOnBranch needs the branch: it is made at the stage's base, a commit the
      // remote has, with the same lease (nothing may be there yet).
      verdict = await pushOnce(net, parent, null)
      pushes++
      if (verdict.kind === 'ok') {
        expected = parent
        continue
      }
    } else if (signer && expected !== null && (await signable())) {
      const changes = await fileChangesOf(repo, parent, sha)
      if ('unsupported' in changes) throw new Error(changes.unsupported)
      const text = commit.message.toString('utf8')
      const nl = text.indexOf('\n')
      const answer = await signer.createCommit({
        branch: o.branch,
        expectedHeadOid: expected,
        headline: nl < 0 ? text : text.slice(0, nl),
        body:
          nl < 0
            ? ''
            : text
                .slice(nl + 1)
                .replace(/^\n+/, '')
                .trimEnd(),
        fileChanges: changes
      })
      pushes++
      if (answer.kind === 'ok') made = answer.oid
      verdict = answer.kind === 'ok' ? { kind: 'ok' } : answer
    } else {
      verdict = await pushOnce(net, sha, expected)
      pushes++
    }
    if (made) return adoptSigned(made, sha, pushes)
    if (verdict.kind === 'ok') {
      if (sha !== o.sha) await resetBranchTo(repo, o.branch, sha)
      return { sha, attempts: pushes, rebased: sha !== o.sha, ...(notice ? { notice } : {}) }
    }
    if (verdict.kind === 'refused') {
      throw new PushError(
        'rejected',
        `${remote} refused the push to ${o.branch}: ${verdict.why}`,
        pushes
      )
    }
    if (verdict.kind === 'transient') {
      // Sent again as it was: if it landed, the lease now fails and the fetch below finds it.
      await retryLater('pushing', verdict.why)
      continue
    }
    await pause(attempt)
    const head = await fetchHead()
    if (head === null && expected !== null) {
      throw new PushError(
        'deleted',
        `${o.branch} was deleted on ${remote} while this stage ran; not re-creating it from stale state`,
        pushes
      )
    }
    if (head !== null && (await isAncestor(repo, sha, head))) {
      if (sha !== o.sha) await resetBranchTo(repo, o.branch, sha)
      return { sha, attempts: pushes, rebased: sha !== o.sha, ...(notice ? { notice } : {}) }
    }
    // A commit GitHub made from an earlier send whose answer was lost: our change on our parent.
    if (
      signer &&
      head !== null &&
      expected !== null &&
      (await sameChange(repo, head, expected, sha))
    ) {
      return adoptSigned(head, sha, pushes)
    }
    if (head !== null && !(await isAncestor(repo, parent, head))) {
      throw new PushError(
        'rewritten',
        `${o.branch} was rewritten (force-pushed) on ${remote} while this stage ran; not pushing on top of history the stage did not start from`,
        pushes
      )
    }
    if (attempt >= attempts) {
      throw new PushError(
        'exhausted',
        `${o.branch} kept moving on ${remote}; gave up after ${pushes} push attempt${pushes === 1 ? '' : 's'}`,
        pushes
      )
    }
    attempt++
    if (head !== null) {
      sha = await replayOnto(repo, commit, sha, head, pushes, o.branch)
      parent = head
      expected = head
    }
  }
}

/** What the network commands need: where, with which token, and when to call a transfer stalled. */
interface Net {
  repo: string
  remote: string
  branch: string
  auth?: GitAuth
  /** `-c` settings that end a transfer moving no byte for the stall time (git has no timeout). */
  stall: string[]
}

type Verdict = { kind: 'ok' } | { kind: 'moved' } | RemoteFailure

/** The remote moved under us (worth a fetch and retry), as opposed to a refusal. */
const MOVED = /^\[rejected\] \((stale info|fetch first|non-fast-forward)\)/
const RACED = /cannot lock ref|failed to update ref|failed to lock|incorrect old value/
/** A refusal the token's permissions explain. */
const NO_PERMISSION = /Permission to \S+ denied|Write access to repository not granted|\b403\b/

async function pushOnce(net: Net, sha: string, expected: string | null): Promise<Verdict> {
  const ref = `refs/heads/${net.branch}`
  const args = [
    'push',
    '--porcelain',
    '--no-verify',
    '--recurse-submodules=no',
    `--force-with-lease=${ref}:${expected ?? ''}`,
    net.remote,
    `${sha}:${ref}`
  ]
  const r = await git(net.repo, [...net.stall, ...args], { auth: net.auth, okCodes: [1, 128] })
  const status = r.stdout.split('\n').find((l) => l.split('\t')[1]?.endsWith(`:${ref}`))
  if (!status) {
    const failure = remoteFailure(r.stderr)
    if (!failure) throw gitFailure(net.repo, args, r.code, r.stderr)
    if (failure.kind === 'refused' && NO_PERMISSION.test(r.stderr)) {
      return {
        ...failure,
        why: `${failure.why}; the token needs write access to the repository (\`permissions: contents: write\`)`
      }
    }
    return failure
  }
  const [flag, , summary = ''] = status.split('\t')
  if (flag !== '!') return { kind: 'ok' }
  if (MOVED.test(summary) || (summary.startsWith('[remote rejected]') && RACED.test(summary))) {
    return { kind: 'moved' }
  }
  const remoteSays = r.stderr
    .split('\n')
    .filter((l) => l.startsWith('remote: '))
    .map((l) => l.slice(8).trim())
    .filter(Boolean)
    .join(' ')
    .slice(0, 400)
  return refRejection(summary, remoteSays)
}

/**
 * The branch's head on the remote, fetched; null when the remote has no such branch; how the
 * remote failed otherwise.
 */
async function fetchBranch(net: Net): Promise<string | null | RemoteFailure> {
  const tracking = `refs/remotes/${net.remote}/${net.branch}`
  const args = [
    'fetch',
    '--no-tags',
    '--recurse-submodules=no',
    net.remote,
    `+refs/heads/${net.branch}:${tracking}`
  ]
  const r = await git(net.repo, [...net.stall, ...args], { auth: net.auth, okCodes: [128] })
  if (r.code === 128) {
    if (/couldn't find remote ref/i.test(r.stderr)) return null
    const failure = remoteFailure(r.stderr)
    if (failure) return failure
    throw gitFailure(net.repo, args, r.code, r.stderr)
  }
  const head = await sharedObjects(net.repo).resolve(`${tracking}^{commit}`)
  if (!head) throw new Error(`fetching ${net.branch} left no ${tracking}`)
  return head
}

/** `head` makes exactly the change `sha` makes, on `parent`. */
async function sameChange(
  repo: string,
  head: string,
  parent: string,
  sha: string
): Promise<boolean> {
  const objects = sharedObjects(repo)
  const info = await readCommit(repo, head)
  return (
    info.parents.length === 1 &&
    info.parents[0] === parent &&
    (await objects.resolve(`${head}^{tree}`)) === (await objects.resolve(`${sha}^{tree}`))
  )
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
  const [tree = '', ...rest] = merge.stdout.split('\0')
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
  const raw = await sharedObjects(repo).readObject(sha, 'commit')
  const split = raw.indexOf('\n\n')
  const headers = raw
    .subarray(0, split < 0 ? raw.length : split)
    .toString('utf8')
    .split('\n')
  const ident = (key: string): Ident => {
    const line = headers.find((h) => h.startsWith(`${key} `)) ?? ''
    const m = /^\S+ (.*) <([^>]*)> (\d+ [+-]\d{4})$/.exec(line)
    if (!m) throw new Error(`commit ${sha} has no readable ${key}`)
    const [, name = '', email = '', seconds = ''] = m
    return { name, email, date: `@${seconds}` }
  }
  return {
    parents: headers.filter((h) => h.startsWith('parent ')).map((h) => h.slice(7)),
    author: ident('author'),
    committer: ident('committer'),
    message: split < 0 ? Buffer.alloc(0) : raw.subarray(split + 2)
  }
}
