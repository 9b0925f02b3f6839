// agent.max_concurrent_agents: 1 through the bundled action, four jobs of two issues, each job in
// its own workspace as on GitHub: #2's stage waits (queued, labelled) while #1's agent runs; the
// end of #1's stage wakes it and the woken job runs its agent, and is killed there (SIGKILL, no
// post step); once GitHub says that run completed, #1's next stage takes the slot over.
import { afterEach, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { runAction, sharedDir, sharedFile, type RunOptions } from '../harness/action-run.js'
import { makeFifo } from '../helpers/fifo.js'
import { wakeUp } from './drive.js'
import { startPipeline, type Pipeline } from './pipeline-fixture.js'

let p: Pipeline | undefined
const stops: Array<() => void> = []
afterEach(async () => {
  for (const stop of stops.splice(0)) stop()
  await p?.gh.stop()
  p = undefined
})

/**
 * An agent that counts its runs; run n, when `<dir>/hold.<n>` exists, says so on stdout, then
 * writes n to the `started` FIFO and waits for a line on the `go` FIFO before it delivers.
 */
function gateAgent(dir: string): string {
  const script = join(dir, 'gate-agent.sh')
  writeFileSync(
    script,
    `#!/bin/sh
cat > /dev/null
n=$(cat ${dir}/count)
echo $((n + 1)) > ${dir}/count
if [ -e ${dir}/hold.$n ]; then
  echo "agent run $n waits at the gate"
  echo $n > ${dir}/started
  read line < ${dir}/go
fi
mkdir -p "$(dirname "$ITERVOX_HANDOFF_PATH")"
printf '# Run %s\\n' "$n" > "$ITERVOX_HANDOFF_PATH"
echo "agent run $n delivered"
`,
    { mode: 0o755 }
  )
  return script
}

it('queues a stage while the one slot is held, wakes it when the holder ends, and takes back a killed run’s slot', async () => {
  const dir = sharedDir()
  writeFileSync(sharedFile(dir, 'count'), '0')
  for (const n of [0, 1]) writeFileSync(join(dir, `hold.${n}`), '')
  // A watchdog ends a wait on `started` that no agent will answer (a failed assertion, no hang).
  stops.push(makeFifo(join(dir, 'started'), 120_000))
  execFileSync('mkfifo', ['-m', '0666', join(dir, 'go')])
  p = await startPipeline({
    command: gateAgent(dir),
    agent: 'max_concurrent_agents: 1'
  })
  const gh = p.gh
  const second = gh.addIssue({
    title: 'Add PDF export',
    body: 'And PDF.',
    labels: ['Todo'],
    author: 'ada'
  })
  const job = (run: number, o: RunOptions) => {
    gh.setRun(run, 'in_progress')
    const sb = { ...p!.sb, workspace: mkdtempSync(join(p!.sb.dir, `ws-${run}-`)) }
    return runAction('main', sb, gh, {
      ...o,
      inputs: { isolation: 'none', 'show-agent-output': 'true', ...o.inputs },
      env: { GITHUB_RUN_ID: String(run), ...o.env }
    })
  }
  const labeled = (issue: number) => ({
    event: 'issues.labeled' as const,
    eventOptions: { issue, label: 'Todo', labels: ['Todo'], sender: 'ada', title: 'x' }
  })

  // #1 takes the slot; its agent waits at the gate.
  const first = job(3001, labeled(p.issue))
  expect(await readFile(join(dir, 'started'), 'utf8')).toBe('0\n')

  // #2 finds it held by a run GitHub says is in progress: queued, visibly, no agent.
  const queued = await job(3002, labeled(second))
  gh.setRun(3002, 'completed')
  expect(queued.outputs.outcome).toBe('skipped')
  expect(queued.stdout).toMatch(/all 1 agent slot\(s\) of agent.max_concurrent_agents are taken/)
  expect(gh.labels(second)).toContain('itervox-queued')
  expect(gh.dispatches).toEqual([])

  // #1's stage ends: its own wake-up (the next stage) and the queued #2's.
  await writeFile(join(dir, 'go'), 'go\n')
  const ran = await first
  gh.setRun(3001, 'completed')
  expect(ran.outputs).toMatchObject({ outcome: 'succeeded', profile: 'researcher' })
  expect(ran.stdout).toContain('woke the queued stage of issue #2')
  const wakes = gh.dispatches.map((d) => (d.clientPayload as { issue: string }).issue)
  expect(wakes.sort()).toEqual(['1', '2'])
  const wakeOf = (issue: number) =>
    wakeUp(
      gh.dispatches.find((d) => (d.clientPayload as { issue: string }).issue === String(issue))!
    )

  // The woken job takes the slot, drops the label and runs #2's agent, and is killed there.
  const killed = await job(3003, {
    ...wakeOf(second),
    interrupt: { when: /agent run 1 waits at the gate/, signal: 'SIGKILL' }
  })
  expect(killed.signal).toBe('SIGKILL')
  expect(gh.labels(second)).not.toContain('itervox-queued')
  // Its agent outlived it, as on a runner whose job died; let it end.
  expect(await readFile(join(dir, 'started'), 'utf8')).toBe('1\n')
  await writeFile(join(dir, 'go'), 'go\n')

  // No post step gave the slot back; GitHub ends the run, and the next job takes it over.
  gh.setRun(3003, 'completed')
  const next = await job(3004, wakeOf(p.issue))
  expect(next.stdout).toContain('agent slot slots/1: run 3003 has ended without giving it back')
  expect(next.outputs).toMatchObject({ outcome: 'succeeded', profile: 'implementer' })
  expect(next.stdout).toContain('agent run 2 delivered')
  expect(gh.violations).toEqual([])
})
