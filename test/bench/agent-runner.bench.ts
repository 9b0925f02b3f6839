// Costs of the agent runner: the /proc scan behind the CPU watchdog (runs every second for
// the whole agent run), reading a claude event stream, and runAgent's own overhead per run.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LineSplitter } from '../../src/agent/lines.js'
import { CpuMeter } from '../../src/agent/liveness.js'
import { ClaudeParser } from '../../src/agent/parse-claude.js'
import { groupProcesses } from '../../src/agent/process-group.js'
import { runAgent } from '../../src/agent/run.js'
import { FIXTURES } from '../agent/fake-agents.js'

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

function time(n: number, f: () => void): number {
  const samples: number[] = []
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint()
    f()
    samples.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  return median(samples)
}

const rows: [string, string][] = []
const processes = readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length
rows.push([
  `/proc scan for one group (${processes} processes on the machine)`,
  `${time(200, () => groupProcesses(process.pid)).toFixed(3)} ms`
])
const meter = new CpuMeter(() => groupProcesses(process.pid), Date.now())
rows.push([
  'CpuMeter.busy (one watchdog tick)',
  `${time(200, () => meter.busy(Date.now())).toFixed(3)} ms`
])

const event = JSON.stringify({
  type: 'assistant',
  message: { role: 'assistant', content: [{ type: 'text', text: 'x'.repeat(400) }] },
  session_id: 's'
})
const chunk = Buffer.from((event + '\n').repeat(2000))
const parser = new ClaudeParser()
const splitter = new LineSplitter((l) => parser.line(l))
const rounds = 25
const t0 = process.hrtime.bigint()
for (let i = 0; i < rounds; i++) splitter.push(chunk)
splitter.end()
parser.finish()
const secs = Number(process.hrtime.bigint() - t0) / 1e9
rows.push([
  'claude stream-json read (split + parse)',
  `${((chunk.length * rounds) / 1e6 / secs).toFixed(0)} MB/s`
])

async function runMedian(argv: string[], n: number): Promise<number> {
  const root = mkdtempSync(join(tmpdir(), 'agent-bench-'))
  mkdirSync(join(root, 'repo'))
  const samples: number[] = []
  for (let i = 0; i < n; i++) {
    const r = await runAgent({
      argv,
      cwd: join(root, 'repo'),
      prompt: 'bench',
      contract: {
        handoffPath: `h${i}.md`,
        runTimestamp: 't',
        profile: 'p',
        issue: '1',
        promptFile: join(root, 'prompt.md')
      },
      parentEnv: { PATH: process.env.PATH, ITERVOX_FAKE_AGENT_MODE: 'good' },
      logPath: join(root, 'agent.log'),
      stallTimeoutMs: 60_000,
      deadlineMs: 60_000,
      maxTurns: 5
    })
    if (r.outcome !== 'succeeded') throw new Error(`bench run ${r.outcome}: ${r.reason}`)
    samples.push(r.durationMs)
  }
  rmSync(root, { recursive: true, force: true })
  return median(samples)
}
rows.push([
  'runAgent, plain-text shell agent (median of 15)',
  `${await runMedian([join(FIXTURES, 'fake-generic.sh')], 15)} ms`
])
rows.push([
  'runAgent, fake claude on node (median of 10)',
  `${await runMedian([join(FIXTURES, 'fake-claude.mjs'), '-p', '--output-format', 'stream-json', '--verbose'], 10)} ms`
])

const width = Math.max(...rows.map(([k]) => k.length))
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`)
