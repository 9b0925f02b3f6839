import { UserError } from '../errors.js'
import type { Identity } from '../git/commit.js'
import { basicCredential } from '../git/git.js'
import { defaultAgentUser } from '../isolation/agent-user.js'
import type { IsolationMode } from '../isolation/sandbox.js'
import { actionInput } from './action-input.js'
import { identityInput } from './identity-input.js'

type ChainMode = 'dispatch' | 'label' | 'none'

/** `stage` runs the stage the event is for; `reconcile` starts every stage the records owe. */
type ActionMode = 'stage' | 'reconcile'

/** Everything the action reads from its inputs and the runner, checked once, in one place. */
export interface Settings {
  mode: ActionMode
  token: string
  workflowFile: string
  issue?: string
  state?: string
  chain: ChainMode
  dryRun: boolean
  /** The stop switch for the whole repository: the workflow passes vars.ITERVOX_PAUSED. */
  paused: boolean
  /** Print the agent's whole output in the job log (secrets masked); otherwise its result only. */
  showAgentOutput: boolean
  /** GitHub creates the stage commits (createCommitOnBranch), signed and marked Verified. */
  signCommits: boolean
  /** `user`: the agent runs as a second Unix user, `agentUser`; `none`: as the runner's. */
  isolation: IsolationMode
  agentUser: string
  /** Who stage commits are by, and who made them; absent: the token's own identity. */
  author?: Identity
  committer?: Identity
  /** github-token is the job's own GITHUB_TOKEN, whose identity is github-actions[bot]. */
  ownToken: boolean
  repository: { owner: string; repo: string }
  eventName: string
  eventPath: string
  workspace: string
  apiUrl: string
  serverUrl: string
  runId: string
  runAttempt: string
  runUrl: string
  runnerTemp: string
  /** A GitHub-hosted runner's machine is thrown away after the job (RUNNER_ENVIRONMENT). */
  hostedRunner: boolean
  actor: string
  /** GITHUB_REF: for a scheduled run, the default branch (its event names no repository). */
  ref: string
}

/**
 * The settings, read and checked; nothing is printed: the main step masks the tokens first
 * (tokensOf).
 */
export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const input = (name: string) => actionInput(env, name)
  const token = input('github-token')
  if (!token) {
    throw new UserError('input github-token is empty; leave it unset to use ${{ github.token }}')
  }
  const mode = input('mode') || 'stage'
  if (mode !== 'stage' && mode !== 'reconcile') {
    throw new UserError(`input mode is "${mode}"; use stage or reconcile`)
  }
  const chain = input('chain') || 'dispatch'
  if (chain !== 'dispatch' && chain !== 'label' && chain !== 'none') {
    throw new UserError(`input chain is "${chain}"; use dispatch, label or none`)
  }
  const dryRun = booleanInput('dry-run', env)
  // Empty when the repository variable is unset.
  const paused = booleanInput('paused', env)
  const showAgentOutput = booleanInput('show-agent-output', env)
  const signCommits = booleanInput('sign-commits', env)
  const isolation = input('isolation') || 'user'
  if (isolation !== 'user' && isolation !== 'none') {
    throw new UserError(`input isolation is "${isolation}"; use user or none`)
  }
  const author = identityInput('commit-author', input('commit-author'))
  const committer = identityInput('commit-committer', input('commit-committer'))
  // The runner fills job-token with the job's GITHUB_TOKEN; a github-token other than it is
  // an App's or a person's, whose identity the stage asks for when it needs it.
  const jobToken = input('job-token')
  const repository = required(env, 'GITHUB_REPOSITORY')
  const [owner, repo, ...rest] = repository.split('/')
  if (!owner || !repo || rest.length > 0) {
    throw new UserError(`GITHUB_REPOSITORY is "${repository}"; expected owner/name`)
  }
  const serverUrl = env.GITHUB_SERVER_URL || 'https://github.com'
  const runId = env.GITHUB_RUN_ID || '0'
  return {
    mode,
    token,
    workflowFile: input('workflow-file') || 'WORKFLOW.md',
    issue: input('issue') || undefined,
    state: input('state') || undefined,
    chain,
    dryRun,
    paused,
    showAgentOutput,
    signCommits,
    isolation,
    agentUser: input('agent-user') || defaultAgentUser(env),
    ...(author ? { author } : {}),
    ...(committer ? { committer } : {}),
    ownToken: !jobToken || jobToken === token,
    repository: { owner, repo },
    eventName: required(env, 'GITHUB_EVENT_NAME'),
    eventPath: required(env, 'GITHUB_EVENT_PATH'),
    workspace: env.GITHUB_WORKSPACE || process.cwd(),
    apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
    serverUrl,
    runId,
    runAttempt: env.GITHUB_RUN_ATTEMPT || '1',
    runUrl: `${serverUrl}/${owner}/${repo}/actions/runs/${runId}`,
    runnerTemp: env.RUNNER_TEMP || env.TMPDIR || '/tmp',
    hostedRunner: env.RUNNER_ENVIRONMENT === 'github-hosted',
    actor: env.GITHUB_ACTOR || '',
    ref: env.GITHUB_REF || ''
  }
}

/** The tokens among the inputs, and the form git sends the token in: to be masked at once. */
export function tokensOf(env: NodeJS.ProcessEnv = process.env): string[] {
  const token = actionInput(env, 'github-token')
  const jobToken = actionInput(env, 'job-token')
  return [...(token ? [token, basicCredential(token)] : []), ...(jobToken ? [jobToken] : [])]
}

export function booleanInput(name: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const text = (actionInput(env, name) || 'false').toLowerCase()
  if (text !== 'true' && text !== 'false') {
    throw new UserError(`input ${name} is "${text}"; use true or false`)
  }
  return text === 'true'
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const v = env[name]
  if (!v) throw new UserError(`${name} is not set; run this action inside a GitHub Actions job`)
  return v
}
