import * as core from '@actions/core'
import { join } from 'node:path'
import { findAutomation, knownStates } from '../config/load.js'
import { sameState } from '../config/lookup.js'
import type { WorkflowConfig } from '../config/types.js'
import { UserError } from '../errors.js'
import { prepareIssueBranch } from '../git/branch.js'
import { minimumVersion, type GitAuth } from '../git/git.js'
import { pushWithRetry } from '../git/push.js'
import { GitObjects } from '../git/objects.js'
import { HANDOFF_DIR, compareHandoffNames, runTimestamp } from '../handoff/index.js'
import { loadStageContext, saveStageContext } from '../pipeline/stage-context.js'
import { contextPathOf, runStage, type FinalisedStage } from '../pipeline/stage.js'
import { authorizeActor, isBot } from '../tracker/authorize.js'
import { GitHubTracker } from '../tracker/github.js'
import type { Issue } from '../tracker/types.js'
import { emptyRecord } from '../pipeline/record.js'
import { planStage } from '../pipeline/plan.js'
import { pipelineSections } from '../pipeline/sections.js'
import { readRecordFromComment } from '../pipeline/status-view.js'
import { AgentLogEcho } from './agent-log.js'
import { oneLine } from '../pipeline/untrusted-text.js'
import { advance, STATUS_MARKER } from './advance.js'
import { readEvent, triggerFromEvent, type Trigger } from './event.js'
import type { Settings } from './inputs.js'
import type { StageReport } from './report.js'
import { loadWorkflowAt } from './workflow-source.js'

/** The state key under which the main step tells the post step where the stage context is. */
export const CONTEXT_STATE = 'context'

// Cancellation gives the main step 7.5 s before SIGTERM: the agent gets a short grace so the
// commit and push still fit; the post step finishes whatever does not.
const CANCEL_GRACE_MS = 3000

/** One stage for one GitHub event: decide, prepare, run the agent, finalise, publish. */
export async function runStageJob(s: Settings, signal: AbortSignal): Promise<StageReport> {
  const started = Date.now()
  const report = (
    r: Partial<StageReport> & Pick<StageReport, 'outcome' | 'reason'>
  ): StageReport => ({
    refused: [],
    warnings: [],
    runUrl: s.runUrl,
    durationMs: Date.now() - started,
    ...r
  })

  const payload = readEvent(s.eventPath)
  const trigger = triggerFromEvent(s.eventName, payload, { issue: s.issue, state: s.state })
  if (trigger.kind === 'skip') return report({ outcome: 'skipped', reason: trigger.reason })
  if (trigger.pullRequest?.fork) {
    return report({
      outcome: 'denied',
      reason: "the pull request's head is in a fork; stages never run on fork code"
    })
  }
  const issueNumber = trigger.issue.replace(/^#/, '')
  if (!/^[1-9]\d{0,9}$/.test(issueNumber)) {
    throw new UserError(`issue "${trigger.issue}" is not an issue number; pass e.g. issue: 42`)
  }
  const defaultBranch = trigger.defaultBranch
  if (!defaultBranch) {
    throw new UserError('the event payload names no default branch (repository.default_branch)')
  }

  const git = await minimumVersion()
  if (git.warning) core.warning(git.warning)
  const auth: GitAuth = { serverUrl: s.serverUrl, token: s.token }
  const remoteUrl = `${s.serverUrl}/${s.repository.owner}/${s.repository.repo}.git`
  const base = await prepareIssueBranch({
    repo: s.workspace,
    branch: defaultBranch,
    base: defaultBranch,
    remoteUrl,
    auth
  })
  const { config, warnings } = await loadWorkflowAt(
    s.workspace,
    base.baseSha,
    s.workflowFile,
    process.env
  )
  const configWarnings = warnings.map((w) => `${w.location.file}:${w.location.line}: ${w.message}`)
  if (config.tracker.kind !== 'github') {
    throw new UserError(
      `${s.workflowFile}: tracker.kind is "${config.tracker.kind}"; the action works on GitHub issues, so set it to github`
    )
  }
  const tracker = new GitHubTracker({
    token: s.token,
    apiUrl: s.apiUrl,
    owner: s.repository.owner,
    repo: s.repository.repo,
    states: knownStates(config),
    log: (m) => core.info(m),
    secondMs: apiSecondMs()
  })
  const withCount = (r: StageReport): StageReport => {
    core.info(`GitHub API requests: ${tracker.requestCount}`)
    return { ...r, warnings: [...configWarnings, ...r.warnings] }
  }

  const authorization = await authorizeActor({
    tracker,
    actor: trigger.actor.login,
    actorType: trigger.actor.type,
    // A repository_dispatch can only be sent with write access to this repository: the
    // pipeline's own chaining arrives from the job token's bot.
    allowedBots: [
      ...config.tracker.allowedBots,
      ...(trigger.source === 'repository_dispatch' ? ['github-actions[bot]'] : [])
    ]
  })
  if (!authorization.allowed) {
    return withCount(
      report({ outcome: 'denied', reason: authorization.reason, issue: issueNumber })
    )
  }

  const issue = await tracker.getIssue(issueNumber)
  const decision = decide(config, trigger, issue)
  const issueUrl = issue.url
  if ('skip' in decision) {
    return withCount(
      report({
        outcome: 'skipped',
        reason: decision.skip,
        issue: issueNumber,
        issueUrl,
        state: issue.state ?? undefined
      })
    )
  }
  const { state, automation } = decision
  const living = await tracker.findComment(Number(issueNumber), STATUS_MARKER)
  const before = (living && readRecordFromComment(living.body)) || emptyRecord()
  const plan = planStage({
    config,
    record: before,
    state,
    automation,
    trigger: {
      source: trigger.source,
      actorIsBot: isBot(trigger.actor.login, trigger.actor.type),
      continuation: trigger.continuation,
      reply: trigger.reply
    },
    runId: s.runId,
    chain: s.chain
  })
  if ('skip' in plan) {
    return withCount(
      report({ outcome: 'skipped', reason: plan.skip, issue: issueNumber, issueUrl, state })
    )
  }
  const profile = config.agent.profiles[plan.profile]!
  core.info(
    `#${issueNumber} is in "${state}": ${plan.kind === 'review' ? 'review by' : 'profile'} ${profile.name}` +
      (plan.attempt > 0 ? `, attempt ${plan.attempt + 1}` : '') +
      (plan.reply ? `, resumed by @${plan.reply.author}'s reply` : '')
  )

  let branch = `itervox/${issueNumber}`
  if (trigger.pullRequest) branch = trigger.pullRequest.headRef
  else if (issue.isPullRequest) {
    const pull = await tracker.getPull(Number(issueNumber))
    if (pull.headRepoFullName !== `${s.repository.owner}/${s.repository.repo}`) {
      return withCount(
        report({
          outcome: 'denied',
          reason: "the pull request's head is in a fork; stages never run on fork code",
          issue: issueNumber
        })
      )
    }
    branch = pull.headRef
  }
  const baseBranch = config.workspace.baseBranch ?? defaultBranch
  const prepared = await prepareIssueBranch({ repo: s.workspace, branch, base: baseBranch, auth })
  core.info(
    prepared.created
      ? `branch ${branch} starts from ${baseBranch} at ${prepared.baseSha.slice(0, 12)}`
      : `branch ${branch} is at ${prepared.baseSha.slice(0, 12)}`
  )

  const workDir = join(s.runnerTemp, 'itervox-handoff', `${s.runId}-${s.runAttempt}-${issueNumber}`)
  core.saveState(CONTEXT_STATE, contextPathOf(workDir))
  const echo = new AgentLogEcho((t) => process.stdout.write(t), `agent output (${profile.name})`)
  const startedAt = new Date()
  const timestamp = plan.timestamp ?? runTimestamp(startedAt)
  const result = await runStage({
    config,
    profile,
    automation,
    issue,
    attempt: plan.attempt > 0 ? plan.attempt : null,
    repo: s.workspace,
    branch,
    baseSha: prepared.baseSha,
    created: prepared.created,
    runId: `${s.runId}/${s.runAttempt}`,
    timestamp,
    workflowPath: s.workflowFile,
    workDir,
    parentEnv: process.env,
    sections: pipelineSections(plan, profile.allowedActions),
    signal,
    killGraceMs: CANCEL_GRACE_MS,
    dryRun: s.dryRun,
    onActivity: (e) => {
      if (e.kind === 'output' && e.text) echo.push(e.text)
    }
  })
  echo.close()

  const common = {
    issue: issueNumber,
    issueUrl,
    state,
    profile: profile.name,
    branch,
    figures: result.figures
  }
  if (result.dryRun) {
    return withCount(
      report({
        ...common,
        outcome: 'skipped',
        reason: 'dry run: the prompt is below; no agent ran',
        prompt: result.prompt,
        handoffPath: result.handoffPath,
        warnings: result.warnings
      })
    )
  }

  const published = await publish(s, tracker, {
    result,
    branch,
    baseBranch,
    baseSha: prepared.baseSha,
    created: prepared.created,
    issue,
    auth
  })

  const advanced = await advance({
    s,
    tracker,
    config,
    issue: Number(issueNumber),
    state,
    automation,
    plan,
    result,
    commit: published.commit,
    pullRequest: published.pullRequest?.number,
    record: before,
    living,
    startedAt,
    timestamp
  })

  return withCount(
    report({
      ...common,
      outcome: result.outcome,
      reason: result.reason,
      commit: published.commit,
      handoffPath: result.handoffPath ?? undefined,
      handoffUrl:
        result.handoffPath && published.commit
          ? `${s.serverUrl}/${s.repository.owner}/${s.repository.repo}/blob/${published.commit}/${result.handoffPath}`
          : undefined,
      pullRequest: published.pullRequest,
      nextState: advanced.nextState,
      next: advanced.summary,
      status: advanced.status,
      refused: advanced.refused,
      warnings: published.prProblem
        ? [...result.warnings, `no pull request: ${published.prProblem}`]
        : result.warnings,
      agentStats: result.agent?.stats
    })
  )
}

type Decision =
  { skip: string } | { state: string; automation: NonNullable<ReturnType<typeof findAutomation>> }

/** Whether this event starts a stage for the issue as it is now (never as the payload says). */
function decide(
  config: WorkflowConfig,
  trigger: Extract<Trigger, { kind: 'run' }>,
  issue: Issue
): Decision {
  if (issue.closed) return { skip: `#${issue.id} is closed` }
  const state = issue.state
  if (trigger.label) {
    const isState = knownStates(config).some((k) => sameState(k, trigger.label!))
    if (!isState) return { skip: `label "${trigger.label}" is not a pipeline state` }
    if (!state || !sameState(state, trigger.label)) {
      return {
        skip: `label "${trigger.label}" was added, but the issue is now in "${state ?? 'no state'}"`
      }
    }
  }
  if (!state) return { skip: `#${issue.id} carries no state label` }
  if (trigger.state && !sameState(trigger.state, state)) {
    return { skip: `the dispatch was for "${trigger.state}", but the issue is now in "${state}"` }
  }
  const automation = findAutomation(config, state)
  if (!automation) return { skip: `no automation starts when an issue enters "${state}"` }
  if (!config.agent.profiles[automation.profile]?.enabled) {
    return { skip: `profile ${automation.profile} is disabled` }
  }
  return { state, automation }
}

/** Push the stage's commit and keep the issue's draft pull request up to date. */
async function publish(
  s: Settings,
  tracker: GitHubTracker,
  o: {
    result: FinalisedStage & { contextPath: string }
    branch: string
    baseBranch: string
    baseSha: string
    created: boolean
    issue: Issue
    auth: GitAuth
  }
): Promise<{ commit?: string; pullRequest?: { number: number; url: string }; prProblem?: string }> {
  const sha = o.result.commit.sha
  if (!sha) {
    core.info('nothing to commit')
    return {}
  }
  const pushed = await pushWithRetry({
    repo: s.workspace,
    branch: o.branch,
    sha,
    baseSha: o.baseSha,
    created: o.created,
    auth: o.auth
  })
  core.info(
    `pushed ${pushed.sha.slice(0, 12)} to ${o.branch}${pushed.rebased ? ' (on top of newer commits)' : ''}`
  )
  // The work is safe on the remote: the post step must not redo it as a partial.
  const ctx = loadStageContext(o.result.contextPath)
  if (ctx) saveStageContext(o.result.contextPath, { ...ctx, finished: true })
  if (o.issue.isPullRequest) return { commit: pushed.sha }
  // The pipeline goes on without its pull request (e.g. when the repository forbids Actions to
  // open one); the job summary says why.
  try {
    const pr = await tracker.upsertDraftPr({
      head: o.branch,
      base: o.baseBranch,
      title: `itervox: #${o.issue.id} ${o.issue.title}`.slice(0, 250),
      body: await pullRequestBody(s, pushed.sha, o.issue),
      branchIsNew: o.created
    })
    core.info(`${pr.created ? 'opened' : 'updated'} draft pull request #${pr.number}`)
    return { commit: pushed.sha, pullRequest: { number: pr.number, url: pr.url } }
  } catch (err) {
    const why = err instanceof UserError ? err.format() : (err as Error).message
    core.warning(`no pull request: ${oneLine(why)}`)
    return { commit: pushed.sha, prProblem: why }
  }
}

/** Links the issue and lists the handoff trail as it stands on the branch. */
async function pullRequestBody(s: Settings, sha: string, issue: Issue): Promise<string> {
  const objects = new GitObjects(s.workspace)
  const listing = await objects.listTree(sha, HANDOFF_DIR).finally(() => objects.close())
  const names = listing.entries
    .filter((e) => e.type === 'blob' && /^[A-Za-z0-9._-]+\.md$/.test(e.name))
    .map((e) => e.name)
    .sort(compareHandoffNames)
  const blob = `${s.serverUrl}/${s.repository.owner}/${s.repository.repo}/blob/${sha}`
  const trail = names.length
    ? names.map((n) => `- [\`${n}\`](${blob}/${HANDOFF_DIR}/${n})`).join('\n')
    : '_No deliverable yet._'
  return `Pipeline branch for #${issue.id}, run by itervox handoff-action.\n\n### Handoff trail\n\n${trail}\n`
}

/** Test suites shorten the API client's waits (backoff and write spacing) through this. */
function apiSecondMs(): number | undefined {
  const v = Number(process.env.ITERVOX_HANDOFF_API_SECOND_MS)
  return Number.isFinite(v) && v > 0 ? v : undefined
}
