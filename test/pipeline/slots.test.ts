import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import type { JobResult } from '../../src/pipeline/job.js'
import type { JobTrigger, PreparedBranch, QueuedStage } from '../../src/pipeline/ports.js'
import { GitHubSlots } from '../../src/tracker/github-slots.js'
import { GitHubApi } from '../../src/tracker/github-api.js'
import { startFakeGitHub, type FakeGitHub } from '../harness/fake-github.js'
import { job, Killed, MemoryWorkspace, MemoryWorld } from '../harness/memory-pipeline.js'
import { cleanup, makeOrigin, type Origin } from '../git/repos.js'
import { seedConfig } from './pipeline-config.js'

// agent.max_concurrent_agents across independent jobs: the job loop in memory (one world per
// issue), its slots the real GitHub implementation on the fake GitHub's bare origin.

const STATES = ['Todo', 'Researching', 'Implementing', 'Reviewing', 'Done', "Won't Do"]
const ada = { login: 'ada', type: 'User' }
const bot = { login: 'github-actions[bot]', type: 'Bot' }
const config = seedConfig()
config.agent.maxConcurrentAgents = 2

let origin: Origin
let fake: FakeGitHub
let api: GitHubApi

beforeEach(async () => {
  origin = makeOrigin()
  fake = await startFakeGitHub({ originDir: origin.dir })
  api = new GitHubApi({
    token: 't',
    apiUrl: fake.url,
    owner: 'octo-org',
    repo: 'demo',
    states: [],
    secondMs: 1
  })
})

afterEach(async () => {
  await fake.stop()
  cleanup()
})

/**
 * Agents hold on until every job that has started is in its agent or has ended, so as many run
 * at once as the slots let through; `peak` is the most seen.
 */
class Gauge {
  live = 0
  running = 0
  peak = 0
  private waiters: Array<() => void> = []
  change(): void {
    if (this.running < this.live) return
    for (const go of this.waiters.splice(0)) go()
  }
  async agent<T>(run: () => Promise<T>): Promise<T> {
    this.running++
    this.peak = Math.max(this.peak, this.running)
    await new Promise<void>((go) => {
      this.waiters.push(go)
      this.change()
    })
    try {
      return await run()
    } finally {
      this.running--
      this.change()
    }
  }
}

class GaugedWorkspace extends MemoryWorkspace {
  constructor(
    w: MemoryWorld,
    private readonly gauge: Gauge
  ) {
    super(w)
  }
  override around<T>(p: PreparedBranch, stage: () => Promise<T>): Promise<T> {
    return this.gauge.agent(() => super.around(p, stage))
  }
}

interface Town {
  /** What the slots said. */
  logs: string[]
  worlds: Map<string, MemoryWorld>
  gauge: Gauge
  results: { issue: string; run: number; r: JobResult | Error }[]
  /** Every job the town ran, to its end; resolves when none is left. */
  done: Promise<void>
  start(issue: string, trigger: JobTrigger): void
}

/**
 * Issues `1..n` in Todo, each with its own record; every job gets its own run id (a GitHub
 * run, in progress until the job ends) and runs at once, except that one issue's jobs run one
 * after another (the workflow's concurrency group). Wake-ups, the pipeline's and the slots',
 * become jobs.
 */
function town(n: number, o: { killFirstPushOf?: string } = {}): Town {
  const gauge = new Gauge()
  const worlds = new Map<string, MemoryWorld>()
  for (let i = 1; i <= n; i++) {
    const w = new MemoryWorld(config, STATES)
    w.labels.set(String(i), ['Todo'])
    worlds.set(String(i), w)
  }
  const results: Town['results'] = []
  const logs: string[] = []
  if (o.killFirstPushOf) {
    worlds.get(o.killFirstPushOf)!.faults.set('push', { kind: 'kill', times: 1 })
  }
  const chains = new Map<string, Promise<void>>()
  let runs = 100
  let open = 0
  let finish!: () => void
  const done = new Promise<void>((resolve) => (finish = resolve))
  const t: Town = {
    logs,
    worlds,
    gauge,
    results,
    done,
    start(issue, trigger) {
      open++
      const prev = chains.get(issue) ?? Promise.resolve()
      const next = prev.then(async () => {
        const w = worlds.get(issue)!
        const run = ++runs
        fake.setRun(run, 'in_progress')
        const seen = w.wakeups.length
        const slots = new GitHubSlots({
          refs: api.refs(),
          max: 2,
          run: { id: String(run), attempt: '1' },
          baseCommit: origin.main,
          runEnded: (id) => api.workflowRunEnded(id),
          wake: async (queued: string, s: QueuedStage) => t.start(queued, wakeOf(queued, s)),
          log: (l) => logs.push(l)
        })
        gauge.live++
        gauge.change()
        try {
          results.push({
            issue,
            run,
            r: await job(
              w,
              trigger,
              { id: String(run), attempt: '1' },
              new GaugedWorkspace(w, gauge),
              { slots }
            )
          })
        } catch (e) {
          // A killed job (killed at its push, after its agent ended).
          results.push({ issue, run, r: e as Error })
        } finally {
          gauge.live--
          gauge.change()
          fake.setRun(run, 'completed')
        }
        for (const wk of w.wakeups.slice(seen)) t.start(issue, wakeOf(issue, wk))
        if (--open === 0) finish()
      })
      chains.set(issue, next)
    }
  }
  return t
}

const wakeOf = (issue: string, s: QueuedStage): JobTrigger => ({
  source: 'wake',
  issue,
  actor: bot,
  state: s.state,
  wake: s
})
const todo = (issue: string): JobTrigger => ({ source: 'label', issue, actor: ada, label: 'Todo' })

const keys = (w: MemoryWorld) =>
  w.agentRuns.map((k) => `${k.state}/${k.entry}/${k.profile}/${k.attempt}`)

describe('agent.max_concurrent_agents across jobs', () => {
  it('max 2 with five ready issues: never more than two agents at once, and all five to the end', async () => {
    const t = town(5)
    for (const i of ['1', '2', '3', '4', '5']) t.start(i, todo(i))
    await t.done
    expect(t.gauge.peak).toBe(2)
    for (const [i, w] of t.worlds) {
      expect({ i, runs: keys(w), state: w.state(i) }).toEqual({
        i,
        runs: ['Todo/1/researcher/0', 'Researching/2/implementer/0', 'Implementing/3/reviewer/0'],
        state: 'Reviewing'
      })
      expect(w.labels.get(i)).not.toContain('itervox-queued')
    }
    const queued = t.results.filter((x) => !(x.r instanceof Error) && /agent slot/.test(x.r.reason))
    expect(queued.length).toBeGreaterThanOrEqual(3)
    // Every slot given back, nothing left queued.
    expect(await api.refs().list('queue/')).toEqual([])
    expect(fake.violations).toEqual([])
  })

  it('reclaims the slot of a killed job once GitHub says its run completed', async () => {
    // Issue 1's first job dies with its agent's work done, before it gives its slot back.
    const t = town(3, { killFirstPushOf: '1' })
    for (const i of ['1', '2', '3']) t.start(i, todo(i))
    await t.done
    const killed = t.results.filter((x) => x.r instanceof Killed)
    expect(killed.map((x) => x.issue)).toEqual(['1'])
    for (const i of ['2', '3']) expect(t.worlds.get(i)!.state(i)).toBe('Reviewing')
    // The dead run's slot was taken over (it never gave it back), and by one job only.
    const taken = t.logs.filter((l) => l.includes(`run ${killed[0]!.run} has ended`))
    expect(taken).toHaveLength(1)
    expect(t.gauge.peak).toBe(2)
  })
})

describe('what the slots cost in requests', () => {
  const issue = async (n: string) => (await api.getIssue(n))!
  const stage = { state: 'Todo', entry: 1 }
  function slotsOf(run: number, wakes: string[] = []): GitHubSlots {
    fake.setRun(run, 'in_progress')
    return new GitHubSlots({
      refs: api.refs(),
      max: 1,
      run: { id: String(run), attempt: '1' },
      baseCommit: origin.main,
      runEnded: (id) => api.workflowRunEnded(id),
      wake: async (queued) => void wakes.push(queued),
      log: () => undefined
    })
  }
  const counted = async (fn: () => Promise<unknown>) => {
    const before = fake.requests.length
    await fn()
    return fake.requests
      .slice(before)
      .map((r) => `${r.method} ${decodeURIComponent(r.path).replace(/^\/repos\/[^/]+\/[^/]+/, '')}`)
  }

  it('a free slot: 4 to take, 3 to give back; queued: 6 to queue, a read and 3 to wake', async () => {
    for (const t of ['a', 'b']) fake.addIssue({ title: t, labels: ['Todo'] })
    const issues = [undefined, await issue('1'), await issue('2')]
    const first = slotsOf(1)
    // The first claim ever makes the slot: the tree of a known commit, then create-only.
    expect(await counted(() => first.claim(issues[1]!, stage, false))).toHaveLength(4)
    expect(await counted(() => first.release())).toHaveLength(3)
    const wakes: string[] = []
    const a = slotsOf(2, wakes)
    const take = await counted(() => a.claim(issues[1]!, stage, false))
    expect(take).toEqual([
      'GET /git/matching-refs/itervox/slots/',
      expect.stringMatching(/^GET \/git\/commits\//),
      'POST /git/commits',
      'PATCH /git/refs/itervox/slots/1'
    ])
    // Held by a live run: a look at it, the entry made, and one more listing (no second read).
    const b = slotsOf(3)
    expect(await counted(() => b.claim(issues[2]!, stage, false))).toEqual([
      'GET /git/matching-refs/itervox/slots/',
      expect.stringMatching(/^GET \/git\/commits\//),
      'GET /actions/runs/2',
      'POST /git/commits',
      'POST /git/refs',
      'GET /git/matching-refs/itervox/slots/'
    ])
    // Giving it back with one stage queued: its entry read and marked woken, then its wake-up
    // (the dispatch, one request more in a job).
    expect(await counted(() => a.release())).toEqual([
      'POST /git/commits',
      'PATCH /git/refs/itervox/slots/1',
      'GET /git/matching-refs/itervox/queue/',
      expect.stringMatching(/^GET \/git\/commits\//),
      'POST /git/commits',
      'PATCH /git/refs/itervox/queue/2'
    ])
    expect(wakes).toEqual(['2'])
  })
})
