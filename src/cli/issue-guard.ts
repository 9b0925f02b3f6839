import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { readCappedFile } from '../files/read-capped.js'
import { gitBytes } from '../git/git.js'
import { LOCAL_ISSUE_MAX_BYTES, LOCAL_ISSUES_DIR, localIssuePath } from '../tracker/local.js'
import { ensureRunsDir, savedIssuePath } from '../tracker/local-record.js'

/**
 * Runs a stage with the issue file as the stage's base commit has it (or absent, when the base
 * does not hold it), then puts the tracker's copy back. The agent cannot edit the issue's state
 * through the file, a stage commit never carries the tracker's changes, and the reset that
 * follows a stage commit cannot undo a state move. The tracker's copy waits in `.itervox/runs/`
 * meanwhile, so an interrupted run loses nothing (see recoverIssueFile).
 */
export async function withIssueFileSetAside<T>(
  root: string,
  id: string,
  baseSha: string,
  stage: () => Promise<T>
): Promise<T> {
  const path = localIssuePath(root, id)
  const saved = savedIssuePath(root, id)
  ensureRunsDir(root)
  writeFileSync(saved, readCappedFile(path, LOCAL_ISSUE_MAX_BYTES, `${LOCAL_ISSUES_DIR}/${id}.md`))
  const base = await gitBytes(
    root,
    ['cat-file', 'blob', `${baseSha}:${LOCAL_ISSUES_DIR}/${id}.md`],
    {
      okCodes: [128]
    }
  )
  if (base.code === 0) writeFileSync(path, base.stdout)
  else rmSync(path, { force: true })
  try {
    return await stage()
  } finally {
    putBack(saved, path)
  }
}

/** Puts back an issue file a killed run left set aside; true when there was one. */
export function recoverIssueFile(root: string, id: string): boolean {
  const path = localIssuePath(root, id)
  const saved = savedIssuePath(root, id)
  if (!existsSync(saved)) return false
  putBack(saved, path)
  return true
}

function putBack(saved: string, path: string): void {
  // The agent may have removed the whole folder.
  mkdirSync(dirname(path), { recursive: true })
  renameSync(saved, path)
}
