// A folder for the end-to-end sandboxes on the file system of the agent users' homes (/home),
// whatever TMPDIR is (a tmpfs under `npm test`): there the action hands an isolated agent the
// checkout's own files, as on a runner, rather than a clone. Workers find it in
// ITERVOX_E2E_DIR; global-teardown.js removes it.
import { chmodSync, mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'

export default function setup() {
  if (process.env.ITERVOX_E2E_DIR) return
  const home = statSync('/home').dev
  if (statSync(tmpdir()).dev === home) return
  const dir = mkdtempSync('/var/lib/itervox-e2e-')
  if (statSync(dir).dev !== home) throw new Error('/var/lib is not on the file system of /home')
  chmodSync(dir, 0o755)
  process.env.ITERVOX_E2E_DIR = dir
  process.env.ITERVOX_E2E_DIR_MADE = '1'
}
