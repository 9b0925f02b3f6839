// Wall time of `itervox-handoff demo` as a user runs it (the bundled CLI, a fresh repository,
// three stages with the scripted agent), and of the crash-and-recover variant (four stages).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/cli/index.js')
const RUNS = 5

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

function demoSeconds(args: string[]): { median: number; min: number; max: number } {
  const samples: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'demo-bench-'))
    const t = process.hrtime.bigint()
    execFileSync(process.execPath, [CLI, 'demo', '--dir', join(dir, 'repo'), ...args], {
      stdio: 'ignore'
    })
    samples.push(Number(process.hrtime.bigint() - t) / 1e9)
    rmSync(dir, { recursive: true, force: true })
  }
  return { median: median(samples), min: Math.min(...samples), max: Math.max(...samples) }
}

const rows: [string, ReturnType<typeof demoSeconds>][] = [
  ['demo (3 stages)', demoSeconds([])],
  ['demo --fail-at implementer (4 stages)', demoSeconds(['--fail-at', 'implementer'])]
]
const width = Math.max(...rows.map(([k]) => k.length))
console.log(`${`wall time (${RUNS} runs each)`.padEnd(width)}  median   min      max`)
for (const [k, s] of rows) {
  const f = (x: number) => `${x.toFixed(2)} s`.padEnd(9)
  console.log(`${k.padEnd(width)}  ${f(s.median)}${f(s.min)}${f(s.max)}`.trimEnd())
}
