import * as core from '@actions/core'
import { jobTrigger } from './event.js'
import { failureLine } from './failure-line.js'
import { maskedSecrets } from './masked-secrets.js'
import { readSettings, tokensOf } from './inputs.js'
import { publishReport } from './outputs.js'
import { isUnfinished } from '../pipeline/record/outcome.js'
import { oneLine } from '../pipeline/untrusted-text.js'
import { closedIssue, readEvent } from './event.js'
import { runReconcileJob } from './reconcile-job.js'
import { runStageJob } from './stage-job.js'
import { startLine } from './start-line.js'

/** The main step: the stage (or the reconcile), its report and outputs. */
export async function mainStep(): Promise<void> {
  // The job's log says at once what starts, before any secret is known to mask.
  core.info(startLine(process.env, jobTrigger(process.env)))
  const controller = new AbortController()
  // On cancel the runner sends SIGINT, then SIGTERM 7.5 s later, to this process only: the
  // agent's process group is ended here and its work saved (the post step finishes the rest).
  const onSignal = (signal: string) => {
    if (controller.signal.aborted) return
    core.warning(`received ${signal}: ending the agent and saving its work as a partial`)
    controller.abort()
  }
  process.on('SIGINT', () => onSignal('SIGINT'))
  process.on('SIGTERM', () => onSignal('SIGTERM'))

  try {
    // Before anything could print them.
    for (const value of tokensOf()) core.setSecret(value)
    const settings = readSettings()
    if (settings.mode === 'reconcile') return await runReconcileJob(settings)
    const closed = closedIssue(settings.eventName, readEvent(settings.eventPath))
    if (closed !== undefined) return await runReconcileJob(settings, closed)
    const report = await runStageJob(settings, controller.signal)
    core.info(`outcome: ${report.outcome}${report.reason ? ` (${oneLine(report.reason)})` : ''}`)
    await publishReport(report)
    if (isUnfinished(report.outcome)) {
      core.setFailed(`stage ${report.outcome}: ${oneLine(report.reason)}`)
    } else if (report.failure) {
      core.setFailed(oneLine(report.failure))
    }
  } catch (err) {
    // The runner's masks cover known values; a key recognised by its shape needs the scanner.
    const secrets = maskedSecrets([], core.getInput('github-token'))
    const failure = failureLine(err)
    const message = secrets.redact(oneLine(failure.line)).text
    if (failure.ours) core.debug(secrets.redact((err as Error)?.stack ?? String(err)).text)
    await publishReport({
      outcome: 'failed',
      reason: message,
      refused: [],
      withheld: [],
      warnings: []
    }).catch(() => {})
    core.setFailed(message)
  }
}
