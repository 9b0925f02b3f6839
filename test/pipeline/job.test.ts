import { afterAll, describe, expect, it } from '@jest/globals'
import type { JobResult } from '../../src/pipeline/job.js'
import type { JobTrigger } from '../../src/pipeline/ports.js'
import {
  job,
  Killed,
  MemoryWorkspace,
  MemoryWorld,
  type AgentScript,
  type FaultKind
} from '../harness/memory-pipeline.js'
import { seedConfig } from './pipeline-config.js'

const config = seedConfig()
const STATES = ['Todo', 'Researching', 'Implementing', 'Reviewing', 'Done', "Won't Do"]
const ada = { login: 'ada', type: 'User' }
const bot = { login: 'github-actions[bot]', type: 'Bot' }
const todo: JobTrigger = { source: 'label', issue: '7', actor: ada, label: 'Todo' }

function world(script?: AgentScript): MemoryWorld {
  const w = new MemoryWorld(config, STATES, script)
  w.labels.set('7', ['Todo'])
  return w
}

type Ended = JobResult | { threw: Error }

interface Drive {
  results: Ended[]
  /** Jobs that ended failed, threw or were killed, and were re-run once. */
  reruns: number
}

/**
 * Runs the pipeline as GitHub would: every wake-up becomes a job. A job that fails, throws or
 * is killed is re-run once (same run id, next attempt) after `recover` runs (GitHub is back).
 */
async function drive(
  w: MemoryWorld,
  first: JobTrigger,
  o: {
    before?: (n: number) => void
    recover?: () => void
    ws?: MemoryWorkspace
    /** Run ids are `<prefix><n>`: a second drive of one world needs its own. */
    prefix?: string
  } = {}
): Promise<Drive> {
  const prefix = o.prefix ?? 'run'
  const queue: { trigger: JobTrigger; id: string }[] = [{ trigger: first, id: `${prefix}1` }]
  const results: Ended[] = []
  let reruns = 0
  let n = 0
  const ws = o.ws ?? new MemoryWorkspace(w)
  const attempt = async (trigger: JobTrigger, id: string, a: string): Promise<Ended> => {
    try {
      return await job(w, trigger, { id, attempt: a }, ws)
    } catch (err) {
      return { threw: err as Error }
    }
  }
  while (queue.length > 0 && n < 20) {
    const { trigger, id } = queue.shift()!
    const seen = w.wakeups.length
    o.before?.(n)
    let r = await attempt(trigger, id, '1')
    results.push(r)
    if ('threw' in r || r.failure) {
      o.recover?.()
      w.faults.clear()
      reruns++
      r = await attempt(trigger, id, '2')
      results.push(r)
    }
    for (const wk of w.wakeups.slice(seen)) {
      queue.push({
        trigger: { source: 'wake', issue: wk.issue, actor: bot, state: wk.state, wake: wk },
        id: `${prefix}${n + 2 + queue.length}`
      })
    }
    n++
  }
  return { results, reruns }
}

/** Where each agent run's commit landed: refs holding it. */
function landings(w: MemoryWorld): Map<string, number> {
  const out = new Map<string, number>()
  for (const sha of w.commits.keys()) out.set(sha, 0)
  for (const commits of w.branches.values())
    for (const sha of commits) out.set(sha, (out.get(sha) ?? 0) + 1)
  return out
}

const keys = (w: MemoryWorld) =>
  w.agentRuns.map((k) => `${k.state}/${k.entry}/${k.profile}/${k.attempt}`)

describe('the one job loop, in memory', () => {
  it('runs the seed pipeline to its end, one agent run per stage, each deliverable pushed once', async () => {
    const w = world()
    const { reruns } = await drive(w, todo)
    expect(reruns).toBe(0)
    expect(keys(w)).toEqual([
      'Todo/1/researcher/0',
      'Researching/2/implementer/0',
      'Implementing/3/reviewer/0'
    ])
    expect(w.state('7')).toBe('Reviewing')
    expect([...landings(w).values()]).toEqual([1, 1, 1])
    expect(w.record()?.stages.map((s) => s.outcome)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded'
    ])
  })

  it('takes what runs from the record: a wake-up with a stale step runs nothing', async () => {
    const w = world((k) =>
      k.profile === 'implementer' && k.attempt === 0 ? { outcome: 'failed' } : {}
    )
    await drive(w, todo)
    const retry = w.wakeups.find((x) => x.step !== undefined)!
    expect(retry).toBeDefined()
    const again = await job(
      w,
      { source: 'wake', issue: '7', actor: bot, wake: retry },
      { id: 'late', attempt: '1' }
    )
    expect(again).toMatchObject({ outcome: 'skipped' })
    expect(keys(w).filter((k) => k.includes('implementer'))).toEqual([
      'Researching/2/implementer/0',
      'Researching/2/implementer/1'
    ])
  })

  it('skips a state label the issue no longer carries, and a label that is no state', async () => {
    const w = world()
    const stale = await job(w, { ...todo, label: 'Researching' }, { id: 'run1', attempt: '1' })
    expect(stale).toMatchObject({
      outcome: 'skipped',
      reason: 'label "Researching" was added, but the issue is now in "Todo"'
    })
    const other = await job(w, { ...todo, label: 'bug' }, { id: 'run2', attempt: '1' })
    expect(other).toMatchObject({
      outcome: 'skipped',
      reason: 'label "bug" is not a pipeline state'
    })
    expect(keys(w)).toEqual([])
    expect(w.stored).toBeNull()
  })

  it('a re-run of a job that finished, once the next one ran, runs nothing and writes nothing', async () => {
    const w = world((k) => (k.profile === 'implementer' ? { outcome: 'failed' } : {}))
    expect(await job(w, todo, { id: 'run1', attempt: '1' })).toMatchObject({
      outcome: 'succeeded'
    })
    const wake = w.wakeups[0]!
    await job(
      w,
      { source: 'wake', issue: '7', actor: bot, state: wake.state, wake },
      { id: 'run2', attempt: '1' }
    )
    const done = { calls: w.calls.length, record: w.stored, wakeups: w.wakeups.length }
    const rerun = await job(w, todo, { id: 'run1', attempt: '2' })
    expect(rerun.outcome).toBe('skipped')
    expect(keys(w)).toEqual(['Todo/1/researcher/0', 'Researching/2/implementer/0'])
    const writes = ['saveRecord', 'moveState', 'comment', 'setFlag', 'wake', 'push', 'publish']
    expect(w.calls.slice(done.calls).filter((c) => writes.includes(c))).toEqual([])
    expect(w.stored).toBe(done.record)
    expect(w.wakeups).toHaveLength(done.wakeups)
  })

  it('runs no agent for a stage another run holds, and flags it when that run ended without it', async () => {
    const w = world()
    const held = (ended: boolean) => ({
      take: () => Promise.resolve({ won: false as const, holder: '9/1', ended })
    })
    const running = await job(w, todo, { id: 'run1', attempt: '1' }, undefined, {
      claims: held(false)
    })
    expect(running).toMatchObject({ outcome: 'skipped' })
    expect(running.reason).toContain('run 9/1 holds the researcher stage')
    expect(w.agentRuns).toEqual([])
    expect(w.labels.get('7')).toEqual(['Todo'])

    const ended = await job(w, todo, { id: 'run2', attempt: '1' }, undefined, {
      claims: held(true)
    })
    expect(ended.outcome).toBe('skipped')
    expect(w.agentRuns).toEqual([])
    expect(w.labels.get('7')).toContain('needs-attention')
    expect(w.comments.map((c) => c.body).join('\n')).toContain(
      'claimed by run 9/1, which ended without finishing it'
    )
  })

  it('says on the issue when the record cannot be written, and a re-run goes on without the agent', async () => {
    const w = world()
    w.faults.set('saveRecord', { kind: 'fail', times: Infinity })
    const first = await job(w, todo, { id: 'run1', attempt: '1' })
    expect(first.failure).toMatch(/record could not be written .*re-run the job/)
    expect(w.labels.get('7')).toContain('needs-attention')
    expect(w.comments.map((c) => c.body).join('\n')).toContain('could not save its record')
    expect(w.state('7')).toBe('Todo')
    w.faults.clear()
    const rerun = await job(w, todo, { id: 'run1', attempt: '2' })
    expect(rerun).toMatchObject({ outcome: 'succeeded', stateAfter: 'Researching' })
    expect(keys(w)).toEqual(['Todo/1/researcher/0'])
    expect(w.labels.get('7')).not.toContain('needs-attention')
    expect(w.wakeups).toHaveLength(1)
  })

  it('finishes a failed advance on the re-run, and clears needs-attention', async () => {
    const w = world()
    w.faults.set('wake', { kind: 'fail', times: Infinity })
    const first = await job(w, todo, { id: 'run1', attempt: '1' })
    expect(first.failure).toMatch(/the next step .* failed/)
    expect(w.labels.get('7')).toEqual(['Researching', 'needs-attention'])
    expect(w.record()?.owed?.effects.map((e) => e.kind)).toContain('wake')
    w.faults.clear()
    const rerun = await job(w, todo, { id: 'run1', attempt: '2' })
    expect(rerun.outcome).toBe('skipped')
    expect(rerun.finishedOwed).toBeGreaterThan(0)
    expect(w.wakeups).toEqual([{ issue: '7', state: 'Researching', entry: 2 }])
    expect(w.labels.get('7')).toEqual(['Researching'])
    expect(w.record()?.halted).toBeUndefined()
    expect(keys(w)).toHaveLength(1)
  })

  it('pushes to a rescue branch when the issue branch refuses, and escalates naming it', async () => {
    const w = world()
    const ws = new MemoryWorkspace(w)
    ws.refusing.add('itervox/7')
    const r = await job(w, todo, { id: 'run1', attempt: '1' }, ws)
    expect(r).toMatchObject({ outcome: 'succeeded', rescuedTo: 'itervox/7-rescue-run1-1' })
    expect(r.failure).toContain('itervox/7-rescue-run1-1')
    expect(w.branches.get('itervox/7-rescue-run1-1')).toHaveLength(1)
    expect(w.labels.get('7')).toContain('needs-attention')
    expect(w.comments.find((c) => c.key.startsWith('itervox:stopped'))?.body).toContain(
      'itervox/7-rescue-run1-1'
    )
    expect(w.wakeups).toEqual([])
  })

  it('never runs the agent again for a stage whose push landed', async () => {
    const w = world()
    w.faults.set('saveRecord', { kind: 'kill', times: 1 })
    await expect(job(w, todo, { id: 'run1', attempt: '1' })).rejects.toBeInstanceOf(Killed)
    // A duplicate wake-up or a new label event for the same entry finds the landed commit.
    const r = await job(w, todo, { id: 'run2', attempt: '1' })
    expect(r.warnings.join(' ')).toContain('recovered from')
    expect(keys(w)).toEqual(['Todo/1/researcher/0'])
    expect(w.state('7')).toBe('Researching')
  })

  it('a dry run reports no deliverable and finishes nothing, even when a stage has landed', async () => {
    const w = world()
    const ws = new MemoryWorkspace(w)
    w.faults.set('saveRecord', { kind: 'kill', times: 1 })
    await expect(job(w, todo, { id: 'run1', attempt: '1' }, ws)).rejects.toBeInstanceOf(Killed)
    const dry = await job(w, todo, { id: 'run2', attempt: '1' }, ws, { dryRun: true })
    expect(dry).toMatchObject({ outcome: 'skipped', prompt: expect.stringContaining('write ') })
    expect(dry.handoffPath).toBeUndefined()
    expect(dry.commit).toBeUndefined()
    expect(dry.record).toBeUndefined()
    expect(w.state('7')).toBe('Todo')
    expect(w.wakeups).toEqual([])
    // The real run after it still finds the landed stage.
    const r = await job(w, todo, { id: 'run3', attempt: '1' }, ws)
    expect(r.warnings.join(' ')).toContain('recovered from')
    expect(keys(w)).toEqual(['Todo/1/researcher/0'])
  })
})

// The seed's reviewer sends the work back with move_state, and says FAIL every time; it also
// tries to reset its own count from the front matter, which only the record may hold.
const ALWAYS_FAIL =
  '---\nmove_state: Researching\nverdict: FAIL\nround: 0\nmax_review_rounds: 99\n---\n# Review\n\n## Critical\n- src/a.ts:1 is wrong\n'
const alwaysFail: AgentScript = (k) => (k.profile === 'reviewer' ? { text: ALWAYS_FAIL } : {})

describe('review rounds', () => {
  it('stops an always-FAIL reviewer at agent.max_review_rounds and says so on the issue', async () => {
    const w = world(alwaysFail)
    const { results } = await drive(w, todo)
    expect(w.agentRuns.map((k) => `${k.state}/${k.profile}/${k.round}`)).toEqual([
      'Todo/researcher/0',
      'Researching/implementer/0',
      'Implementing/reviewer/0',
      'Researching/implementer/1',
      'Implementing/reviewer/1',
      'Researching/implementer/2',
      'Implementing/reviewer/2'
    ])
    expect(w.state('7')).toBe("Won't Do")
    const stopped = w.comments.find((c) => c.key.startsWith('itervox:stopped'))?.body
    expect(stopped).toContain('**The itervox pipeline stopped.**')
    expect(stopped).toContain('reviewer sent the work back to "Researching" after 3 review rounds')
    expect(stopped).toContain('agent.max_review_rounds: 3')
    expect(w.record()).toMatchObject({ round: 2, halted: expect.stringContaining('review rounds') })
    const last = results.at(-1)!
    expect('summary' in last && last.summary).toMatch(/^escalated to "Won't Do"/)
    expect(w.wakeups.filter((x) => x.state === 'Researching')).toHaveLength(3)
  })

  it('counts the rounds per issue, and starts again only when a person moves the issue', async () => {
    const w = world(alwaysFail)
    await drive(w, todo)
    expect(w.state('7')).toBe("Won't Do")
    w.labels.set('7', ['Researching'])
    const before = w.agentRuns.length
    await drive(
      w,
      { source: 'label', issue: '7', actor: ada, label: 'Researching' },
      { prefix: 'again' }
    )
    expect(w.agentRuns.slice(before).map((k) => `${k.profile}/${k.round}`)).toEqual([
      'implementer/0',
      'reviewer/0',
      'implementer/1',
      'reviewer/1',
      'implementer/2',
      'reviewer/2'
    ])
    expect(w.state('7')).toBe("Won't Do")
  })

  it('escalates on the first send-back with max_review_rounds: 1', async () => {
    const one = seedConfig({ agent: 'max_review_rounds: 1' })
    const w = new MemoryWorld(one, STATES, alwaysFail)
    w.labels.set('7', ['Todo'])
    await drive(w, todo)
    expect(w.agentRuns.map((k) => k.profile)).toEqual(['researcher', 'implementer', 'reviewer'])
    expect(w.state('7')).toBe("Won't Do")
  })

  it('with auto_review, reviews each stage, sends a FAILed one back, and moves on once the review passes', async () => {
    const auto = seedConfig({ agent: 'auto_review: true\nreviewer_profile: reviewer' })
    const w = new MemoryWorld(auto, STATES, (k) =>
      k.kind !== 'review'
        ? {}
        : { text: `---\nverdict: ${k.round === 0 && k.state === 'Todo' ? 'FAIL' : 'PASS'}\n---\n` }
    )
    w.labels.set('7', ['Todo'])
    const { reruns } = await drive(w, todo)
    expect(reruns).toBe(0)
    expect(w.agentRuns.map((k) => `${k.state}/${k.kind}/${k.profile}/${k.round}`)).toEqual([
      'Todo/work/researcher/0',
      'Todo/review/reviewer/0',
      'Todo/work/researcher/1',
      'Todo/review/reviewer/1',
      // The round counts per issue: the stages after the rework are in round 1 too.
      'Researching/work/implementer/1',
      'Researching/review/reviewer/1',
      'Implementing/work/reviewer/1'
    ])
    expect(w.state('7')).toBe('Reviewing')
  })

  it('refuses a move outside the pipeline, goes on by the policy, and shows the refusal', async () => {
    const w = world((k) =>
      k.profile === 'reviewer' ? { text: '---\nmove_state: Closed\n---\n# Review\n' } : {}
    )
    const { results } = await drive(w, todo)
    expect(w.state('7')).toBe('Reviewing')
    const review = results.at(-1) as JobResult
    expect(review.refused).toEqual([
      'request refused: move_state: "Closed" is outside the pipeline from "Implementing" (it may move to "Reviewing", "Researching", "Todo", "Done", "Won\'t Do"); to allow it, add it to agent.profiles.reviewer.allowed_states'
    ])
    expect(w.record()?.stages.at(-1)?.refused).toEqual([
      expect.stringContaining('add it to agent.profiles.reviewer.allowed_states')
    ])
  })

  it("posts an agent's comment without its raw HTML, remote images or mentions", async () => {
    const comment =
      '"Done. <img src=https://evil.example/p.png?d=x> ![](https://evil.example/q.png) <b>@ada</b>"'
    const w = world((k) =>
      k.profile === 'researcher' ? { text: `---\ncomment: ${comment}\n---\n# Research\n` } : {}
    )
    await job(w, todo, { id: 'run1', attempt: '1' })
    const posted = w.comments.find((c) => c.agent === 'researcher')!.body
    expect(posted).not.toMatch(/<[A-Za-z/]|!\[|@[a-z]/)
    expect(posted.replace(/\u2060/g, '')).toBe(comment.slice(1, -1))
  })

  it("allows a state the profile's allowed_states adds", async () => {
    const wide = seedConfig({ reviewer: 'allowed_states: [Closed]' })
    const w = new MemoryWorld(wide, [...STATES, 'Closed'], (k) =>
      k.profile === 'reviewer' ? { text: '---\nmove_state: Closed\n---\n# Review\n' } : {}
    )
    w.labels.set('7', ['Todo'])
    await drive(w, todo)
    expect(w.state('7')).toBe('Closed')
    // Closed is not the completion state: the pull request stays a draft.
    expect(w.readied).toEqual([])
  })
})

describe('the completion state', () => {
  const toDone = (): MemoryWorld =>
    world((k) =>
      k.profile === 'reviewer' ? { text: '---\nmove_state: Done\n---\n# Review\n' } : {}
    )

  it('readies the pull request once the move to it lands', async () => {
    const w = toDone()
    await drive(w, todo)
    expect(w.state('7')).toBe('Done')
    expect(w.readied).toEqual([{ issue: '7', pullRequest: 100 }])
    expect(w.calls.slice(-2)).toEqual(['moveState', 'readyForReview'])
  })

  it('leaves it owed when it fails, and a re-run readies it without running the agent', async () => {
    const w = toDone()
    const d = await drive(w, todo, {
      before: (n) => {
        if (n === 2) w.faults.set('readyForReview', { kind: 'fail', times: 1 })
      }
    })
    expect(d.reruns).toBe(1)
    expect(w.readied).toEqual([{ issue: '7', pullRequest: 100 }])
    expect(keys(w)).toHaveLength(3)
    expect(w.labels.get('7')).toEqual(['Done'])
    expect(w.record()?.owed).toBeUndefined()
  })

  it('leaves the pull request alone when a person moved the issue on meanwhile', async () => {
    const w = toDone()
    const d = await drive(w, todo, {
      before: (n) => {
        if (n === 2) {
          w.faults.set('moveState', { kind: 'kill', times: 1 })
        }
      },
      recover: () => w.labels.set('7', ['Todo'])
    })
    expect(d.reruns).toBe(1)
    expect(w.readied).toEqual([])
  })
})

// Every port call the loop makes, each way it can fail, once or for the whole job, in each
// job of the pipeline; then the invariants after one re-run.
const CALLS = [
  'authorize',
  'getIssue',
  'loadRecord',
  'prepare',
  'agent',
  'push',
  'publish',
  'saveRecord',
  'moveState',
  'wake'
] as const
const KINDS: FaultKind[] = ['fail', 'lost', 'kill']
const counts = { scenarios: 0, reruns: 0, agentRuns: 0, held: 0 }

afterAll(() => {
  process.stdout.write(
    `job-loop fault suite: ${counts.scenarios} scenarios, ${counts.held} held the invariants, ` +
      `${counts.reruns} re-runs, ${counts.agentRuns} agent runs\n`
  )
})

describe('the job loop under faults', () => {
  const cases = CALLS.flatMap((call) =>
    KINDS.flatMap((kind) =>
      [0, 1].flatMap((jobIndex) =>
        ['once', 'persistent'].map((span) => ({ call, kind, jobIndex, span }))
      )
    )
  )
  it.each(cases)('$call $kind ($span) in job $jobIndex', async ({ call, kind, jobIndex, span }) => {
    const w = world()
    let killsBeforeLanding = 0
    const d = await drive(w, todo, {
      before: (n) => {
        w.faults.clear()
        if (n === jobIndex) w.faults.set(call, { kind, times: span === 'once' ? 1 : Infinity })
      },
      recover: () => {
        // A job killed before its push left nothing on any ref: the agent may run again.
        const landed = [...w.branches.values()].flat().length
        if (landed < w.agentRuns.length) killsBeforeLanding++
      }
    })
    counts.scenarios++
    counts.reruns += d.reruns
    counts.agentRuns += w.agentRuns.length

    // The pipeline reached its end, visibly, and owes nothing.
    expect(w.state('7')).toBe('Reviewing')
    expect(w.labels.get('7')).toEqual(['Reviewing'])
    expect(w.record()?.halted).toBeUndefined()
    // Each stage ran its agent once (plus runs whose work never landed anywhere).
    expect(new Set(keys(w)).size).toBe(3)
    expect(w.agentRuns.length).toBe(3 + killsBeforeLanding)
    // Each stage's deliverable is on the issue branch exactly once.
    const onBranch = (w.branches.get('itervox/7') ?? []).map(
      (sha) => w.commits.get(sha)!.key.profile
    )
    expect(onBranch).toEqual(['researcher', 'implementer', 'reviewer'])
    counts.held++
  })
})
