import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const SCRIPT = new URL('../../scripts/checkout-reachable.sh', import.meta.url).pathname

describe('npm test says when the isolated agent user cannot reach the checkout', () => {
  it('names the folder closed to other users, and says nothing once it is open', () => {
    const top = mkdtempSync(join(tmpdir(), 'reach-'))
    chmodSync(top, 0o755)
    const home = join(top, 'home', 'dev')
    const checkout = join(home, 'handoff-action')
    mkdirSync(checkout, { recursive: true })
    chmodSync(home, 0o750)
    const closed = spawnSync('bash', [SCRIPT, checkout], { encoding: 'utf8' })
    expect(closed.status).toBe(1)
    expect(closed.stdout).toBe(
      `note: ${home} (mode 750) is closed to other users, so the isolated agent user cannot reach this checkout and the isolation tests will fail; clone it under a folder others may enter, or run: chmod o+x ${home}\n`
    )
    chmodSync(home, 0o751)
    const open = spawnSync('bash', [SCRIPT, checkout], { encoding: 'utf8' })
    expect([open.status, open.stdout]).toEqual([0, ''])
  })
})
