import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { UserError } from '../errors.js'
import { writeWhole } from '../files/write-whole.js'
import { emptyRecord, parseRecord, type IssueRecord } from '../pipeline/record/record.js'

/**
 * The local runner's memory of an issue, beside the issue file: the record the action keeps in
 * the issue's status comment. Like that comment it is tracker-side state, not branch content:
 * the folder ignores itself, so no stage commit and no `git status` ever shows it.
 */
export const RUNS_DIR = '.itervox/runs'

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

export function readLocalRecord(root: string, id: string): IssueRecord {
  let text: string
  try {
    text = readFileSync(runPath(root, id), 'utf8')
  } catch {
    return emptyRecord()
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    value = undefined
  }
  const record = parseRecord((value as { record?: unknown } | undefined)?.record)
  if (!record) {
    throw new UserError(
      `${RUNS_DIR}/${id}.json is not a record itervox-handoff wrote; delete it to start the issue's pipeline afresh`
    )
  }
  return record
}

export function writeLocalRecord(root: string, id: string, record: IssueRecord): void {
  ensureRunsDir(root)
  writeWhole(runPath(root, id), JSON.stringify({ record }, null, 2) + '\n')
}
