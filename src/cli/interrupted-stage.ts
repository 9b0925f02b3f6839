import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { endGroup, groupAlive } from '../agent/process-group.js'
import { loadStageContext } from '../pipeline/stage/stage-context.js'
import { contextPathOf, finaliseStage } from '../pipeline/stage/stage.js'
import { jobSecrets } from '../secrets/job-secrets.js'
import { ensureRunsDir, RUNS_DIR } from '../tracker/local-record.js'
import { discardUncommitted } from './local-branch.js'

// While a local stage runs, `.itervox/runs/<id>.stage` names its private folder. A run killed
// outright (SIGKILL, a closed laptop) leaves it behind, and the next run finishes the job the
// post step does in CI, so nobody has to clean up by hand.

function pointerPath(root: string, id: string): string {
  return join(root, RUNS_DIR, `${id}.stage`)
}

export function markStageRunning(root: string, id: string, workDir: string): void {
  ensureRunsDir(root)
  writeFileSync(pointerPath(root, id), workDir)
}

export function markStageOver(root: string, id: string): void {
  rmSync(pointerPath(root, id), { force: true })
}

/**
 * Ends what an interrupted run left: its agent, if still alive, and its files, committed as
 * a partial (without the stage's key, so this run does the stage again with the partial among
 * its prior handoffs). Returns what was done, in words, or null when nothing was left.
 */
export async function finishInterruptedStage(root: string, id: string): Promise<string | null> {
  let workDir: string
  try {
    workDir = readFileSync(pointerPath(root, id), 'utf8').trim()
  } catch {
    return null
  }
  const ctx = loadStageContext(contextPathOf(workDir))
  let note = 'cleaned up after an interrupted run'
  if (ctx && ctx.stage.branch.repo === root && ctx.stage.issue.id === id) {
    if (ctx.agentPgid && groupAlive(ctx.agentPgid)) await endGroup(ctx.agentPgid, 2000)
    if (ctx.phase === undefined || ctx.phase === 'agent') {
      const done = await finaliseStage(
        { ...ctx, stage: { ...ctx.stage, key: undefined } },
        {
          outcome: 'cancelled',
          reason: 'the run was interrupted before the stage finished'
        },
        jobSecrets(ctx.stage.profile.env, process.env)
      )
      if (done.handoffPath) note = `saved the interrupted run's work as ${done.handoffPath}`
    }
    await discardUncommitted(root)
  }
  markStageOver(root, id)
  return note
}
