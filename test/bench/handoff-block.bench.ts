// Building the Prior Agent Handoffs block from real repositories with 10, 1,000 and 10,000
// committed handoffs of ~10.5 KB each (the last over 100 MB of blobs). Each case runs in its
// own process so its peak RSS is its own; repositories are made with `git fast-import` in
// /tmp before any timing. Prints median time, peak RSS and the 10,000-vs-10 ratio.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { GitObjects } from '../../src/git/objects.js'
import { DEFAULT_BLOCK_OPTIONS, buildHandoffBlock } from '../../src/handoff/block.js'
import { TempRepo, type FileSpec } from '../helpers/git-repo.js'

const CASES = [10, 1_000, 10_000]
// Each case runs in ROUNDS fresh processes, interleaved with the other cases so that load
// from elsewhere on the machine touches all of them alike; each process times RUNS builds.
const ROUNDS = 3
const RUNS = 7
const FILE_BYTES = 10_500
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
    let text = `# Handoff ${i}\n\n`
    while (text.length < FILE_BYTES - 20) text += `${words[next() % words.length]}${next() % 1000} `
    yield {
      path: `.itervox/handoff/${ts}_p${i % 4}.md`,
      data: `${text.slice(0, FILE_BYTES - 1)}\n`
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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

async function main(): Promise<void> {
  const repos: { files: number; repo: TempRepo; commit: string }[] = []
  try {
    for (const files of CASES) {
      const repo = await TempRepo.create('handoff-bench-')
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
        `${pad(files, 9)} ${pad(((files * FILE_BYTES) / 1e6).toFixed(1), 9)} ` +
          `${pad(row.median.toFixed(1), 10)} ${pad(row.min.toFixed(1), 8)} ${pad(row.peak.toFixed(1), 12)} ` +
          `${pad(row.blockBytes, 8)} ${pad(row.shown, 6)} ${pad(row.blobsRead, 11)}`
      )
      return row
    })
    const [small, large] = [rows[0], rows.at(-1)]
    if (!small || !large) throw new Error('no cases were measured')
    console.log(
      `\nratio ${large.files} vs ${small.files}: median ${(large.median / small.median).toFixed(2)}x, ` +
        `min ${(large.min / small.min).toFixed(2)}x (target ≤ 3x); ` +
        `peak RSS ${Math.max(...rows.map((r) => r.peak)).toFixed(1)} MB (target < 120 MB); ` +
        `an idle child (node + tsx, modules loaded) peaks at ${baseline.maxRssMb.toFixed(1)} MB`
    )
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
