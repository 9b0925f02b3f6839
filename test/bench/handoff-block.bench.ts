// Building the Prior Agent Handoffs block from real repositories with 10, 1,000, 10,000 and
// 100,000 committed handoffs. Up to 10,000 every handoff is ~10.5 KB (over 100 MB of blobs);
// at 100,000 only the newest NEWEST_FULL are, the older ones ~100 B, to keep the repository
// near 60 MB on disk instead of 1 GB. That hides nothing: only the newest that fit the budget
// are read, while the tree listing is full size (100,000 names, a 5.8 MB tree object that git
// must inflate, read and index whole). Each case runs in its own process so its peak RSS is its
// own; repositories are made with `git fast-import` in /tmp before any timing. The CLI
// (`itervox-handoff prompt` from dist/, a real process) is timed at 10 and 100,000 handoffs
// too, with all of them on the branch. Prints median time, peak RSS and the 100,000-vs-10
// ratios.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { GitObjects } from '../../src/git/objects.js'
import { DEFAULT_BLOCK_OPTIONS, buildHandoffBlock } from '../../src/handoff/block.js'
import { TempRepo, git, type FileSpec } from '../helpers/git-repo.js'

const CASES = [10, 1_000, 10_000, 100_000]
// Each case runs in ROUNDS fresh processes, interleaved with the other cases so that load
// from elsewhere on the machine touches all of them alike; each process times RUNS builds.
const ROUNDS = 3
const RUNS = 7
const FILE_BYTES = 10_500
const SMALL_BYTES = 100
const NEWEST_FULL = 64
const CLI_RUNS = 7
// The bench runner starts node with --expose-gc: collecting between runs keeps one run's garbage
// out of the next run's peak.
const gc = (globalThis as { gc?: () => void }).gc

interface ChildReport {
  times: number[]
  maxRssMb: number
  blockBytes: number
  shown: number
  blobsRead: number
}

// Varied words from a fixed-seed generator, so blobs neither repeat nor delta against each
// other and the pack really holds the history's bytes.
function* handoffs(count: number): Generator<FileSpec> {
  const words = [
    'retry',
    'timeout',
    'branch',
    'handoff',
    'review',
    'test',
    'queue',
    'lock',
    'agent'
  ]
  let seed = 42
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
  const start = Date.UTC(2026, 0, 1)
  for (let i = 0; i < count; i++) {
    const ts = new Date(start + i * 60_000).toISOString().replace(/:/g, '-')
    const bytes = count > 10_000 && i < count - NEWEST_FULL ? SMALL_BYTES : FILE_BYTES
    let text = `# Handoff ${i}\n\n`
    while (text.length < bytes - 20) text += `${words[next() % words.length]}${next() % 1000} `
    yield {
      path: `.itervox/handoff/${ts}_p${i % 4}.md`,
      data: `${text.slice(0, bytes - 1)}\n`
    }
  }
}

async function child(repoDir: string, commit: string): Promise<void> {
  const times: number[] = []
  let last = { blockBytes: 0, shown: 0, blobsRead: 0 }
  for (let run = 0; run <= RUNS; run++) {
    let blobsRead = 0
    const git = new (class extends GitObjects {
      override readBlobs(oids: string[]) {
        blobsRead += oids.length
        return super.readBlobs(oids)
      }
    })(repoDir)
    gc?.()
    const t0 = performance.now()
    const block = await buildHandoffBlock(git, { head: commit, since: null }, DEFAULT_BLOCK_OPTIONS)
    await git.close()
    const ms = performance.now() - t0
    if (run > 0) times.push(ms) // run 0 warms up the JIT
    last = { blockBytes: block.bytes, shown: block.included.length, blobsRead }
  }
  const report: ChildReport = { times, maxRssMb: process.resourceUsage().maxRSS / 1024, ...last }
  process.stdout.write(JSON.stringify(report))
}

function runChild(args: string[]): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const p = spawn(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), ...args],
      { stdio: ['ignore', 'pipe', 'inherit'] }
    )
    let out = ''
    p.stdout.on('data', (d: Buffer) => (out += d.toString()))
    p.on('error', reject)
    p.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as ChildReport)
        : reject(new Error(`bench child exit ${code}`))
    )
  })
}

const CLI = fileURLToPath(new URL('../../dist/cli/index.js', import.meta.url))
const WORKFLOW = `---
itervox_schema_version: 2
tracker:
  kind: local
workspace:
  base_branch: base
agent:
  profiles:
    planner:
      command: "true"
      soul_file: agents/SOUL.md
      instructions_file: agents/INSTRUCTIONS.md
---
Plan {{ issue.title }}
`

const blobBytes = (files: number) =>
  files > 10_000
    ? (files - NEWEST_FULL) * SMALL_BYTES + NEWEST_FULL * FILE_BYTES
    : files * FILE_BYTES

// One `itervox-handoff prompt` process, timed with its peak RSS from GNU time.
function runCli(repoDir: string): Promise<{ ms: number; rssMb: number }> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`)
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    const args = ['-f', '%M', process.execPath, CLI, 'prompt', '--profile', 'planner']
    const p = spawn('/usr/bin/time', [...args, '--timestamp', '2027-01-01T00-00-00.000Z'], {
      cwd: repoDir,
      stdio: ['ignore', 'ignore', 'pipe']
    })
    let err = ''
    p.stderr.on('data', (d: Buffer) => (err += d.toString()))
    p.on('error', reject)
    p.on('close', (code) => {
      const ms = performance.now() - t0
      const kb = Number(err.trim().split('\n').at(-1))
      if (code !== 0 || !Number.isFinite(kb)) reject(new Error(`prompt exit ${code}: ${err}`))
      else resolve({ ms, rssMb: kb / 1024 })
    })
  })
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

async function main(): Promise<void> {
  const repos: { files: number; repo: TempRepo; commit: string }[] = []
  try {
    for (const files of CASES) {
      const repo = await TempRepo.create('handoff-bench-')
      // A base branch with no handoff, so the CLI shows the branch's own, all of them.
      await repo.commit([
        { path: 'WORKFLOW.md', data: WORKFLOW },
        { path: 'agents/SOUL.md', data: 'You plan.\n' },
        { path: 'agents/INSTRUCTIONS.md', data: 'Write the plan.\n' }
      ])
      await git(repo.dir, ['branch', 'base'])
      repos.push({ files, repo, commit: await repo.commit(handoffs(files)) })
    }
    const baseline = await runChild(['--baseline'])
    const reports = new Map<number, ChildReport[]>(CASES.map((n) => [n, []]))
    for (let round = 0; round < ROUNDS; round++) {
      for (const { files, repo, commit } of repos) {
        reports.get(files)?.push(await runChild(['--child', repo.dir, commit]))
      }
    }
    const pad = (s: string | number, n: number) => String(s).padStart(n)
    // The smallest and the largest case, run by turns, so that the machine's mood meets both.
    const ends = repos.filter(({ files }) => files === CASES[0] || files === CASES.at(-1))
    for (const { repo } of ends) await git(repo.dir, ['checkout', '-q', '-f', 'main'])
    const cliRuns = new Map<number, { ms: number; rssMb: number }[]>(ends.map((e) => [e.files, []]))
    for (let i = 0; i < CLI_RUNS; i++) {
      for (const { files, repo } of ends) cliRuns.get(files)?.push(await runCli(repo.dir))
    }
    const cli = new Map<number, { median: number; peak: number }>()
    for (const [files, runs] of cliRuns) {
      cli.set(files, {
        median: median(runs.map((r) => r.ms)),
        peak: Math.max(...runs.map((r) => r.rssMb))
      })
    }
    console.log(
      `${pad('handoffs', 9)} ${pad('blobs MB', 9)} ${pad('median ms', 10)} ${pad('min ms', 8)} ` +
        `${pad('peak RSS MB', 12)} ${pad('block B', 8)} ${pad('shown', 6)} ${pad('blobs read', 11)}`
    )
    const rows = CASES.map((files) => {
      const rs = reports.get(files) ?? []
      const last = rs.at(-1)
      if (!last) throw new Error(`no run of ${files} handoffs reported`)
      const times = rs.flatMap((r) => r.times)
      const row = {
        files,
        median: median(times),
        min: Math.min(...times),
        peak: Math.max(...rs.map((r) => r.maxRssMb)),
        ...last
      }
      console.log(
        `${pad(files, 9)} ${pad((blobBytes(files) / 1e6).toFixed(1), 9)} ` +
          `${pad(row.median.toFixed(1), 10)} ${pad(row.min.toFixed(1), 8)} ${pad(row.peak.toFixed(1), 12)} ` +
          `${pad(row.blockBytes, 8)} ${pad(row.shown, 6)} ${pad(row.blobsRead, 11)}`
      )
      return row
    })
    const [small, large] = [rows[0], rows.at(-1)]
    if (!small || !large) throw new Error('no cases were measured')
    console.log(
      `\nratio ${large.files} vs ${small.files}: median ${(large.median / small.median).toFixed(2)}x, ` +
        `min ${(large.min / small.min).toFixed(2)}x (target ≤ 1.5x); ` +
        `peak RSS ${Math.max(...rows.map((r) => r.peak)).toFixed(1)} MB (target ≤ 100 MB); ` +
        `an idle child (node + tsx, modules loaded) peaks at ${baseline.maxRssMb.toFixed(1)} MB`
    )
    const [c0, c1] = [cli.get(small.files), cli.get(large.files)]
    if (c0 && c1) {
      console.log(
        `itervox-handoff prompt, a real process as the issue measured it (dist/, ${CLI_RUNS} runs): ` +
          `${small.files} handoffs ${c0.median.toFixed(0)} ms, ${c0.peak.toFixed(1)} MB; ` +
          `${large.files} handoffs ${c1.median.toFixed(0)} ms, ${c1.peak.toFixed(1)} MB ` +
          `(${(c1.median / c0.median).toFixed(2)}x; target ≤ 1.5x, ≤ 100 MB)`
      )
    }
  } finally {
    await Promise.all(repos.map(({ repo }) => repo.remove()))
  }
}

const [mode, repoDir, commit] = process.argv.slice(2)
if (mode === '--child') await child(repoDir ?? '', commit ?? '')
else if (mode === '--baseline') {
  const idle: ChildReport = {
    times: [],
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    blockBytes: 0,
    shown: 0,
    blobsRead: 0
  }
  process.stdout.write(JSON.stringify(idle))
} else await main()
