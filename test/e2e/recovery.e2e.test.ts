import { afterEach, describe, expect, it } from '@jest/globals'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { sharedDir, sharedFile } from '../harness/action-run.js'
import { readRecordFromComment } from '../../src/tracker/comment-record.js'
import { drive } from './drive.js'
import { startPipeline, type Pipeline, type PipelineOptions } from './pipeline-fixture.js'

let current: Pipeline | undefined
afterEach(async () => {
  await current?.gh.stop()
  current = undefined
})

async function pipeline(o: PipelineOptions): Promise<Pipeline> {
  current = await startPipeline(o)
  return current
}

/** Scripts the researcher's successive runs for the fake claude (see fake-claude.mjs). */
function script(runs: { mode?: string; md?: string }[]): Record<string, string> {
  const dir = sharedDir()
  for (const profile of ['researcher', 'implementer', 'reviewer'])
    sharedFile(dir, `${profile}.count`)
  runs.forEach((r, n) => {
    if (r.mode) writeFileSync(join(dir, `researcher.${n}.mode`), r.mode)
    if (r.md) writeFileSync(join(dir, `researcher.${n}.md`), r.md)
  })
  return { ITERVOX_FAKE_AGENT_SCRIPT_DIR: dir }
}

const todo = (p: Pipeline) => ({
  event: 'issues.labeled' as const,
  eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada' }
})

const status = (p: Pipeline) =>
  p.gh.comments(p.issue).find((c) => c.body.startsWith('<!-- itervox:status -->'))!.body

function promptOf(p: Pipeline, run: string): string {
  const [id, attempt] = run.split('/')
  return readFileSync(
    join(p.sb.dir, 'runner-temp', 'itervox-handoff', `${id}-${attempt}-${p.issue}`, 'prompt.md'),
    'utf8'
  )
}

describe('recovery, through the bundled action', () => {
  it('runs the fallback profile once after a rate-limited profile spends its retries', async () => {
    // No retries to spend: the fallback is the next stage.
    const p = await pipeline({ researcher: 'fallback_profile: reviewer', maxRetries: 0 })
    const env = script([{ mode: 'rate_limit' }])
    const runs = await drive(p, todo(p), env, 2)
    expect(runs.map((r) => [r.outputs.profile, r.outputs.outcome])).toEqual([
      ['researcher', 'rate_limited'],
      ['reviewer', 'succeeded']
    ])
    expect(p.gh.labels(p.issue)).toEqual(['Researching'])
    const record = readRecordFromComment(status(p))!
    expect(record.stages.at(-1)).toMatchObject({
      state: 'Todo',
      profile: 'reviewer',
      kind: 'work',
      recovery: { kind: 'fallback', from: 'researcher' }
    })
    expect(status(p)).toContain('recovery: fallback for researcher')
    const prompt = promptOf(p, record.stages.at(-1)!.run)
    expect(prompt).toContain('## Taking over from researcher')
    expect(prompt).toMatch(/~~~text\nrate_limited: .*429/)
    expect(prompt).toMatch(
      /partial deliverable is `\.itervox\/handoff\/[^`]+_researcher\.partial\.md`/
    )
  })

  it('re-runs a profile whose verify command failed, with the output, and goes on once it passes', async () => {
    const check =
      'echo \\"verify as $$(id -un)\\"; grep -q FIXED \\"$$ITERVOX_HANDOFF_PATH\\" || { echo \\"FAIL: the deliverable has no FIXED marker\\"; exit 1; }'
    const p = await pipeline({ researcher: `verify: ["${check}"]` })
    const env = script([{ md: '# Research\n\nDraft.\n' }, { md: '# Research\n\nFIXED.\n' }])
    const runs = await drive(p, todo(p), env, 2)
    expect(runs.map((r) => [r.outputs.profile, r.outputs.outcome])).toEqual([
      ['researcher', 'failed'],
      ['researcher', 'succeeded']
    ])
    expect(p.gh.labels(p.issue)).toEqual(['Researching'])
    const [first, second] = readRecordFromComment(status(p))!.stages
    expect(first).toMatchObject({
      outcome: 'failed',
      reason: expect.stringMatching(/^verification failed: /),
      verify: {
        passed: false,
        // The agent user ran it, not the runner's root.
        tail: expect.stringMatching(
          /^verify as itervox-[a-z0-9-]+\nFAIL: the deliverable has no FIXED marker$/
        )
      }
    })
    expect(second).toMatchObject({
      recovery: { kind: 'verify' },
      verify: {
        passed: true,
        result: '1 command passed',
        tail: expect.stringMatching(/^verify as itervox-[a-z0-9-]+$/)
      }
    })
    const prompt = promptOf(p, second!.run)
    expect(prompt).toContain('## Your previous run failed its verification')
    expect(prompt).toContain('FAIL: the deliverable has no FIXED marker')
    expect(status(p)).toContain('**Verification** (researcher, Todo): passed')
  })
})
