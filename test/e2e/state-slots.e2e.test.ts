// agent.max_concurrent_agents_by_state through the bundled action: with one agent allowed in
// Todo and no repository-wide limit, a second issue's Todo stage waits (queued, labelled) while
// the first one's agent runs, a stage in another state runs meanwhile, and the end of the first
// Todo stage wakes the queued one.
import { afterEach, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { runAction, sharedDir, sharedFile, type RunOptions } from '../harness/action-run.js'
import { makeFifo } from '../helpers/fifo.js'
import { startPipeline, type Pipeline } from './pipeline-fixture.js'

let p: Pipeline | undefined
const stops: Array<() => void> = []
afterEach(async () => {
  for (const stop of stops.splice(0)) stop()
  await p?.gh.stop()
  p = undefined
})

/** The first agent run says it started (the `started` FIFO) and waits for a line on `go`. */
function gateAgent(dir: string): string {
  const script = join(dir, 'gate-agent.sh')
  writeFileSync(
    script,
    `#!/bin/sh
cat > /dev/null
n=$(cat ${dir}/count)
echo $((n + 1)) > ${dir}/count
if [ "$n" = 0 ]; then
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

it('holds a second stage in a state whose cap is reached, runs another state’s meanwhile, and wakes it when the first ends', async () => {
  const dir = sharedDir()
  writeFileSync(sharedFile(dir, 'count'), '0')
  stops.push(makeFifo(join(dir, 'started'), 120_000))
  execFileSync('mkfifo', ['-m', '0666', join(dir, 'go')])
  p = await startPipeline({
    command: gateAgent(dir),
    agent: 'max_concurrent_agents_by_state: { todo: 1 }'
  })
  const gh = p.gh
  const second = gh.addIssue({ title: 'PDF', body: 'And PDF.', labels: ['Todo'], author: 'ada' })
  const other = gh.addIssue({
    title: 'Docs',
    body: 'Docs.',
    labels: ['Researching'],
    author: 'ada'
  })
  const job = (run: number, o: RunOptions) => {
    gh.setRun(run, 'in_progress')
    const sb = { ...p!.sb, workspace: mkdtempSync(join(p!.sb.dir, `ws-${run}-`)) }
    return runAction('main', sb, gh, {
      ...o,
      inputs: { isolation: 'none', ...o.inputs },
      env: { GITHUB_RUN_ID: String(run), ...o.env }
    })
  }
  const labeled = (issue: number, label = 'Todo') => ({
    event: 'issues.labeled' as const,
    eventOptions: { issue, label, labels: [label], sender: 'ada', title: 'x' }
  })

  const first = job(4001, labeled(p.issue))
  expect(await readFile(join(dir, 'started'), 'utf8')).toBe('0\n')

  const queued = await job(4002, labeled(second))
  gh.setRun(4002, 'completed')
  expect(queued.outputs.outcome).toBe('skipped')
  expect(queued.stdout).toContain(
    'all 1 agent slot(s) of agent.max_concurrent_agents_by_state "todo" are taken'
  )
  expect(gh.labels(second)).toContain('itervox-queued')

  // Researching has no cap: its stage runs while Todo's one slot is held.
  const elsewhere = await job(4003, labeled(other, 'Researching'))
  gh.setRun(4003, 'completed')
  expect(elsewhere.outputs).toMatchObject({ outcome: 'succeeded', profile: 'implementer' })
  expect(gh.dispatches.map((d) => (d.clientPayload as { issue: string }).issue)).toEqual([
    String(other)
  ])

  await writeFile(join(dir, 'go'), 'go\n')
  const ran = await first
  gh.setRun(4001, 'completed')
  expect(ran.outputs).toMatchObject({ outcome: 'succeeded', profile: 'researcher' })
  expect(ran.stdout).toContain(`woke the queued stage of issue #${second}`)
  expect(gh.violations).toEqual([])
})
