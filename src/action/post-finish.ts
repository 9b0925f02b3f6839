import * as core from '@actions/core'
import { endGroup, groupAlive } from '../agent/process-group.js'
import { UserError } from '../errors.js'
import { defaultAgentUser } from '../isolation/agent-user.js'
import { takeBack } from '../isolation/agent-tree.js'
import { findPrivilege } from '../isolation/privilege.js'
import { endAgentUser, putBackLeftBehind } from '../isolation/sandbox.js'
import { RemoteWorkspace } from './remote-workspace.js'
import { HANDOFF_DIR, handoffPath, parseRunFileName } from '../handoff/index.js'
import {
  contextHandoffPath,
  loadStageContext,
  saveStageContext,
  type StageContext
} from '../pipeline/stage/stage-context.js'
import type { Tracker } from '../pipeline/ports.js'
import { noticeAttention, publishCommit } from '../pipeline/publish.js'
import { GitHubApi } from '../tracker/github-api.js'
import { GitHubTracker, sendWake } from '../tracker/github-tracker.js'
import { LinearApi, linearEndpoint } from '../tracker/linear-api.js'
import { LINEAR_KEY } from '../tracker/linear-key.js'
import { LinearTracker } from '../tracker/linear.js'
import type { IssueRecordStore } from '../tracker/repo-records.js'
import { sharedObjects } from '../git/objects.js'
import { loadWorkflowAt } from './workflow-source.js'
import { releaseRunSlot } from '../tracker/github-slots.js'
import { finaliseStage } from '../pipeline/stage/stage.js'
import { failureLine } from './failure-line.js'
import { booleanInput } from './inputs.js'
import { writeJobSummary } from './job-summary.js'
import { cellText } from '../pipeline/untrusted-text.js'
import { maskedSecrets } from './masked-secrets.js'
import { renderSummary, type StageReport } from './report.js'
import { ownFile } from './saved-context.js'

/**
 * The `post:` step, for a stage context that main.ts found unfinished. When the main step was
 * cancelled or timed out before its stage was published, this ends the agent's process group
 * if it still runs, commits the run's file as a partial (or a note saying what happened) and
 * pushes it, so a cancelled run loses nothing.
 */
export async function finishStage(path: string): Promise<void> {
  try {
    const token = core.getInput('github-token')
    if (token) core.setSecret(token)
    await finish(path)
  } catch (err) {
    core.setFailed(failureLine(err).line)
  }
  await releaseSlot()
}

/**
 * The agent slot (agent.max_concurrent_agents) the killed main step still holds, found by this
 * run's id in the environment, not in the agent-writable context; then the oldest queued stage
 * is woken. One request when the run holds none.
 */
async function releaseSlot(): Promise<void> {
  const id = process.env.GITHUB_RUN_ID
  if (!id) return
  const api = apiFromEnv(core.getInput('github-token'))
  try {
    await releaseRunSlot({
      refs: api.refs(),
      run: { id, attempt: process.env.GITHUB_RUN_ATTEMPT || '1' },
      wake: (issue, stage) => sendWake(api, issue, stage),
      log: (line) => core.info(line)
    })
  } catch (err) {
    core.warning(`the agent slot could not be given back: ${failureLine(err).line}`)
  }
}

/** The post step of a job whose stage finished in the main step, or never started. */
export async function afterFinishedStage(): Promise<void> {
  try {
    await putBackStore()
    core.info('the stage finished in the main step; nothing to do')
  } catch (err) {
    core.setFailed(failureLine(err).line)
  }
}

/** What a stage of an earlier job, killed with no post step, left with the agent user. */
async function putBackStore(): Promise<void> {
  if ((core.getInput('isolation') || 'user') !== 'user') return
  const line = await putBackLeftBehind(core.getInput('agent-user') || defaultAgentUser(process.env))
  if (line) core.warning(line)
}

async function finish(path: string): Promise<void> {
  const ctx = ownFile(path) ? loadStageContext(path) : null
  // This stage's own tree, still with the agent, is taken back below with what its context says.
  if (!(ctx && ctx.phase !== 'done' && ctx.sandbox?.inPlace && ctx.tree === undefined)) {
    await putBackStore()
  }
  if (!ctx || ctx.phase === 'done') {
    core.info('the stage finished in the main step; nothing to do')
    return
  }
  // The context file sits where the agent could have written it: only a narrow shape is
  // trusted, the branch may never be the default branch, and only the run's partial is
  // committed (no commit_paths, no files outside .git restored).
  const { stage } = ctx
  const { profile, branch } = stage
  const workspace = process.env.GITHUB_WORKSPACE
  const file = contextHandoffPath(ctx)
  const parsed = parseRunFileName(file.slice(HANDOFF_DIR.length + 1))
  if (
    !workspace ||
    branch.repo !== workspace ||
    !parsed ||
    file !== handoffPath(parsed.timestamp, parsed.profile) ||
    parsed.profile !== profile.name ||
    !/^[0-9a-f]{40,64}$/.test(branch.baseSha) ||
    !(/^[1-9]\d{0,9}$/.test(stage.issue.id) || LINEAR_KEY.test(stage.issue.id))
  ) {
    throw new UserError(
      'the stage context left by the main step is not one this action wrote; nothing was committed'
    )
  }
  const token = core.getInput('github-token')
  // The profile's secrets by name (the context holds names only), their values from here.
  const secrets = maskedSecrets(profile.env, token)
  const say = (body: string) => secrets.redact(body).text
  const api = apiFromEnv(token)
  const defaultBranch = (await api.getRepo()).defaultBranch
  if (branch.branch === defaultBranch) {
    throw new UserError(
      `the stage context names the default branch ${defaultBranch}; nothing was committed`
    )
  }
  // An isolated agent could not reach the context (the runner's private folder): how it ended
  // stands, and so do the profile's commit paths, so that work it finished before the job was
  // killed is committed as it ended. Otherwise only the run's file is committed, as a partial.
  const isolated = (core.getInput('isolation') || 'user') === 'user' && ctx.sandbox !== undefined
  const ended = ctx.phase === 'agent' && isolated ? ctx.ended : undefined
  const trusted: StageContext = {
    ...ctx,
    stage: { ...stage, profile: { ...profile, commitPaths: ended ? profile.commitPaths : [] } },
    snapshot: ctx.snapshot ? { ...ctx.snapshot, includes: {} } : undefined
  }

  const tell = async (body: string) => {
    const tracker = await trackerFor(api, workspace, defaultBranch, ctx.job.workflowPath)
    const issue = await tracker.getIssue(stage.issue.id)
    const run = `${process.env.GITHUB_RUN_ID ?? ''}.${process.env.GITHUB_RUN_ATTEMPT || '1'}`
    await noticeAttention(tracker, issue, `itervox:post:${run}`, body)
  }
  if (ctx.phase === 'published') {
    // The work is on the remote; only the pipeline's next step may be missing.
    saveStageContext(path, { ...ctx, phase: 'done' })
    await tell(
      say(
        `**The ${profile.name} stage's job ended before it carried out the pipeline's next step.** The stage's work is on \`${branch.branch}\`. Re-run the job to finish it; the agent will not run again.`
      )
    )
    return
  }
  if (ctx.sandbox) {
    // Everything of the agent user ends before its tree is taken back and read.
    const privilege = findPrivilege()
    const user = ctx.sandbox.user
    if (
      !privilege ||
      user.name !== (core.getInput('agent-user') || defaultAgentUser(process.env))
    ) {
      throw new UserError(
        `the stage context names agent user ${user.name}, which this job did not run its agent as; nothing was committed`
      )
    }
    await endAgentUser(user, privilege, 2000)
    if (ctx.tree === undefined) {
      const back = await takeBack(privilege, ctx.sandbox)
      if (back.warning) core.warning(back.warning)
      trusted.tree = back.tree
    }
  } else if (ctx.agentPgid && groupAlive(ctx.agentPgid)) {
    core.info(`ending the agent's process group ${ctx.agentPgid}`)
    await endGroup(ctx.agentPgid, 2000)
  }
  // A stage already judged and committed keeps its outcome: only its publishing was cut short.
  const judged = ctx.phase === 'committed' ? ctx.committed : undefined
  const reason = judged
    ? `the job ended after the stage ${judged.outcome === 'succeeded' ? 'finished' : 'ended'} (${judged.outcome}), before it was published`
    : ended
      ? `the job ended after the agent ${ended.outcome === 'succeeded' ? 'finished' : 'ended'} (${ended.outcome}), before its work was committed`
      : 'the job was cancelled or timed out before the stage finished'
  const done = judged
    ? {
        outcome: judged.outcome,
        commit: { sha: judged.sha, dropped: [] },
        handoffPath: judged.handoffPath,
        withheld: [] as string[],
        warnings: [] as string[]
      }
    : await finaliseStage(trusted, ended ?? { outcome: 'cancelled', reason }, secrets)
  let pushed: string | undefined
  let where = ''
  if (done.commit.sha) {
    const workspace = new RemoteWorkspace({
      repo: branch.repo,
      baseBranch: defaultBranch,
      auth: token
        ? { serverUrl: process.env.GITHUB_SERVER_URL || 'https://github.com', token }
        : undefined,
      // The step's inputs are the main step's: its commits are signed the same way.
      signer: booleanInput('sign-commits') ? api.commitSigner() : undefined
    })
    const published = await publishCommit(workspace, branch, done.commit.sha, stage.run, core.info)
    if ('failed' in published) {
      where = ` Its work could not be pushed (${published.failed}).`
    } else {
      pushed = published.commit
      const ref = published.rescuedTo ?? branch.branch
      core.info(`pushed ${pushed.slice(0, 12)} to ${ref}`)
      if (done.handoffPath) where = ` Its work is saved as \`${done.handoffPath}\` on \`${ref}\`.`
    }
  }
  saveStageContext(path, { ...ctx, phase: 'done' })
  // An unfinished stage must not look like a pipeline still at work.
  const again =
    done.outcome === 'succeeded'
      ? "Re-run the job to finish the pipeline's next step; the agent will not run again."
      : 'Re-run the job to go on: the stage is retried as agent.max_retries allows, or escalated when its retries are spent.'
  const withheld = done.withheld.length
    ? `\n\n**Secrets withheld:** ${done.withheld.map((w) => cellText(w, 200)).join('; ')}. Rotate them if they are real.`
    : ''
  await tell(
    say(`**The ${profile.name} stage did not finish:** ${reason}.${where} ${again}${withheld}`)
  )
  const summary = secrets.redactDeep<StageReport>({
    outcome: done.outcome,
    reason,
    issue: stage.issue.id,
    profile: profile.name,
    branch: branch.branch,
    commit: pushed,
    handoffPath: done.handoffPath ?? undefined,
    refused: done.commit.dropped.map((d) => `${d.path}: ${d.reason}`),
    withheld: done.withheld,
    warnings: done.warnings
  }).value
  await writeJobSummary(renderSummary(summary))
}

/** The post step neither reads nor writes the record: it only says what became of the stage. */
const NO_RECORDS: IssueRecordStore = {
  load: () => Promise.resolve(null),
  save: () => Promise.resolve()
}

/**
 * The tracker the main step told the issue through: GitHub's, or Linear's for a Linear
 * WORKFLOW.md. WORKFLOW.md comes from the default branch as the main step fetched it (never from
 * the context, which names the issue only).
 */
async function trackerFor(
  api: GitHubApi,
  workspace: string,
  defaultBranch: string,
  workflowPath: string
): Promise<Tracker> {
  const trusted = await sharedObjects(workspace).resolve(`refs/remotes/origin/${defaultBranch}`)
  if (!trusted) throw new UserError(`the default branch ${defaultBranch} was not fetched`)
  const { config } = await loadWorkflowAt(workspace, trusted, workflowPath, process.env)
  const [owner = '', repo = ''] = (process.env.GITHUB_REPOSITORY ?? '').split('/')
  const runId = process.env.GITHUB_RUN_ID ?? ''
  const serverUrl = process.env.GITHUB_SERVER_URL || 'https://github.com'
  const port = new GitHubTracker({
    api,
    records: NO_RECORDS,
    config,
    owner,
    repo,
    serverUrl,
    runId,
    runUrl: `${serverUrl}/${owner}/${repo}/actions/runs/${runId}`,
    chain: 'dispatch'
  })
  if (config.tracker.kind !== 'linear') return port
  return LinearTracker.create({
    api: new LinearApi({ apiKey: config.tracker.apiKey ?? '', url: linearEndpoint(process.env) }),
    config,
    records: NO_RECORDS,
    github: { port, api }
  })
}

function apiFromEnv(token: string): GitHubApi {
  const [owner = '', repo = ''] = (process.env.GITHUB_REPOSITORY ?? '').split('/')
  return new GitHubApi({
    token,
    apiUrl: process.env.GITHUB_API_URL || 'https://api.github.com',
    owner,
    repo,
    states: []
  })
}
