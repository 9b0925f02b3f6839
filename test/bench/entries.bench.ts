// How soon the action's two steps get going, as the runner starts them (`node dist/index.js`):
// the post step on a stage the main step finished (every job runs it; it has nothing to do),
// and the main step from its start to its first log line, each beside `node -e 0`, the least
// a node step costs. Runs alternate, so a machine that slows down slows all three alike; all
// three get this process's environment (a NODE_EXTRA_CA_CERTS, say, costs each start the same),
// without NODE_OPTIONS. Needs a fresh `npm run build`.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkoutShallow, ROOT, runAction } from '../harness/action-run.js'
import { makeEvent, writeEvent } from '../harness/events.js'
import { startPipeline } from '../e2e/pipeline-fixture.js'

const RUNS = 15
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number
const base = { ...process.env }
delete base.NODE_OPTIONS

/** Milliseconds from spawning `node args` to its exit, or to its first line when `firstLine`. */
function timed(args: string[], env: NodeJS.ProcessEnv, firstLine = false): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let at: number | undefined
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      if (firstLine && at === undefined && out.includes('\n')) {
        at = performance.now() - t0
        child.kill('SIGKILL')
      }
    })
    child.stderr.resume()
    child.on('error', reject)
    child.on('close', (code) => {
      const ms = firstLine ? at : performance.now() - t0
      if (ms === undefined || (!firstLine && code !== 0)) {
        reject(new Error(`node ${args.join(' ')} ended ${code} before doing its part: ${out}`))
      } else resolve(ms)
    })
  })
}

// A real stage, run to its end by the main step: its saved state is the clean stage the post
// step is measured on.
const p = await startPipeline({ command: 'generic-agent' })
checkoutShallow(p.sb)
const run = await runAction('main', p.sb, p.gh, {
  event: 'issues.labeled',
  eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada' }
})
await p.gh.stop()
if (run.outputs.outcome !== 'succeeded' || !run.state.context) {
  throw new Error(`the stage ${run.outputs.outcome}, saving no context: ${run.stdout}`)
}
const postEnv = {
  ...base,
  ...Object.fromEntries(Object.entries(run.state).map(([k, v]) => [`STATE_${k}`, v]))
}
const action = [join(ROOT, 'dist', 'index.js')]

// The main step as a label event starts it; only its first line is waited for.
const dir = mkdtempSync(join(tmpdir(), 'entries-bench-'))
const files = Object.fromEntries(
  ['GITHUB_OUTPUT', 'GITHUB_STATE', 'GITHUB_STEP_SUMMARY'].map((name) => {
    const file = join(dir, name)
    writeFileSync(file, '')
    return [name, file]
  })
)
mkdirSync(join(dir, 'workspace'))
const mainEnv = {
  ...base,
  GITHUB_ACTIONS: 'true',
  GITHUB_EVENT_NAME: 'issues',
  GITHUB_EVENT_PATH: writeEvent(
    dir,
    makeEvent('issues.labeled', { owner: 'o', repo: 'r', issue: 7, label: 'Todo' })
  ),
  GITHUB_REPOSITORY: 'o/r',
  GITHUB_WORKSPACE: join(dir, 'workspace'),
  GITHUB_RUN_ID: '1001',
  GITHUB_RUN_ATTEMPT: '1',
  RUNNER_TEMP: dir,
  'INPUT_GITHUB-TOKEN': 'ghs_bench',
  ...files
}

const bare: number[] = []
const postMs: number[] = []
const mainMs: number[] = []
for (let i = 0; i < RUNS + 1; i++) {
  const b = await timed(['-e', '0'], base)
  const q = await timed(action, postEnv)
  const m = await timed(action, mainEnv, true)
  // The first round warms the file cache.
  if (i === 0) continue
  bare.push(b)
  postMs.push(q)
  mainMs.push(m)
}

const b = median(bare)
const q = median(postMs)
const m = median(mainMs)
console.log(`| measure, median of ${RUNS} | value | ratio to node -e 0 |`)
console.log('|---|---|---|')
console.log(`| \`node -e 0\` | ${b.toFixed(0)} ms | 1.00x |`)
console.log(`| post step, clean stage | ${q.toFixed(0)} ms | ${(q / b).toFixed(2)}x |`)
console.log(`| main step, start to first log line | ${m.toFixed(0)} ms | ${(m / b).toFixed(2)}x |`)
