import { mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { writeWhole } from '../files/write-whole.js'
import type { GitDirSnapshot } from '../git/guard.js'
import type { StageKey } from '../git/trailers.js'
import type { StageOutcome } from './outcome.js'

/**
 * What a stage must remember so that whoever finishes it (the main step, or the `post:` step
 * after a cancellation) can commit the deliverable or its partial. Plain JSON on disk, in the
 * runner's temp folder, which the agent's working tree does not contain.
 */
export interface StageContext {
  repo: string
  branch: string
  baseSha: string
  /** The branch was new on the remote when the stage began. */
  created: boolean
  issue: string
  profile: string
  runId: string
  timestamp: string
  handoffPath: string
  requiredSections: string[]
  maxFileBytes: number
  commitPaths: string[]
  /** Repo-relative WORKFLOW.md, never committed by a stage. */
  workflowPath: string
  startedAt: string
  /** `.git` as it was before the agent ran; holds the persisted credential, if any. */
  snapshot?: GitDirSnapshot
  /** Which stage of which issue this is; its commit carries it as trailers. */
  key?: StageKey
  /** The agent's process group, once it runs. */
  agentPgid?: number
  /**
   * How far the stage got: the agent may be running (or killed) in `agent`; in `committed` its
   * end is judged and committed (`committed` says how), so whoever finishes it only publishes
   * that commit; in `published` the work is safe but the pipeline's next step may not have
   * been carried out; in `done` the job saw it through.
   */
  phase?: 'agent' | 'committed' | 'published' | 'done'
  committed?: {
    sha: string | null
    outcome: StageOutcome
    reason: string
    handoffPath: string | null
  }
}

export function saveStageContext(path: string, ctx: StageContext): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  writeWhole(path, JSON.stringify(ctx), { mode: 0o600 })
}

export function loadStageContext(path: string): StageContext | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as StageContext
  } catch {
    return null
  }
}
