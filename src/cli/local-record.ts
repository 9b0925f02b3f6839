import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { UserError } from '../errors.js'
import type { PlanInput } from '../pipeline/plan.js'
import { emptyRecord, type IssueRecord } from '../pipeline/record.js'

/**
 * The local runner's memory of an issue, beside the issue file: the record the action keeps in
 * the issue's status comment, and the step the pipeline asked for next (what the action sends
 * in its repository_dispatch). Like that comment it is tracker-side state, not branch content:
 * the folder ignores itself, so no stage commit and no `git status` ever shows it.
 */
export const RUNS_DIR = '.itervox/runs'

/** A same-state step the next `run` takes (a retry, a review, a rework) in `state`. */
export interface LocalContinuation {
  state: string
  step: NonNullable<PlanInput['trigger']['continuation']>
}

export interface LocalRun {
  record: IssueRecord
  continuation?: LocalContinuation
}

function runPath(root: string, id: string): string {
  return join(root, RUNS_DIR, `${id}.json`)
}

/** The issue file as it was before a stage, kept until the stage is over (see issue-guard.ts). */
export function savedIssuePath(root: string, id: string): string {
  return join(root, RUNS_DIR, `${id}.issue.md`)
}

export function ensureRunsDir(root: string): void {
  const dir = join(root, RUNS_DIR)
  mkdirSync(dir, { recursive: true })
  const ignore = join(dir, '.gitignore')
  if (!existsSync(ignore))
    writeFileSync(ignore, '# Written by itervox-handoff: local run state.\n*\n')
}

export function readLocalRun(root: string, id: string): LocalRun {
  const path = runPath(root, id)
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return { record: emptyRecord() }
  }
  const bad = () =>
    new UserError(
      `${RUNS_DIR}/${id}.json is not a record itervox-handoff wrote; delete it to start the issue's pipeline afresh`
    )
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw bad()
  }
  if (!isLocalRun(value)) throw bad()
  return value
}

export function writeLocalRun(root: string, id: string, run: LocalRun): void {
  ensureRunsDir(root)
  const path = runPath(root, id)
  const tmp = `${path}.tmp-${process.pid}`
  writeFileSync(tmp, JSON.stringify(run, null, 2) + '\n')
  renameSync(tmp, path)
}

function isLocalRun(v: unknown): v is LocalRun {
  if (typeof v !== 'object' || v === null) return false
  const r = (v as { record?: unknown }).record as Partial<IssueRecord> | undefined
  const counts = [r?.entry, r?.transitions, r?.round]
  return (
    typeof r === 'object' &&
    r !== null &&
    r.v === 1 &&
    (r.state === null || typeof r.state === 'string') &&
    counts.every((n) => Number.isInteger(n) && (n as number) >= 0) &&
    Array.isArray(r.stages)
  )
}
