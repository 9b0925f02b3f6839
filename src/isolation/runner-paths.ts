import { chmod } from 'node:fs/promises'
import path from 'node:path'
import { UserError } from '../errors.js'
import { lstatOrNull } from '../git/lstat.js'

// Never closed, whatever a path names: every user needs these.
const SHARED = new Set([
  '/',
  '/home',
  '/tmp',
  '/var',
  '/var/tmp',
  '/opt',
  '/usr',
  '/etc',
  '/srv',
  '/mnt'
])

/**
 * Makes the runner's own folders unreachable to other users (the agent user is "other" to
 * them: it shares no group with the runner): the runner's HOME (its credentials, the
 * `_actions` folder on hosted runners), the workspace's folder (the checkout and its persisted
 * token), RUNNER_TEMP (the file-command files, the stage's work folder) and the runner's
 * installation. Each loses its "other" permission bits; a folder that is already closed is
 * left alone, one that is not ours to close stops the stage.
 */
export async function closeToOthers(dirs: readonly string[]): Promise<string[]> {
  const closed: string[] = []
  const root = process.getuid?.() === 0
  for (const dir of new Set(dirs.filter((d) => path.isAbsolute(d)).map((d) => path.resolve(d)))) {
    if (SHARED.has(dir)) continue
    const st = await lstatOrNull(dir)
    if (!st?.isDirectory() || (st.mode & 0o007) === 0) continue
    if (!root && st.uid !== process.getuid?.()) {
      throw new UserError(
        `${dir} is open to other users and not the runner's to close, so the agent user could read it; close it (chmod o-rwx) before the stage or set isolation: none`
      )
    }
    await chmod(dir, st.mode & 0o7770)
    closed.push(dir)
  }
  return closed
}

/** The runner's installation folder, when this node is the runner's own (`externals/`). */
export function runnerInstallation(execPath: string): string | undefined {
  const at = execPath.split(path.sep).lastIndexOf('externals')
  return at > 1 ? execPath.split(path.sep).slice(0, at).join(path.sep) : undefined
}
