import { describe, expect, it } from '@jest/globals'
import type { JobTrigger } from '../../../src/pipeline/ports.js'
import { job, MemoryWorld, type AgentScript } from '../../harness/memory-pipeline.js'
import type { PipelineOptions } from '../../e2e/pipeline-fixture.js'
import { seedConfig } from '../pipeline-config.js'

const STATES = ['Todo', 'Researching', 'Implementing', 'Reviewing', 'Done', "Won't Do"]
const ada = { login: 'ada', type: 'User' }
const bot = { login: 'github-actions[bot]', type: 'Bot' }
const todo: JobTrigger = { source: 'label', issue: '7', actor: ada, label: 'Todo' }

/** Runs the pipeline from Todo, every wake-up a job, until nothing more is woken. */
async function drive(o: PipelineOptions, script: AgentScript): Promise<MemoryWorld> {
  const w = new MemoryWorld(seedConfig(o), STATES, script)
  w.labels.set('7', ['Todo'])
  const queue: JobTrigger[] = [todo]
  for (let n = 1; queue.length > 0 && n < 20; n++) {
    const seen = w.wakeups.length
    await job(w, queue.shift()!, { id: `run${n}`, attempt: '1' })
    for (const wk of w.wakeups.slice(seen)) {
      queue.push({ source: 'wake', issue: wk.issue, actor: bot, state: wk.state, wake: wk })
    }
  }
  return w
}

const runs = (w: MemoryWorld) => w.agentRuns.map((k) => `${k.state}/${k.profile}/${k.attempt}`)
const researchOnly = { researcher: 'fallback_profile: reviewer' }

describe('fallback agents', () => {
  it('runs the fallback once after a rate-limited profile spends its retries, with the failure and the partial in its prompt', async () => {
    const w = await drive(researchOnly, (k) =>
      k.profile === 'researcher'
        ? { outcome: 'rate_limited', reason: 'rate limited: 429 Too Many Requests' }
        : {}
    )
    expect(runs(w).slice(0, 3)).toEqual([
      'Todo/researcher/0',
      'Todo/researcher/1',
      'Todo/reviewer/0'
    ])
    // The fallback's work moved the issue on as the researcher's would have.
    expect(runs(w)[3]).toBe('Researching/implementer/0')
    const fallback = w.record()!.stages.find((s) => s.profile === 'reviewer' && s.state === 'Todo')
    expect(fallback).toMatchObject({
      kind: 'work',
      outcome: 'succeeded',
      recovery: { kind: 'fallback', from: 'researcher' }
    })
    const section = w.sections[2]!.find((s) => s.startsWith('## Taking over from researcher'))!
    expect(section).toContain('rate_limited: rate limited: 429 Too Many Requests')
    expect(section).toMatch(
      /partial deliverable is `\.itervox\/handoff\/[^`]+_researcher\.partial\.md`/
    )
  })

  it("switches a rate-limited profile at once to its rate_limited automation's profile, once", async () => {
    const switching = {
      automations: [
        '- id: switch',
        '  trigger: { type: rate_limited }',
        '  profile: researcher',
        '  policy: { switch_to_profile: reviewer, auto_switch: true, cooldown_minutes: 60 }'
      ].join('\n')
    }
    const w = await drive(switching, (k) =>
      k.state === 'Todo' ? { outcome: 'rate_limited', reason: 'rate limited: 429' } : {}
    )
    // No retry of the limited profile; the switched one ends rate limited too, and escalates.
    expect(runs(w)).toEqual(['Todo/researcher/0', 'Todo/reviewer/0'])
    expect(w.record()!.stages[1]).toMatchObject({
      recovery: { kind: 'fallback', from: 'researcher' }
    })
    expect(w.record()!.halted).toMatch(/^researcher failed and its fallback reviewer ended/)
  })

  it('escalates when the fallback fails too, without retrying it', async () => {
    const w = await drive(researchOnly, (k) =>
      k.state === 'Todo' ? { outcome: 'failed', reason: 'exit code 1' } : {}
    )
    expect(runs(w)).toEqual(['Todo/researcher/0', 'Todo/researcher/1', 'Todo/reviewer/0'])
    expect(w.state('7')).toBe("Won't Do")
    expect(w.record()!.halted).toMatch(
      /^researcher failed and its fallback reviewer ended failed too \(exit code 1\)/
    )
  })

  it('escalates as before for a profile without a fallback', async () => {
    const w = await drive({}, (k) => (k.state === 'Todo' ? { outcome: 'rate_limited' } : {}))
    expect(runs(w)).toEqual(['Todo/researcher/0', 'Todo/researcher/1'])
    expect(w.record()!.halted).toMatch(/^researcher rate_limited 2 times, retries spent/)
  })
})

const failing = {
  passed: false,
  command: 'npm test',
  result: 'exit code 1',
  tail: 'FAIL test/csv.test.ts\n  expected "a,b" got "a;b"'
}

describe('verification gates, as the loop sees them', () => {
  it('re-runs the profile once with the failing output, then goes on when it passes', async () => {
    const w = await drive({}, (k) =>
      k.profile === 'researcher' && k.attempt === 0
        ? {
            outcome: 'failed',
            reason: 'verification failed: `npm test` exit code 1',
            verify: failing
          }
        : k.profile === 'researcher'
          ? {
              verify: { passed: true, command: 'npm test', result: '1 command passed', tail: 'ok' }
            }
          : {}
    )
    expect(runs(w).slice(0, 3)).toEqual([
      'Todo/researcher/0',
      'Todo/researcher/1',
      'Researching/implementer/0'
    ])
    const section = w.sections[1]!.find((s) => s.startsWith('## Your previous run failed'))!
    expect(section).toContain('`npm test` exit code 1\n\nFAIL test/csv.test.ts')
    const [first, second] = w.record()!.stages
    expect(first).toMatchObject({ outcome: 'failed', verify: failing })
    expect(second).toMatchObject({ recovery: { kind: 'verify' }, verify: { passed: true } })
  })

  it('escalates when the re-run fails its verification too', async () => {
    const w = await drive({ researcher: 'fallback_profile: reviewer' }, (k) =>
      k.profile === 'researcher'
        ? {
            outcome: 'failed',
            reason: 'verification failed: `npm test` exit code 1',
            verify: failing
          }
        : {}
    )
    expect(runs(w)).toEqual(['Todo/researcher/0', 'Todo/researcher/1'])
    expect(w.record()!.halted).toMatch(/^the researcher work failed its verify commands twice/)
  })
})

describe('self-reported blocking failures', () => {
  const blocked = '# Research\n\n## Blocking failures\n\n- the CSV library does not build\n'
  it('re-spawns once with them in the prompt, and escalates when they are reported again', async () => {
    const w = await drive({}, (k) => (k.profile === 'researcher' ? { text: blocked } : {}))
    expect(runs(w)).toEqual(['Todo/researcher/0', 'Todo/researcher/1'])
    const section = w.sections[1]!.find((s) => s.startsWith('## Blocking failures you reported'))!
    expect(section).toContain('~~~text\n- the CSV library does not build\n~~~')
    expect(w.state('7')).toBe("Won't Do")
    expect(w.record()!.halted).toMatch(/still reports blocking failures/)
  })

  it('goes on when the re-run resolves them', async () => {
    const w = await drive({}, (k) =>
      k.profile === 'researcher' && k.attempt === 0 ? { text: blocked } : {}
    )
    expect(runs(w).slice(0, 3)).toEqual([
      'Todo/researcher/0',
      'Todo/researcher/1',
      'Researching/implementer/0'
    ])
  })
})
