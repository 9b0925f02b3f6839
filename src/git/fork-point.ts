// Where an issue branch left its base branch. Handoffs committed there were on the base branch
// already (earlier issues' trails, merged with their pull requests), so they are not this
// issue's; only what the branch added since is.
import { UserError } from '../errors.js'
import { git, type GitAuth } from './git.js'
import { isShallow } from './repo.js'

export interface ForkPointOptions {
  repo: string
  /** The issue branch's commit. */
  head: string
  /** The base branch's commit-ish, e.g. `refs/remotes/origin/main`. */
  base: string
  /** Names for messages. */
  branch: string
  baseBranch: string
  /**
   * How a shallow clone gets more history: these refspecs from `remote`. Without it (a local
   * checkout) a shallow clone that lacks the fork point is an error that says how to fix it.
   */
  deepen?: { remote: string; refspecs: string[]; auth?: GitAuth }
}

// Commits added per round before giving up on small steps and fetching all of history.
const DEEPEN_STEPS = [250, 2500]

/**
 * The merge-base of `head` and `base`. A shallow clone is deepened until git finds it (all of
 * history at worst); a branch that truly shares no history with its base is an error, since
 * every handoff on it might then be another issue's.
 */
export async function forkPoint(o: ForkPointOptions): Promise<string> {
  let found = await mergeBase(o.repo, o.head, o.base)
  if (found) return found
  if (o.deepen) {
    const { remote, refspecs, auth } = o.deepen
    const fetch = (how: string) =>
      git(o.repo, ['fetch', '--no-tags', '--recurse-submodules=no', how, remote, ...refspecs], {
        ...(auth ? { auth } : {})
      })
    for (const step of DEEPEN_STEPS) {
      if (!(await isShallow(o.repo))) break
      await fetch(`--deepen=${step}`)
      found = await mergeBase(o.repo, o.head, o.base)
      if (found) return found
    }
    if (await isShallow(o.repo)) {
      await fetch('--unshallow')
      found = await mergeBase(o.repo, o.head, o.base)
      if (found) return found
    }
  } else if (await isShallow(o.repo)) {
    throw new UserError(
      `cannot tell which handoffs are ${o.branch}'s own: this clone is shallow and does not reach where it left ${o.baseBranch}; run git fetch --unshallow`
    )
  }
  throw new UserError(
    `cannot tell which handoffs are ${o.branch}'s own: it shares no history with ${o.baseBranch}, so any of them may be another issue's; rebase it onto ${o.baseBranch}`
  )
}

async function mergeBase(repo: string, a: string, b: string): Promise<string | null> {
  const r = await git(repo, ['merge-base', a, b], { okCodes: [1] })
  return r.code === 0 ? r.stdout.trim() : null
}
