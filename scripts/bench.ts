// Runs every test/bench/*.bench.ts in its own process (so peak memory is its own) and lets
// each print its figures. `npm run bench -- handoff` runs only the benches whose name matches.
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const dir = 'test/bench'
const filter = process.argv[2]
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') && (!filter || f.includes(filter)))
  .sort()
if (files.length === 0) {
  console.error(`no benchmark in ${dir} matches ${filter ?? '*'}`)
  process.exit(1)
}
let failed = 0
for (const file of files) {
  console.log(`\n## ${file}`)
  // Each bench makes its repositories and sandboxes in a temporary folder of its own, removed
  // when it ends, so that a run leaves nothing behind. The folder is sticky and open to all, as
  // /tmp is: the isolation bench's agent user works in it.
  const tmp = mkdtempSync(join(tmpdir(), 'itervox-bench.'))
  chmodSync(tmp, 0o1777)
  try {
    const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(dir, file)], {
      stdio: 'inherit',
      env: { ...process.env, TMPDIR: tmp }
    })
    if (r.status !== 0) failed++
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}
process.exit(failed ? 1 : 0)
