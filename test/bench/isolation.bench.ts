// What running the agent as a second Unix user costs a stage, part by part, on a repository
// of 1,000 files: finding (or the first time, creating) the agent user, handing it its clone
// and HOME, the model proxy's start, starting the agent through the user boundary, ending
// every process of the user and taking the tree back, and committing from that tree instead
// of the action's own. Then whole stages of the bundled action with isolation user and none,
// side by side in one run. Needs root (as CI is) and a fresh `npm run build`.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setUpModelAccess } from '../../src/agent/model-access.js'
import { runAgent } from '../../src/agent/run.js'
import { commitAllowed } from '../../src/git/commit.js'
import { ensureAgentUser } from '../../src/isolation/agent-user.js'
import { openSandbox, startIsolation } from '../../src/isolation/sandbox.js'
import { findPrivilege } from '../../src/isolation/privilege.js'
import { gitSync } from '../helpers/git-repo.js'
import { firstStage, median } from './stage-run.js'

const RUNS = 9
const USER = 'itervox-bench'

if (process.getuid?.() !== 0) throw new Error('the isolation bench creates users: run it as root')
const privilege = findPrivilege()
if (!privilege) throw new Error('no root')

// The action's repository: 1,000 files in 20 folders, on branch itervox/1.
const root = mkdtempSync(join(tmpdir(), 'isolation-bench-'))
const repo = join(root, 'repo')
mkdirSync(repo)
gitSync(repo, 'init', '--quiet', '--initial-branch=itervox/1')
for (let i = 0; i < 1000; i++) {
  mkdirSync(join(repo, `d${i % 20}`), { recursive: true })
  writeFileSync(join(repo, `d${i % 20}`, `f${i}.ts`), `export const v${i} = ${i}\n`.repeat(20))
}
gitSync(repo, 'add', '-A')
gitSync(repo, 'commit', '--quiet', '-m', 'seed')
const base = gitSync(repo, 'rev-parse', 'HEAD')

// The first time on a runner the user does not exist yet.
const created: number[] = []
for (let i = 0; i < 3; i++) {
  const name = `itervox-bench-new${i}`
  const t0 = performance.now()
  await ensureAgentUser(name, privilege)
  created.push(performance.now() - t0)
  execFileSync('/usr/sbin/userdel', ['-r', name], { stdio: 'ignore' })
}

const phases = {
  start: [] as number[],
  handOver: [] as number[],
  proxy: [] as number[],
  agentAsUser: [] as number[],
  agentAsUs: [] as number[],
  close: [] as number[],
  commitFromTree: [] as number[],
  commitInPlace: [] as number[]
}
const instant = ['/bin/true']
const contract = (dir: string) => ({
  handoffPath: '.itervox/handoff/x_researcher.md',
  runTimestamp: 'x',
  profile: 'researcher',
  issue: '#1',
  promptFile: join(dir, 'prompt.md')
})
const agentRun = (cwd: string, dir: string) => ({
  argv: instant,
  cwd,
  prompt: 'go',
  contract: contract(dir),
  parentEnv: process.env,
  logPath: join(dir, 'agent.log'),
  stallTimeoutMs: 0,
  deadlineMs: 0,
  maxTurns: 1
})

for (let i = 0; i < RUNS; i++) {
  const work = mkdtempSync(join(root, 'work-'))
  let t = performance.now()
  const iso = await startIsolation({ user: USER, protect: [work] })
  phases.start.push(performance.now() - t)

  t = performance.now()
  const access = await setUpModelAccess('claude', { ANTHROPIC_API_KEY: 'sk-bench' })
  phases.proxy.push(performance.now() - t)
  if (!access || 'missing' in access) throw new Error('no model access')

  t = performance.now()
  const open = await openSandbox(iso, {
    repo,
    branch: 'itervox/1',
    baseSha: gitSync(repo, 'rev-parse', 'HEAD'),
    workDir: work,
    homeFiles: [{ path: '.itervox/prompt.md', content: 'go' }, ...access.files],
    model: { set: access.env, unset: access.hidden }
  })
  phases.handOver.push(performance.now() - t)

  t = performance.now()
  await runAgent({ ...agentRun(open.handedOver.tree, work), sandbox: open.sandbox })
  phases.agentAsUser.push(performance.now() - t)
  t = performance.now()
  await runAgent(agentRun(repo, work))
  phases.agentAsUs.push(performance.now() - t)

  t = performance.now()
  const { tree } = await open.close(1000)
  await access.proxy.close()
  phases.close.push(performance.now() - t)
  if (!tree) throw new Error('the tree did not come back')

  mkdirSync(join(tree, '.itervox/handoff'), { recursive: true })
  writeFileSync(join(tree, '.itervox/handoff/x_researcher.md'), '# Research\n')
  mkdirSync(join(repo, '.itervox/handoff'), { recursive: true })
  writeFileSync(join(repo, '.itervox/handoff/x_researcher.md'), '# Research\n')
  const commit = (workTree?: string) =>
    commitAllowed({
      repo,
      ...(workTree ? { workTree } : {}),
      branch: 'itervox/1',
      baseSha: base,
      deliverablePaths: ['.itervox/handoff/x_researcher.md'],
      allowGlobs: ['d1/**'],
      forbiddenGlobs: [],
      message: 'stage',
      trailers: []
    })
  t = performance.now()
  await commit(tree)
  phases.commitFromTree.push(performance.now() - t)
  gitSync(repo, 'reset', '--quiet', '--hard', base)
  mkdirSync(join(repo, '.itervox/handoff'), { recursive: true })
  writeFileSync(join(repo, '.itervox/handoff/x_researcher.md'), '# Research\n')
  t = performance.now()
  await commit()
  phases.commitInPlace.push(performance.now() - t)
  gitSync(repo, 'reset', '--quiet', '--hard', base)
  rmSync(work, { recursive: true, force: true })
}

// Whole stages, through the runner's real clock, user and none interleaved.
const stage = { user: [] as number[], none: [] as number[] }
for (let i = 0; i < 5; i++) {
  for (const isolation of ['user', 'none'] as const) {
    const { p, ms } = await firstStage({ isolation, 'agent-user': USER })
    stage[isolation].push(ms)
    await p.gh.stop()
  }
}
rmSync(root, { recursive: true, force: true })

const m = Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, median(v)])) as Record<
  keyof typeof phases,
  number
>
// A job runs one stage, so the job's start counts too; creating the user is once per runner.
const cost =
  m.start +
  m.handOver +
  m.proxy +
  (m.agentAsUser - m.agentAsUs) +
  m.close +
  (m.commitFromTree - m.commitInPlace)
const row = (what: string, ms: number) => console.log(`| ${what} | ${ms.toFixed(1)} ms |`)
console.log(`| isolation, 1,000-file repository, median of ${RUNS} | value |`)
console.log('|---|---|')
row('agent user created (first stage on a runner only), median of 3', median(created))
row('job start: user found, runner folders closed, leftovers ended', m.start)
row(
  'hand-over: the checkout handed over in place (a clone where it cannot be), HOME, chown',
  m.handOver
)
row('model proxy started', m.proxy)
row('instant agent as the agent user', m.agentAsUser)
row('instant agent as the runner user (for comparison)', m.agentAsUs)
row('every agent process ended, tree taken back, HOME and /tmp cleared', m.close)
row('commit from the taken-back tree', m.commitFromTree)
row('commit in place (for comparison)', m.commitInPlace)
row('isolation cost per stage (target under 300 ms)', cost)
row('stage, instant agent (dist/index.js), isolation user, median of 5', median(stage.user))
row('stage, instant agent (dist/index.js), isolation none, median of 5', median(stage.none))
