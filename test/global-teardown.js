// Removes the sandboxes' folder global-setup.js made.
import { rmSync } from 'node:fs'

export default function teardown() {
  if (process.env.ITERVOX_E2E_DIR_MADE !== '1' || !process.env.ITERVOX_E2E_DIR) return
  rmSync(process.env.ITERVOX_E2E_DIR, { recursive: true, force: true })
}
