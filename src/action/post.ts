import * as core from '@actions/core'
import { endGroup, groupAlive } from '../agent/process-group.js'
import { UserError } from '../errors.js'
import { pushWithRetry } from '../git/push.js'
import { HANDOFF_DIR, handoffPath, parseRunFileName } from '../handoff/index.js'
import { loadStageContext, saveStageContext, type StageContext } from '../pipeline/stage-context.js'
import { NEEDS_ATTENTION_LABEL } from '../pipeline/names.js'
import { GitHubTracker } from '../tracker/github.js'
import { finaliseStage } from '../pipeline/stage.js'
import { renderSummary } from './report.js'
import { CONTEXT_STATE } from './stage-job.js'

/**
 * The `post:` step. When the main step was cancelled or timed out before its stage was
 * published, this ends the agent's process group if it still runs, commits the run's file as a
 * partial (or a note saying what happened) and pushes it, so a cancelled run loses nothing.
 */
async function post(): Promise<void> {
  const path = core.getState(CONTEXT_STATE)
  const ctx = path ? loadStageContext(path) : null
  if (!ctx || ctx.finished) {
    core.info('the stage finished in the main step; nothing to do')
    return
  }
  // The context file sits where the agent could have written it: only a narrow shape is
  // trusted, the branch may never be the default branch, and only the run's partial is
  // committed (no commit_paths, no files outside .git restored).
  const workspace = process.env.GITHUB_WORKSPACE
  const parsed = parseRunFileName(ctx.handoffPath.slice(HANDOFF_DIR.length + 1))
  if (
    !workspace ||
    ctx.repo !== workspace ||
    !parsed ||
    ctx.handoffPath !== handoffPath(parsed.timestamp, parsed.profile) ||
    parsed.profile !== ctx.profile ||
    !/^[0-9a-f]{40,64}$/.test(ctx.baseSha) ||
    !/^[1-9]\d{0,9}$/.test(ctx.issue)
  ) {
    throw new UserError(
      'the stage context left by the main step is not one this action wrote; nothing was committed'
    )
  }
  const tracker = trackerFromEnv(core.getInput('github-token'))
  const defaultBranch = (await tracker.getRepo()).defaultBranch
  if (ctx.branch === defaultBranch) {
    throw new UserError(
      `the stage context names the default branch ${defaultBranch}; nothing was committed`
    )
  }
  const trusted: StageContext = {
    ...ctx,
    commitPaths: [],
    snapshot: ctx.snapshot ? { ...ctx.snapshot, includes: {} } : undefined
  }

  if (ctx.agentPgid && groupAlive(ctx.agentPgid)) {
    core.info(`ending the agent's process group ${ctx.agentPgid}`)
    await endGroup(ctx.agentPgid, 2000)
  }
  const reason = 'the job was cancelled or timed out before the stage finished'
  const done = await finaliseStage(trusted, { outcome: 'cancelled', reason })
  let pushed: string | undefined
  if (done.commit.sha) {
    const token = core.getInput('github-token')
    const result = await pushWithRetry({
      repo: ctx.repo,
      branch: ctx.branch,
      sha: done.commit.sha,
      baseSha: ctx.baseSha,
      created: ctx.created,
      auth: token
        ? { serverUrl: process.env.GITHUB_SERVER_URL || 'https://github.com', token }
        : undefined
    })
    pushed = result.sha
    core.info(`pushed the partial to ${ctx.branch} at ${pushed.slice(0, 12)}`)
  }
  saveStageContext(path, { ...ctx, finished: true })
  // A cancelled or timed-out stage must not look like a pipeline still at work.
  const where = done.handoffPath
    ? ` Its work is saved as \`${done.handoffPath}\` on \`${ctx.branch}\`.`
    : ''
  await tracker.addLabels(Number(ctx.issue), [NEEDS_ATTENTION_LABEL])
  await tracker.comment(
    Number(ctx.issue),
    `**The ${ctx.profile} stage did not finish:** ${reason}.${where} Move the issue back into its state to run the stage again.`
  )
  await core.summary
    .addRaw(
      renderSummary({
        outcome: 'cancelled',
        reason,
        issue: ctx.issue,
        profile: ctx.profile,
        branch: ctx.branch,
        commit: pushed,
        handoffPath: done.handoffPath ?? undefined,
        refused: done.commit.dropped.map((d) => `${d.path}: ${d.reason}`),
        warnings: done.warnings
      })
    )
    .write()
}

function trackerFromEnv(token: string): GitHubTracker {
  const [owner = '', repo = ''] = (process.env.GITHUB_REPOSITORY ?? '').split('/')
  return new GitHubTracker({
    token,
    apiUrl: process.env.GITHUB_API_URL || 'https://api.github.com',
    owner,
    repo,
    states: []
  })
}

try {
  const token = core.getInput('github-token')
  if (token) core.setSecret(token)
  await post()
} catch (err) {
  core.setFailed(
    err instanceof UserError ? err.format() : `internal error: ${(err as Error)?.message}`
  )
}
