// How a stage's cost grows with the repository: an issue's first stage of the bundled action
// (dist/) with an instant agent, on repositories of 10, 1,000, 20,000 and 100,000 files
// (1-10 KiB each, made by big-repo.ts), with isolation user and none side by side. Each stage
// starts from a shallow checkout of the default branch, as actions/checkout leaves one.
//
// Time: the stage's wall time, from starting the action to its end.
// Disk: the most the stage added at any moment: the used blocks of a file system of the
// bench's own (quiet-disk.ts: an ext4 image holding the workspace, RUNNER_TEMP and the agent
// user's home, where nothing else writes), read every 20 ms while the stage runs, against
// their count just before it. What the stage writes elsewhere (the agent's files in /tmp, the
// action's own temporary files) is not counted; git's and the hand-over's are.
// Needs root (isolation user, the loop mount) and a fresh `npm run build`.
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { CLONED, checkoutShallow, runAction } from '../harness/action-run.js'
import { profileFiles, startPipeline, workflowMd } from '../e2e/pipeline-fixture.js'
import { bigOrigin } from './big-repo.js'
import { quietDisk } from './quiet-disk.js'
import { INSTANT_AGENT, median, todo } from './stage-run.js'

if (process.getuid?.() !== 0) throw new Error('the scale bench isolates agents: run it as root')

/** Files, and how many stages of each isolation at that size: the largest are the slowest. */
const SIZES = [
  { files: 10, runs: 3 },
  { files: 1_000, runs: 3 },
  { files: 20_000, runs: 3 },
  { files: 100_000, runs: 1 }
]
const ISOLATIONS = ['user', 'none'] as const
type Isolation = (typeof ISOLATIONS)[number]

const POLL_MS = 20

// Room for two checkouts of the largest repository (a clone fallback's), and their files.
const disk = quietDisk(6, 600_000)

/** Samples the disk used until stopped; answers the most added over the first sample. */
function watchDisk(): () => number {
  const base = disk.used()
  let peak = 0
  const sample = () => (peak = Math.max(peak, disk.used() - base))
  const timer = setInterval(sample, POLL_MS)
  return () => {
    clearInterval(timer)
    sample()
    return peak
  }
}

/** One first stage on a fresh origin sharing `origin`'s objects: its wall time and peak disk. */
async function stage(origin: string, isolation: Isolation): Promise<{ ms: number; bytes: number }> {
  const p = await startPipeline({ command: INSTANT_AGENT, sharing: origin, at: disk.dir })
  try {
    checkoutShallow(p.sb)
    const stop = watchDisk()
    const t0 = performance.now()
    const run = await runAction('main', p.sb, p.gh, {
      ...todo(p.issue),
      inputs: { isolation, 'agent-user': disk.agentUser }
    })
    const ms = performance.now() - t0
    const bytes = stop()
    if (run.outputs.outcome !== 'succeeded') {
      throw new Error(`stage ${run.outputs.outcome}: ${run.stdout}`)
    }
    // The figures are the in-place hand-over's: a fallback to the clone would be another bench.
    if (run.summary.includes(CLONED)) throw new Error(`the stage fell back: ${run.summary}`)
    return { ms, bytes }
  } finally {
    await p.gh.stop()
    rmSync(p.sb.dir, { recursive: true, force: true })
  }
}

const files = {
  'WORKFLOW.md': workflowMd({ command: INSTANT_AGENT }),
  'README.md': '# demo\n',
  ...profileFiles()
}
const n = (x: number) => x.toLocaleString('en-US')
console.log(
  '| files | stages each | user: wall | user: peak disk | none: wall | none: peak disk | isolation adds | user, to 10 files |'
)
console.log('|---|---|---|---|---|---|---|---|')
let few = 0
try {
  // Each row is printed as soon as it is known: the largest size takes the longest.
  for (const size of SIZES) {
    const origin = await bigOrigin(files, size.files)
    const seen: Record<Isolation, { ms: number[]; mb: number[] }> = {
      user: { ms: [], mb: [] },
      none: { ms: [], mb: [] }
    }
    for (let i = 0; i < size.runs; i++) {
      for (const isolation of ISOLATIONS) {
        const { ms, bytes } = await stage(origin, isolation)
        seen[isolation].ms.push(ms)
        seen[isolation].mb.push(bytes / 1024 / 1024)
      }
    }
    rmSync(dirname(origin), { recursive: true, force: true })
    const [user, none] = ISOLATIONS.map((k) => ({ ms: median(seen[k].ms), mb: median(seen[k].mb) }))
    if (!user || !none) throw new Error('no stage ran')
    few ||= user.ms
    console.log(
      `| ${n(size.files)} | ${size.runs} | ${n(Math.round(user.ms))} ms | ${user.mb.toFixed(1)} MB | ${n(Math.round(none.ms))} ms | ${none.mb.toFixed(1)} MB | ${n(Math.round(user.ms - none.ms))} ms, ${(user.mb - none.mb).toFixed(1)} MB | ${(user.ms / few).toFixed(2)}x |`
    )
  }
} finally {
  disk.remove()
}
console.log(
  `\nWall time and peak disk are medians of the stages at each size. Peak disk is the most the stage added to the used blocks of a file system of the bench's own (an ext4 image holding the workspace, RUNNER_TEMP and the agent user's home, nothing else), read every ${POLL_MS} ms; the agent's files in /tmp and the action's temporary files are not on it.`
)
