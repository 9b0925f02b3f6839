import { findAutomation } from '../config/load.js'
import { messageOf } from '../errors.js'
import { carryOut } from './settle/apply.js'
import { describe, effectsOf } from './settle/effects.js'
import { withAutomations } from './triggers/automation-wakes.js'
import { withAnswer } from './triggers/auto-resume.js'
import type { Ending, Job, JobResult } from './job-values.js'
import { noticeMovedMeanwhile } from './decision/moved-meanwhile.js'
import { NEEDS_ATTENTION_LABEL } from './names.js'
import { noticeUnrecorded } from './notices.js'
import type { Published } from './ports.js'
import { publishCommit, unpublishedReason, unsavedBlock } from './publish.js'
import { haltOnEffects, type IssueRecord } from './record/record.js'
import type { Ran } from './run.js'
import { settleStage } from './settle/settle.js'
import { loadStageContext, saveStageContext } from './stage/stage-context.js'
import { stageEnding } from './stage-run.js'
import { oneLine } from './untrusted-text.js'

/**
 * The last phase: the stage's commit published, the pull request, the decision (settle), the
 * record of intent, then its effects. Intent before effects: if the record cannot be written,
 * nothing is carried out (a re-run finds the stage's commit and decides again).
 */
export async function advance(job: Job, ran: Ran): Promise<Ending> {
  const { stage, record, result, contextPath } = ran
  const { issue, plan } = stage
  const state = stage.key.state
  const branch = stage.branch.branch
  const markPhase = phaseMarker(contextPath)
  let published: Published | null = ran.landed ? { commit: ran.landed.sha } : null
  if (!ran.landed && result.commit.sha) {
    job.log?.(
      `the stage ended ${result.outcome}; publishing ${result.commit.sha.slice(0, 12)} to ${branch}`
    )
    published = await publishCommit(
      job.workspace,
      stage.branch,
      result.commit.sha,
      stage.run,
      job.log
    )
  }
  markPhase('published')

  const commit = published && 'commit' in published ? published.commit : undefined
  const rescuedTo = published && 'commit' in published ? published.rescuedTo : undefined
  const unpublished = unpublishedReason(published, branch, plan.profile)
  const unsaved =
    published && 'failed' in published && result.handoffPath && result.commit.sha
      ? await unsavedText(job, result.commit.sha, result.handoffPath)
      : undefined
  const warnings = [...result.warnings]
  if (published && 'notice' in published && published.notice) warnings.push(published.notice)

  let pullRequest: JobResult['pullRequest']
  if (commit && !rescuedTo && !issue.isPullRequest) {
    const pr = await job.tracker.publish(issue, {
      ...{ branch, baseBranch: stage.branch.baseBranch, commit, created: stage.branch.created },
      known: record.pullRequest
    })
    pullRequest = pr.pullRequest
    if (pullRequest && !pullRequest.node && pullRequest.number === record.pullRequest) {
      const node = record.pullRequestNode
      if (node) pullRequest = { ...pullRequest, node }
    }
    if (pr.problem) warnings.push(`no pull request: ${pr.problem}`)
  }

  const settled = await settleStage({
    readCommitted: (c, p, max) => job.workspace.readCommitted(c, p, max),
    ...{ config: job.config, automation: stage.automation, state, plan, record, result },
    ...{ commit: commit ?? null, run: stage.run, runUrl: stage.runUrl, startedAt: stage.startedAt },
    ...{ timestamp: stage.timestamp, unpublished, rescuedTo }
  })
  const { next } = settled
  const path = result.handoffPath
  const deliverable =
    result.outcome === 'succeeded' && commit && path && !unpublished ? { commit, path } : undefined
  const decided = effectsOf({
    ...{ next, state, entry: settled.record.entry, step: settled.record.continuation?.step },
    ...{ profile: plan.profile, run: stage.run, wakes: job.tracker.wakes },
    startsStage: (s) => findAutomation(job.config, s) !== undefined,
    requests: deliverable ? settled.requests : undefined,
    deliverable,
    pullRequest,
    completionState: job.config.tracker.completionState,
    replied: plan.reply !== undefined,
    runLine: job.tracker.runLine(branch) + unsavedBlock(unsaved),
    replyHint: job.tracker.replyHint(issue)
  })
  const answered = withAnswer(
    settled.record,
    withAutomations(decided, {
      ...{ config: job.config, kind: plan.kind, next, state, entry: plan.entry },
      failed: ['failed', 'stalled', 'timed_out', 'rate_limited'].includes(result.outcome),
      wakes: job.tracker.wakes
    }),
    { config: job.config, plan, deliverable, wakes: job.tracker.wakes }
  )
  const effects = answered.effects
  const intent: IssueRecord = {
    ...answered.record,
    owed: { run: stage.run, effects },
    pullRequest: pullRequest?.number ?? settled.record.pullRequest,
    pullRequestNode: pullRequest?.node ?? settled.record.pullRequestNode
  }
  let summary = describe(next)
  const done: Ending = {
    ...stageEnding(stage),
    outcome: result.outcome,
    reason: result.reason,
    ...{ commit, handoffPath: result.handoffPath ?? undefined, rescuedTo, pullRequest, unsaved },
    ...{ figures: ran.figures, agentStats: result.agent?.stats, cost: result.cost },
    resultText: result.agent?.resultText,
    ...{ next, requests: settled.requests, refused: settled.refused, warnings }
  }

  try {
    await job.tracker.saveRecord(issue, intent)
  } catch (err) {
    const why = oneLine(messageOf(err))
    const notice = await noticeUnrecorded(job, issue, why, branch)
    markPhase('done')
    return {
      ...done,
      summary: `${summary}; not carried out, because the record could not be written`,
      record: settled.record,
      stateAfter: issue.state,
      failure: `the pipeline's record could not be written (${why}); ${notice}re-run the job to continue`
    }
  }

  try {
    const carried = await carryOut({
      ...{ tracker: job.tracker, workspace: job.workspace, issue, effects, resendWakes: true },
      maxFileBytes: job.config.handoff.maxFileBytes
    })
    if (next.kind === 'move' && carried.state !== next.to) {
      const moved = { profile: plan.profile, entry: plan.entry, to: next.to, now: carried.state }
      summary += await noticeMovedMeanwhile(job.tracker, issue, moved)
    }
    markPhase('done')
    return { ...done, summary, record: intent, stateAfter: carried.state, failure: unpublished }
  } catch (err) {
    const halted = `the next step (${summary}) failed: ${oneLine(messageOf(err))}`
    // The record still says what is owed; a re-run or the next event carries it out.
    await job.tracker.setFlag(issue, NEEDS_ATTENTION_LABEL, true).catch(() => undefined)
    const haltedRecord = haltOnEffects(intent, halted)
    await job.tracker.saveRecord(issue, haltedRecord).catch(() => undefined)
    markPhase('done')
    return {
      ...done,
      summary: `${summary}; halted`,
      record: haltedRecord,
      stateAfter: issue.state,
      failure: `${halted}; re-run the job to finish it`
    }
  }
}

async function unsavedText(
  job: Job,
  commit: string,
  path: string
): Promise<{ path: string; text: string } | undefined> {
  const text = await job.workspace.readCommitted(commit, path, job.config.handoff.maxFileBytes)
  return text === null ? undefined : { path, text }
}

/**
 * Tells whoever finishes an interrupted job (the post step) how far this one got; the stage's
 * saved context is read once.
 */
function phaseMarker(contextPath: string | undefined): (phase: 'published' | 'done') => void {
  const ctx = contextPath ? loadStageContext(contextPath) : null
  return (phase) => {
    if (contextPath && ctx) saveStageContext(contextPath, { ...ctx, phase })
  }
}
