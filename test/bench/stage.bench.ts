// What a stage costs beyond the agent: the bundled action (dist/main) running a stage whose
// agent exits at once, beside a shell script doing the same git work (fetch, branch, commit,
// push), plus the API requests it makes; then the whole three-stage seed pipeline, job after
// job by dispatch, with instant agents. Needs a fresh `npm run build`.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { checkoutShallow, runAction } from '../harness/action-run.js'
import { drive } from '../e2e/drive.js'
import { startPipeline } from '../e2e/pipeline-fixture.js'

const RUNS = 7
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number
const instant = { command: 'generic-agent' }
const todo = (issue: number) => ({
  event: 'issues.labeled' as const,
  eventOptions: { issue, label: 'Todo', labels: ['Todo'], sender: 'ada', title: 'Add CSV export' }
})

// The same git work a stage does, as a plain script: the baseline the action is held to.
const BASELINE = `set -e
cd "$1"
git fetch --quiet --depth=100 origin main
git checkout --quiet -B itervox/1 origin/main
mkdir -p .itervox/handoff
printf '# Research\\n' > .itervox/handoff/x_researcher.md
git add .itervox/handoff/x_researcher.md
git -c user.name=bot -c user.email=bot@x commit --quiet -m stage
git push --quiet origin itervox/1
`

const stage: number[] = []
const baseline: number[] = []
let requests = 0
for (let i = 0; i < RUNS; i++) {
  const p = await startPipeline(instant)
  checkoutShallow(p.sb)
  const t0 = performance.now()
  const run = await runAction('main', p.sb, p.gh, todo(p.issue))
  stage.push(performance.now() - t0)
  if (run.outputs.outcome !== 'succeeded')
    throw new Error(`stage ${run.outputs.outcome}: ${run.stdout}`)
  requests = p.gh.requests.length
  await p.gh.stop()

  const q = await startPipeline(instant)
  checkoutShallow(q.sb)
  const script = join(q.sb.dir, 'baseline.sh')
  writeFileSync(script, BASELINE)
  const t1 = performance.now()
  execFileSync('sh', [script, q.sb.workspace])
  baseline.push(performance.now() - t1)
  await q.gh.stop()
}

const pipelineMs: number[] = []
let pipelineRequests = 0
let stages = 0
for (let i = 0; i < 3; i++) {
  const p = await startPipeline(instant)
  const t0 = performance.now()
  const runs = await drive(p, todo(p.issue))
  pipelineMs.push(performance.now() - t0)
  pipelineRequests = p.gh.requests.length
  stages = runs.filter((r) => r.outputs.outcome === 'succeeded').length
  await p.gh.stop()
}

const s = median(stage)
const b = median(baseline)
console.log('| measure | value |')
console.log('|---|---|')
console.log(`| stage, instant agent (dist/main), median of ${RUNS} | ${s.toFixed(0)} ms |`)
console.log(`| same git work as a shell script, median of ${RUNS} | ${b.toFixed(0)} ms |`)
console.log(`| ratio (target under 1.5x) | ${(s / b).toFixed(2)}x |`)
console.log(`| API requests, happy path (target at most 8) | ${requests} |`)
console.log(
  `| three-stage pipeline by dispatch, median of 3 | ${median(pipelineMs).toFixed(0)} ms (${stages} stages) |`
)
console.log(`| API requests, whole pipeline (target at most 30) | ${pipelineRequests} |`)
