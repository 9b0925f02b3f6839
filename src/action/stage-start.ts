import { UserError } from '../errors.js'
import { isBranchName } from '../git/branch-name.js'
import type { GitAuth } from '../git/git.js'
import { LINEAR_KEY } from '../tracker/linear-key.js'
import type { Trigger } from './event.js'
import type { Settings } from './inputs.js'

/** The branches a stage fetches first, and from where: all of it known before WORKFLOW.md. */
interface FetchPlan {
  repo: string
  branches: string[]
  remoteUrl: string
  auth: GitAuth
}

type RunTrigger = Extract<Trigger, { kind: 'run' }>

/** Whether the event starts a stage, and if so the issue it names and what to fetch first. */
export type StageStart =
  | { kind: 'skip' | 'deny'; reason: string }
  | {
      kind: 'run'
      trigger: RunTrigger
      /** The issue number, or a Linear key (with its parts) when `linearKey` is set. */
      issueNumber: string
      linearKey: RegExpExecArray | null
      defaultBranch: string
      fetch: FetchPlan
    }

/**
 * The decision the stage takes from its settings and the event alone, before any git or
 * request; a user's mistake here is a UserError.
 */
export function stageStart(s: Settings, trigger: Trigger): StageStart {
  if (trigger.kind !== 'run') return trigger
  if (trigger.pullRequest?.fork) {
    return {
      kind: 'deny',
      reason: "the pull request's head is in a fork; stages never run on fork code"
    }
  }
  // The trigger holds the issue's canonical key (issueKey): a number, or a Linear key.
  const issueNumber = trigger.issue
  const linearKey = LINEAR_KEY.exec(issueNumber)
  const defaultBranch = trigger.defaultBranch
  if (!defaultBranch) {
    throw new UserError('the event payload names no default branch (repository.default_branch)')
  }
  // The issue branch the stage will most likely work on is fetched with the default branch, in
  // one listing and one fetch; the workspace asks the remote again only if it is another.
  const likely =
    trigger.pullRequest?.headRef ??
    (linearKey
      ? `itervox/${linearKey[1]!.toLowerCase()}/${linearKey[2]}`
      : `itervox/${issueNumber}`)
  return {
    kind: 'run',
    trigger,
    issueNumber,
    linearKey,
    defaultBranch,
    fetch: {
      repo: s.workspace,
      branches: [defaultBranch, ...(isBranchName(likely) ? [likely] : [])],
      remoteUrl: `${s.serverUrl}/${s.repository.owner}/${s.repository.repo}.git`,
      auth: { serverUrl: s.serverUrl, token: s.token }
    }
  }
}
