// What a stage costs beyond the agent: the bundled action (dist/index.js) running an issue's first
// stage with an agent that only reads the prompt and writes a deliverable, beside a minimal
// Node script (built-ins only) doing the same fetch, commit, push and API requests; the git it
// starts; what isolating the agent costs; and the API requests of whole pipelines, three and
// ten stages, job after job by dispatch; and the same first stage run by the action as it was
// committed before the redesign of issue 33 (BENCH_VS names another commit). Needs root
// (isolation: user, the default) and a fresh `npm run build`.
import { execFile, execFileSync } from 'node:child_process'
import { promisify } from 'node:util'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { drive } from '../e2e/drive.js'
import { startPipeline, type PipelineOptions } from '../e2e/pipeline-fixture.js'
import type { RecordedRequest } from '../harness/fake-github.js'
import { gitCounter, isNetworkOp } from '../harness/git-count.js'
import { checkoutShallow } from '../harness/action-run.js'
import { firstStage, INSTANT_AGENT, laterStage, median, todo } from './stage-run.js'

const RUNS = 9

// The commit before the redesign (issue 33 asks for at most 1.3x its time), or BENCH_VS.
const VS = process.env.BENCH_VS || '775a770'

/**
 * The action (action.yml and the dist/ it names) as committed at `commit`, in a temporary
 * folder: dist/ is committed, so it runs as it was shipped, without building anything.
 */
function actionAt(commit: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'action-at-'))
  const archive = execFileSync('git', ['archive', commit, 'action.yml', 'dist'], {
    maxBuffer: 1 << 30
  })
  execFileSync('tar', ['-x', '-C', dir], { input: archive })
  return dir
}

/** Lines of src/ at `commit`, or in this checkout (with files not yet added) without one. */
function sourceLines(commit?: string): number {
  const args = commit ? ['-e', '', commit] : ['--untracked', '-e', '']
  const counts = execFileSync('git', ['grep', '-c', ...args, '--', 'src'], { encoding: 'utf8' })
  return counts
    .split('\n')
    .filter(Boolean)
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(':') + 1)), 0)
}

const before = actionAt(VS)
const lines = { now: sourceLines(), before: sourceLines(VS) }

// The same work as a stage, as plainly as Node does it: git through child_process, then the
// stage's API requests, one after another, through fetch, as the stage sends them.
const BASELINE = `import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
const [ws, api, list] = process.argv.slice(2)
const git = (...a) => execFileSync('git', a, { cwd: ws, stdio: ['ignore', 'pipe', 'pipe'] })
git('ls-remote', '--heads', 'origin', 'refs/heads/main', 'refs/heads/itervox/1')
git('fetch', '--quiet', '--depth=100', 'origin', '+refs/heads/main:refs/remotes/origin/main')
git('checkout', '--quiet', '-B', 'itervox/1', 'origin/main')
mkdirSync(ws + '/.itervox/handoff', { recursive: true })
writeFileSync(ws + '/.itervox/handoff/x_researcher.md', '# Research\\n')
git('add', '.itervox/handoff/x_researcher.md')
git('-c', 'user.name=bot', '-c', 'user.email=bot@x', 'commit', '--quiet', '-m', 'stage')
git('push', '--quiet', 'origin', 'itervox/1')
for (const r of JSON.parse(readFileSync(list, 'utf8'))) {
  const url = api + r.path + (r.query ? '?' + new URLSearchParams(r.query) : '')
  const headers = { authorization: 'Bearer ghs_test_token', 'content-type': 'application/json' }
  const body = r.body === undefined ? undefined : JSON.stringify(r.body)
  await (await fetch(url, { method: r.method, headers, body })).arrayBuffer()
}
`

const replayable = (rs: RecordedRequest[]) =>
  rs.map((r) => ({
    method: r.method,
    path: r.path,
    ...(Object.keys(r.query).length ? { query: r.query } : {}),
    ...(r.body === undefined || r.body === null || r.body === '' ? {} : { body: r.body })
  }))

const ms = {
  user: [] as number[],
  none: [] as number[],
  generic: [] as number[],
  baseline: [] as number[],
  fetch: [] as number[],
  // Side by side, without the git counter: this checkout's stage and VS's.
  now: [] as number[],
  before: [] as number[]
}
const counts = { first: [] as string[][], later: [] as string[][] }
const requests = { first: 0, later: 0 }
for (let i = 0; i < RUNS; i++) {
  const counter = gitCounter()
  const path = (p: { sb: { agentsBin: string } }) => ({
    PATH: counter.path(`${p.sb.agentsBin}:${process.env.PATH}`)
  })
  const first = await firstStage({}, path)
  ms.user.push(first.ms)
  counts.first = counter.take()
  const asked = replayable(first.p.gh.requests)
  requests.first = asked.length
  await laterStage(first.p, path(first.p))
  counts.later = counter.take()
  requests.later = first.p.gh.requests.length - asked.length
  await first.p.gh.stop()

  const none = await firstStage({ isolation: 'none' })
  ms.none.push(none.ms)
  await none.p.gh.stop()
  const generic = await firstStage({ isolation: 'none' }, () => ({}), 'generic-agent')
  ms.generic.push(generic.ms)
  await generic.p.gh.stop()

  const here = await firstStage()
  ms.now.push(here.ms)
  await here.p.gh.stop()
  const there = await firstStage({}, undefined, INSTANT_AGENT, before)
  ms.before.push(there.ms)
  await there.p.gh.stop()

  ms.baseline.push(await baseline(BASELINE, asked))
}

/** The wall time of one baseline script doing a first stage's git work and `asked`. */
async function baseline(text: string, asked: ReturnType<typeof replayable>): Promise<number> {
  const q = await startPipeline({ command: INSTANT_AGENT })
  checkoutShallow(q.sb)
  const script = join(q.sb.dir, 'baseline.mjs')
  const list = join(q.sb.dir, 'requests.json')
  writeFileSync(script, text)
  writeFileSync(list, JSON.stringify(asked))
  const t0 = performance.now()
  // Not synchronous: the fake GitHub answers from this process.
  await promisify(execFile)(process.execPath, [script, q.sb.workspace, q.gh.url, list])
  const took = performance.now() - t0
  await q.gh.stop()
  return took
}

/** The API requests of a whole pipeline, driven job after job by its dispatches. */
async function pipelineRequests(o: PipelineOptions): Promise<{ requests: number; stages: number }> {
  const p = await startPipeline({ command: INSTANT_AGENT, ...o })
  const runs = await drive(p, todo(p.issue), {}, 14)
  await p.gh.stop()
  return {
    requests: p.gh.requests.length,
    stages: runs.filter((r) => r.outputs.outcome === 'succeeded').length
  }
}

// Ten stages: states S1..S10 after Todo, each entered state starting the next profile.
function tenStages(): PipelineOptions {
  const n = 10
  const states = ['Todo', ...Array.from({ length: n }, (_, i) => `S${i + 1}`)]
  const files: Record<string, string> = {}
  const profiles: string[] = []
  const automations: string[] = []
  for (let i = 1; i <= n; i++) {
    files[`.itervox/agents/p${i}/SOUL.md`] = `# p${i}\n\nYou are stage ${i}.\n`
    files[`.itervox/agents/p${i}/INSTRUCTIONS.md`] =
      `# p${i}\n\n## Handoff Protocol\n- Write your deliverable to \`{{ run.handoff_path }}\`.\n`
    profiles.push(
      `    p${i}:\n      soul_file: .itervox/agents/p${i}/SOUL.md\n      instructions_file: .itervox/agents/p${i}/INSTRUCTIONS.md\n      allowed_actions: ["move_state", "comment"]`
    )
    automations.push(
      `  - id: stage${i}\n    trigger: { type: issue_entered_state, state: ${states[i - 1]} }\n    profile: p${i}\n    policy: { move_to_state: ${states[i]} }`
    )
  }
  files['WORKFLOW.md'] = `---
itervox_schema_version: 2
tracker:
  kind: github
  active_states: [${states.map((s) => `"${s}"`).join(', ')}]
  completion_state: "Done"
  failed_state: "Won't Do"
agent:
  command: ${INSTANT_AGENT}
  max_retries: 1
  profiles:
${profiles.join('\n')}
automations:
${automations.join('\n')}
---

Work on issue {{ issue.identifier }}: {{ issue.title }}.
`
  return { files }
}

const three = await pipelineRequests({})
const ten = await pipelineRequests(tenStages())

const u = median(ms.user)
const b = median(ms.baseline)
const net = (calls: string[][]) => calls.filter(isNetworkOp).length
console.log('| measure | value |')
console.log('|---|---|')
console.log(
  `| first stage, instant agent (dist/index.js, isolation user), median of ${RUNS} | ${u.toFixed(0)} ms |`
)
console.log(
  `| the same fetch, commit, push and requests as a Node script, median of ${RUNS} | ${b.toFixed(0)} ms |`
)
const n = median(ms.none)
const [now, then] = [median(ms.now), median(ms.before)]
console.log(
  `| first stage, instant agent, this checkout / at ${VS} (isolation user, no git counter), median of ${RUNS} | ${now.toFixed(0)} ms / ${then.toFixed(0)} ms |`
)
console.log(`| ratio to ${VS} (target at most 1.3x) | ${(now / then).toFixed(2)}x |`)
console.log(`| lines of src/, this checkout / at ${VS} | ${lines.now} / ${lines.before} |`)
console.log(`| ratio to the script, isolation user (target at most 2x) | ${(u / b).toFixed(2)}x |`)
console.log(`| ratio to the script, isolation none | ${(n / b).toFixed(2)}x |`)
console.log(
  `| the same stage with isolation none, median of ${RUNS} | ${median(ms.none).toFixed(0)} ms |`
)
console.log(
  `| agent isolation's cost (user minus none; parts: isolation.bench.ts) | ${(u - median(ms.none)).toFixed(0)} ms |`
)
console.log(
  `| the same stage with isolation none and fake-generic's agent (five processes; the agent of benches before), median of ${RUNS} | ${median(ms.generic).toFixed(0)} ms |`
)
console.log(
  `| git processes, first stage / later stage (target at most 19) | ${counts.first.length} / ${counts.later.length} |`
)
console.log(
  `| git network operations, first / later (target at most 3) | ${net(counts.first)} / ${net(counts.later)} |`
)
console.log(
  `| API requests, first stage (target at most 8) / later stage (at most 6) | ${requests.first} / ${requests.later} |`
)
console.log(
  `| API requests, three-stage pipeline, ${three.stages} stages (target at most 19) | ${three.requests} |`
)
console.log(
  `| API requests, ten-stage pipeline, ${ten.stages} stages (target at most 61) | ${ten.requests} |`
)
