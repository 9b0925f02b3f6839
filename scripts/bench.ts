// Runs every test/bench/*.bench.ts in its own process (so peak memory is its own) and lets
// each print its figures. `npm run bench -- handoff` runs only the benches whose name matches.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
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
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(dir, file)], {
    stdio: 'inherit'
  })
  if (r.status !== 0) failed++
}
process.exit(failed ? 1 : 0)
