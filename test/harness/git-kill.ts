// A kill point inside a stage: a `git` first on PATH that kills the action (SIGKILL, as a lost
// runner or an OOM kill would) when it starts building the stage's commit, read-tree into its
// private index: after the agent, before the commit. Every other git runs as usual.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'

/** PATH for the action: the killing git first. */
export function killAtCommit(rest: string): string {
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
  const dir = mkdtempSync(join(tmpdir(), 'git-kill-'))
  writeFileSync(
    join(dir, 'git'),
    `#!/bin/sh
case "$GIT_INDEX_FILE" in
  *index.handoff-*)
    for a in "$@"; do
      if [ "$a" = read-tree ]; then kill -KILL "$PPID"; exit 1; fi
    done ;;
esac
exec '${real}' "$@"
`
  )
  chmodSync(join(dir, 'git'), 0o755)
  // Not writable: the action passes over a git in a folder it could write (git.ts).
  chmodSync(dir, 0o555)
  return `${dir}:${rest}`
}
