import * as core from '@actions/core'
import { dirname, join } from 'node:path'
import { knownStates } from '../config/load.js'
import { UserError } from '../errors.js'
import { headsOf } from '../git/branch.js'
import { fetchBranches } from '../git/fetch-branches.js'
import { minimumVersion } from '../git/git.js'
import { closeSharedObjects, sharedObjects } from '../git/objects.js'
import { RemoteWorkspace } from './remote-workspace.js'
import { describe } from '../pipeline/settle/effects.js'
import { runJob, type JobResult } from '../pipeline/job.js'
import { pipelineDiagram, stageTable } from '../tracker/status-comment.js'
import { contextPathOf } from '../pipeline/stage/stage.js'
import { runnerInstallation } from '../isolation/runner-paths.js'
import { clip } from '../pipeline/untrusted-text.js'
import type { Tracker } from '../pipeline/ports.js'
import { secretNamesOf } from '../secrets/job-secrets.js'
import type { SecretScanner } from '../secrets/scanner.js'
import { putBackLeftBehind, startIsolation, type Isolation } from '../isolation/sandbox.js'
import { GitHubApi } from '../tracker/github-api.js'
import { GitHubTracker, sendWake } from '../tracker/github-tracker.js'
import { stageSlots } from '../tracker/capped-slots.js'
import { LinearApi, linearEndpoint } from '../tracker/linear-api.js'
import { LinearTracker } from '../tracker/linear.js'
import { RepoRecordStore } from '../tracker/repo-records.js'
import { refStageClaims } from '../tracker/stage-claims.js'
import { AgentLogEcho } from './agent-log.js'
import { maskedSecrets } from './masked-secrets.js'
import { CONTEXT_STATE } from './saved-context.js'
import { readEvent, triggerFromEvent } from './event.js'
import type { Settings } from './inputs.js'
import { tokenIdentity } from './identity-input.js'
import type { StageReport } from './report.js'
import { stageStart } from './stage-start.js'
import { loadWorkflowAt } from './workflow-source.js'

// Cancellation gives the main step 7.5 s before SIGTERM: the agent gets a short grace so the
// commit and push still fit; the post step finishes whatever does not.
const CANCEL_GRACE_MS = 3000

// The final text is capped where it is read; the log shows its start.
const MAX_RESULT_IN_LOG = 4000

const NOT_ISOLATED =
  "isolation is none: the agent ran as the runner's user, with the job token and the runner's files within its reach; remove isolation: none to run it as a second user"

/** One GitHub event, through the one job loop: the GitHub adapter around `runJob`. */
export async function runStageJob(s: Settings, signal: AbortSignal): Promise<StageReport> {
  try {
    return await stageJob(s, signal)
  } finally {
    await closeSharedObjects()
  }
}

async function stageJob(s: Settings, signal: AbortSignal): Promise<StageReport> {
  const started = Date.now()
  let secrets = maskedSecrets([], s.token)
  // Whatever the report says goes into the outputs, the summary and the log: none of it
  // may hold a secret, whoever wrote it.
  const report = (r: Partial<StageReport> & Pick<StageReport, 'outcome' | 'reason'>): StageReport =>
    secrets.redactDeep({
      refused: [],
      withheld: [],
      warnings: [],
      runUrl: s.runUrl,
      durationMs: Date.now() - started,
      ...r
    }).value
  const info = (line: string) => core.info(secrets.redact(line).text)

  const start = stageStart(
    s,
    triggerFromEvent(s.eventName, readEvent(s.eventPath), { issue: s.issue, state: s.state })
  )
  if (start.kind !== 'run') {
    return report({ outcome: start.kind === 'skip' ? 'skipped' : 'denied', reason: start.reason })
  }
  const { trigger, issueNumber, linearKey, defaultBranch } = start

  const api = new GitHubApi({
    token: s.token,
    apiUrl: s.apiUrl,
    owner: s.repository.owner,
    repo: s.repository.repo,
    log: info
  })

  // A stage of a job killed with no post step may have left the checkout's objects with the
  // agent user: they come back before git reads the checkout.
  if (s.isolation === 'user') {
    const putBack = await putBackLeftBehind(s.agentUser)
    if (putBack) core.warning(putBack)
  }
  // git --version only warns, so it runs beside the fetch rather than before it.
  const version = minimumVersion()
  version.catch(() => undefined)
  const { auth } = start.fetch
  const fetched = await headsOf(s.workspace, await fetchBranches(start.fetch))
  const { warning } = await version
  if (warning) core.warning(warning)
  // WORKFLOW.md and the profiles come from the default branch, never from the issue branch.
  const trusted = fetched.heads.get(defaultBranch)
  if (!trusted) {
    throw new UserError(`the base branch "${defaultBranch}" does not exist on ${fetched.remote}`)
  }
  const { config, warnings } = await loadWorkflowAt(
    s.workspace,
    trusted,
    s.workflowFile,
    process.env
  )
  const configWarnings = warnings.map((w) => `${w.location.file}:${w.location.line}: ${w.message}`)
  // The profiles' `env` names more secrets: every variable any of them hands an agent.
  secrets = maskedSecrets(secretNamesOf(config), s.token, config.tracker.apiKey)
  if (config.tracker.kind === 'local') {
    throw new UserError(
      `${s.workflowFile}: tracker.kind is "local"; the action works on GitHub or Linear issues, so set it to github or linear`
    )
  }
  if ((config.tracker.kind === 'linear') !== (linearKey !== null)) {
    throw new UserError(
      config.tracker.kind === 'linear'
        ? `issue "${issueNumber}" is not a Linear issue key, and ${s.workflowFile} says tracker.kind linear; pass e.g. issue: ENG-123`
        : `issue "${issueNumber}" is not a GitHub issue number, and ${s.workflowFile} says tracker.kind github; pass e.g. issue: 42`
    )
  }
  api.useStates(knownStates(config))
  // Record and claim commits carry no files: the trusted head's tree is one GitHub has.
  let tree: Promise<string> | undefined
  const treeOf = () =>
    (tree ??= sharedObjects(s.workspace)
      .resolve(`${trusted}^{tree}`)
      .then((found) => found ?? api.refs().treeOf(trusted)))
  const records = new RepoRecordStore({ refs: api.refs(), tree: treeOf })
  const port = new GitHubTracker({
    api,
    records,
    config,
    owner: s.repository.owner,
    repo: s.repository.repo,
    serverUrl: s.serverUrl,
    runId: s.runId,
    runUrl: s.runUrl,
    chain: s.chain,
    warning: s.isolation === 'none' ? NOT_ISOLATED : undefined
  })
  const linear =
    config.tracker.kind === 'linear'
      ? new LinearApi({ apiKey: config.tracker.apiKey ?? '', url: linearEndpoint(process.env) })
      : undefined
  const tracker: Tracker = linear
    ? await LinearTracker.create({
        api: linear,
        config,
        records,
        github: { port, api }
      })
    : port

  // Stage commits are by the token's own identity unless the inputs name one: the job's token
  // is github-actions[bot]; another token (an App's bot, a person) is asked who it is.
  const author = s.author ?? (s.ownToken ? undefined : await tokenIdentity(api))
  const committer = s.committer ?? author

  const workDir = join(s.runnerTemp, 'itervox-handoff', `${s.runId}-${s.runAttempt}-${issueNumber}`)
  let isolation: Promise<Isolation> | undefined
  const isolate = () =>
    (isolation ??= isolationFor(s).then((iso) => {
      info(
        `the agent runs as ${iso.user.name} (uid ${iso.user.uid})${iso.closed.length ? `; closed to other users: ${iso.closed.join(', ')}` : ''}`
      )
      // A hosted runner's machine goes with the job; anywhere else the folders stay closed.
      if (iso.closed.length && !s.hostedRunner) {
        core.warning(
          `isolation: user closed ${iso.closed.join(', ')} to other users (chmod o-rwx), and they stay so after the job on a machine that is not a GitHub-hosted runner; reopen them with chmod o+rx if others need them, or set isolation: none on a machine of your own`
        )
      }
      return iso
    }))
  let echo: AgentLogEcho | undefined
  const seen = { events: 0, tools: 0, bytes: 0 }
  const slots = stageSlots(config, {
    refs: api.refs(),
    run: { id: s.runId, attempt: s.runAttempt },
    baseCommit: trusted,
    runEnded: (id) => api.workflowRunEnded(id),
    wake: (issue, stage) => sendWake(api, issue, stage),
    log: info
  })
  const r = await runJob({
    trigger,
    config,
    tracker,
    workspace: new RemoteWorkspace({
      repo: s.workspace,
      baseBranch: config.workspace.baseBranch ?? defaultBranch,
      protectedBranches: [defaultBranch],
      auth,
      fetched,
      signer: s.signCommits ? api.commitSigner() : undefined
    }),
    run: { id: s.runId, attempt: s.runAttempt, url: s.runUrl },
    workDir,
    workflowPath: s.workflowFile,
    trustedCommit: trusted,
    parentEnv: process.env,
    secrets,
    isolate: s.isolation === 'user' ? isolate : undefined,
    signal,
    killGraceMs: CANCEL_GRACE_MS,
    dryRun: s.dryRun,
    paused: s.paused,
    claims: refStageClaims({
      refs: api.refs(),
      tree: treeOf,
      run: { id: s.runId, attempt: s.runAttempt },
      runEnded: (id) => api.workflowRunEnded(id)
    }),
    author,
    committer,
    slots,
    log: info,
    sections: { open: (title) => core.startGroup(title), close: () => core.endGroup() },
    onStart: (run, recovered) => {
      const { plan } = run
      info(
        `${run.issue.identifier} is in "${run.key.state}": ${plan.kind === 'review' ? 'review by' : 'profile'} ${plan.profile}` +
          (plan.attempt > 0 ? `, attempt ${plan.attempt + 1}` : '') +
          (plan.reply ? `, resumed by @${plan.reply.author}'s reply` : '') +
          ` on ${run.branch.branch}`
      )
      if (recovered) return
      core.saveState(CONTEXT_STATE, contextPathOf(workDir))
      if (s.showAgentOutput) {
        const title = `agent output (${plan.profile}, secrets masked)`
        echo = new AgentLogEcho((t) => process.stdout.write(t), title, secrets.lines())
      } else {
        info(
          `the agent's output goes to ${join(workDir, 'agent.log')} on the runner only; show-agent-output: true prints it here, secrets masked`
        )
      }
    },
    onActivity: (e) => {
      if (e.kind === 'output' && e.text) {
        seen.bytes += Buffer.byteLength(e.text)
        echo?.push(e.text)
      }
      if (e.kind === 'event') {
        seen.events++
        if (e.text?.startsWith('tool ')) seen.tools++
      }
    }
  })
  echo?.close()
  if (r.agentStats) logAgentEnd(r, seen, secrets)
  const noPull = port.pullRequestProblem(Number(issueNumber))
  // The pipeline goes on without it, so nothing else would stop a reader of the log.
  if (noPull) core.warning(secrets.redact(`no pull request: ${noPull}`).text)
  info(`GitHub API requests: ${api.requestCount}`)
  if (linear) info(`Linear API requests: ${linear.requestCount}`)
  return report({
    ...reportOf(r, s),
    warnings: [
      ...(s.isolation === 'none' && r.plan ? [NOT_ISOLATED] : []),
      ...configWarnings,
      ...r.warnings
    ],
    status: r.next ? statusOf(r, config, tracker) : undefined
  })
}

/**
 * What the log shows of an agent by default: how much it said, how it ended, and its final
 * text (the result event), masked and unable to run workflow commands.
 */
function logAgentEnd(
  r: JobResult,
  seen: { events: number; tools: number; bytes: number },
  secrets: SecretScanner
): void {
  const stats = r.agentStats
  const figures = [
    `${seen.bytes} bytes of output`,
    ...(seen.events ? [`${seen.events} events (${seen.tools} tool calls)`] : []),
    ...(stats?.turns !== undefined ? [`${stats.turns} turns`] : [])
  ]
  core.info(secrets.redact(`agent ended ${r.outcome}: ${figures.join(', ')}`).text)
  if (!r.resultText) return
  const result = new AgentLogEcho(
    (t) => process.stdout.write(t),
    `agent result (${r.plan?.profile ?? 'agent'}, secrets masked)`,
    secrets.lines()
  )
  result.push(clip(r.resultText, MAX_RESULT_IN_LOG))
  result.close()
}

/** The agent user, and the runner's own folders closed to it. */
function isolationFor(s: Settings): Promise<Isolation> {
  if (process.platform !== 'linux') {
    throw new UserError(
      `isolation: user runs the agent as a second Unix user on Linux runners only; this one is ${process.platform}, so set isolation: none`
    )
  }
  const home = process.env.HOME
  const installation = runnerInstallation(process.execPath)
  return startIsolation({
    user: s.agentUser,
    protect: [
      ...(home ? [home] : []),
      dirname(s.workspace),
      s.workspace,
      s.runnerTemp,
      ...(installation ? [installation] : [])
    ]
  })
}

function reportOf(
  r: JobResult,
  s: Settings
): Partial<StageReport> & Pick<StageReport, 'outcome' | 'reason'> {
  let next = r.summary ?? (r.next ? describe(r.next) : undefined)
  if (
    next &&
    s.chain === 'none' &&
    r.next &&
    r.next.kind !== 'stop' &&
    r.next.kind !== 'escalate' &&
    r.next.kind !== 'wait'
  ) {
    next += '; chain is none: start the next stage by hand'
  }
  const blob = (commit: string, path: string) =>
    `${s.serverUrl}/${s.repository.owner}/${s.repository.repo}/blob/${commit}/${path}`
  return {
    outcome: r.outcome,
    reason: r.reason,
    issue: r.issue?.id,
    issueUrl: r.issue?.url,
    state: r.state,
    profile: r.plan?.profile,
    branch: r.branch,
    commit: r.commit,
    handoffPath: r.handoffPath,
    handoffUrl: r.handoffPath && r.commit ? blob(r.commit, r.handoffPath) : undefined,
    pullRequest: r.pullRequest,
    nextState:
      r.next?.kind === 'move'
        ? (r.stateAfter ?? undefined)
        : r.next?.kind === 'escalate'
          ? r.next.to
          : undefined,
    next,
    figures: r.figures,
    prompt: r.prompt,
    agentStats: r.agentStats,
    cost: r.cost,
    failure: r.failure,
    unsaved: r.unsaved,
    refused: r.refused,
    withheld: r.withheld
  }
}

function statusOf(
  r: JobResult,
  config: Parameters<typeof pipelineDiagram>[0],
  tracker: Tracker
): string | undefined {
  if (!r.record) return undefined
  const table = stageTable(r.record, { blobUrl: (c, p) => tracker.blobUrl(c, p) })
  return `### Pipeline\n\n\`\`\`mermaid\n${pipelineDiagram(config, r.record.state)}\n\`\`\`\n\n${table}`
}
