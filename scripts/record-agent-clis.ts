// Records what the real agent CLIs do in the contract suite's scenarios: for each CLI (all, or
// those named) and scenario, it plays the scenario's model replies to the pinned CLI, run by
// the stage's own runner, and stores the replies, stdout, stderr, exit and the requests seen
// under test/fixtures/agent-clis/<cli>/<scenario>/. The suite and the parser tests read them.
// Usage: node --import tsx scripts/record-agent-clis.ts [claude|codex|gemini ...] [scenario ...]
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { installedCli, PINNED, type CliName } from '../test/contract/agent-clis.js'
import { runScenario } from '../test/contract/run-scenario.js'
import { BUDGET_USD, repliesFor, scenariosFor } from '../test/contract/scenarios.js'

const FIXTURES = join(import.meta.dirname, '..', 'test', 'fixtures', 'agent-clis')
const args = process.argv.slice(2)
const named = args.filter((a) => a in PINNED) as CliName[]
const clis = named.length ? named : (Object.keys(PINNED) as CliName[])
const only = args.filter((a) => !(a in PINNED))

for (const cli of clis) {
  const binDir = await installedCli(cli)
  for (const scenario of scenariosFor(cli)) {
    if (only.length && !only.includes(scenario)) continue
    const replies = repliesFor(cli, scenario)
    const budget = BUDGET_USD[scenario]
    const run = await runScenario({
      cli,
      binDir,
      replies,
      recordStderr: true,
      ...(budget !== undefined ? { maxBudgetUsd: budget } : {})
    })
    const dir = join(FIXTURES, cli, scenario)
    mkdirSync(dir, { recursive: true })
    const { result } = run
    writeFileSync(join(dir, 'replies.json'), JSON.stringify(replies, null, 2) + '\n')
    writeFileSync(join(dir, 'stdout.jsonl'), run.normalise(run.log))
    writeFileSync(join(dir, 'stderr.txt'), run.normalise(run.stderr ?? ''))
    const recorded = {
      cli: `${PINNED[cli].pkg}@${PINNED[cli].version}`,
      ...(budget !== undefined ? { maxBudgetUsd: budget } : {}),
      exitCode: result.exitCode,
      signal: result.signal,
      requests: run.seen,
      deliverableWritten: run.deliverable !== null
    }
    writeFileSync(join(dir, 'run.json'), JSON.stringify(recorded, null, 2) + '\n')
    console.log(`${cli} ${scenario}: ${result.outcome} (${result.reason}), ${result.durationMs} ms`)
  }
}
