// `itervox-handoff run --restart`: a local issue whose pipeline stopped (the failed state, or
// flagged where it was) starts again with the trail kept, and a plain run says how.
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseRecord } from '../../src/pipeline/record/record.js'
import { parseLocalIssue } from '../../src/tracker/local.js'
import { cliFromSource, git, ISSUE, localPipeline } from './helpers.js'
import { cliInProcess } from './in-process.js'

const stateOf = (repo: string) =>
  parseLocalIssue(readFileSync(join(repo, '.itervox/issues/ENG-1.md'), 'utf8'), 'ENG-1', 'x').state

const recordOf = (repo: string) =>
  parseRecord(
    (
      JSON.parse(readFileSync(join(repo, '.itervox/runs/ENG-1.json'), 'utf8')) as {
        record: unknown
      }
    ).record
  )!

const partialsOn = (repo: string) =>
  git(repo, 'ls-tree', '--name-only', 'itervox/ENG-1:.itervox/handoff')
    .split('\n')
    .filter((f) => f.endsWith('_implementer.partial.md'))

const lastPrompt = (prompts: string) =>
  readFileSync(join(prompts, readdirSync(prompts).sort().at(-1)!), 'utf8')

const failing = { ITERVOX_TEST_AGENT: JSON.stringify({ implementer: 'fail' }) }

describe('itervox-handoff run --restart', () => {
  it('starts a blocked issue again in the state it stopped in, with the earlier handoffs in the prompt', async () => {
    const { repo, prompts } = localPipeline({ retries: 1 })
    const env = { ...failing, ITERVOX_TEST_AGENT_PROMPTS: prompts }
    const blocked = await cliInProcess(repo, ['run', '--issue', 'ENG-1', '--until-idle'], env)
    expect(blocked.code).toBe(1)
    expect(stateOf(repo)).toBe('Blocked')
    const partials = partialsOn(repo)
    expect(partials).toHaveLength(2)

    const plain = await cliInProcess(repo, ['run', '--issue', 'ENG-1'], env)
    expect(plain.code).toBe(0)
    expect(plain.stdout.split('\n')).toEqual([
      expect.stringMatching(
        /^ENG-1 is in "Blocked"; nothing to run: the pipeline stopped \(implementer failed 2 times, .*\); to start "Implementing" again: itervox-handoff run --issue ENG-1 --restart$/
      ),
      ''
    ])
    // Editing the state back is undone by the escalation's move the record still owes.
    const file = join(repo, '.itervox/issues/ENG-1.md')
    writeFileSync(file, readFileSync(file, 'utf8').replace('"Blocked"', '"Implementing"'))
    const edited = await cliInProcess(repo, ['run', '--issue', 'ENG-1'], env)
    expect(edited.stdout).toMatch(
      /^── Deciding\nENG-1 is in "Blocked"; nothing to run: the pipeline stopped .*; to start "Implementing" again: itervox-handoff run --issue ENG-1 --restart\n$/
    )
    const ran = readdirSync(prompts).length

    const restarted = await cliFromSource(repo, ['run', '--issue', 'ENG-1', '--restart'], {
      ITERVOX_TEST_AGENT_PROMPTS: prompts
    })
    expect([restarted.code, restarted.stderr]).toEqual([0, ''])
    expect(restarted.stdout).toMatch(
      /^── Deciding\n── Preparing itervox\/ENG-1\nimplementer in "Implementing": running\n── Running implementer\n── Publishing\n✓ implementer in "Implementing" · succeeded · \d+\.\ds · moved to "Reviewing" \(automation implement\)\n/
    )
    expect(stateOf(repo)).toBe('Reviewing')
    // The agent ran again, and was shown what the blocked attempts left.
    expect(readdirSync(prompts)).toHaveLength(ran + 1)
    const prompt = lastPrompt(prompts)
    for (const p of partials) {
      expect(prompt).toContain(
        `### ${p} (partial — prior agent exited before completing this deliverable)`
      )
    }
    expect(partialsOn(repo)).toEqual(partials)

    const record = recordOf(repo)
    expect(record.restarts).toEqual([
      expect.objectContaining({
        from: 'Blocked',
        to: 'Implementing',
        halted: expect.stringContaining('implementer failed 2 times')
      })
    ])
    expect(record.halted).toBeUndefined()
    const [before, after] = record.stages.filter((s) => s.profile === 'implementer').slice(-2)
    expect(after).toMatchObject({ outcome: 'succeeded', attempt: 0 })
    expect(after!.entry).toBeGreaterThan(before!.entry)
    const note = readFileSync(join(repo, '.itervox/issues/ENG-1.md'), 'utf8')
    expect(note).toContain('restarted the pipeline in "Implementing"** (it was in "Blocked")')

    // Going on is a plain run again.
    const next = await cliInProcess(repo, ['run', '--issue', 'ENG-1'], env)
    expect(next.stdout).toContain('moved to "Done" (automation review)')
  })

  it('starts an issue flagged needs-attention (no failed state) again, and in the state --state names', async () => {
    const { repo, prompts } = localPipeline({
      retries: 0,
      workflow: (text) => text.replace(/^ {2}failed_state: .*\n/m, '')
    })
    const env = { ...failing, ITERVOX_TEST_AGENT_PROMPTS: prompts }
    const stopped = await cliInProcess(repo, ['run', '--issue', 'ENG-1', '--until-idle'], env)
    expect(stopped.code).toBe(1)
    expect(stateOf(repo)).toBe('Implementing')

    // Its state still starts a stage, but the pipeline stopped there: a plain run runs nothing.
    const plain = await cliInProcess(repo, ['run', '--issue', 'ENG-1'], env)
    expect(plain.stdout).toMatch(
      /nothing to run: the pipeline stopped .*; to start "Implementing" again: itervox-handoff run --issue ENG-1 --restart\n$/
    )
    const again = await cliInProcess(repo, ['run', '--issue', 'ENG-1', '--restart'], env)
    expect(again.code).toBe(1)
    expect(again.stdout).toContain('✗ implementer in "Implementing" · failed (exit code 1)')
    expect(partialsOn(repo)).toHaveLength(2)

    const research = await cliInProcess(
      repo,
      ['run', '--issue', 'ENG-1', '--restart', '--state', 'todo'],
      env
    )
    expect(research.code).toBe(0)
    expect(research.stdout).toContain('✓ researcher in "Todo" · succeeded')
    expect(recordOf(repo).restarts?.map((r) => [r.from, r.to])).toEqual([
      ['Implementing', 'Implementing'],
      ['Implementing', 'Todo']
    ])
  })

  it('refuses a restart of a running pipeline, and a --state that starts nothing', async () => {
    const { repo } = localPipeline()
    const running = await cliInProcess(repo, ['run', '--issue', 'ENG-1', '--restart'])
    expect([running.code, running.stderr]).toEqual([
      1,
      '--restart: ENG-1 is in "Todo" and its pipeline has not stopped; run it without --restart\n'
    ])
    writeFileSync(join(repo, '.itervox/issues/ENG-1.md'), ISSUE('Blocked'))
    const done = await cliInProcess(repo, [
      'run',
      '--issue',
      'ENG-1',
      '--restart',
      '--state',
      'Don'
    ])
    expect([done.code, done.stderr]).toEqual([
      1,
      '--state: "Don" starts no automation of WORKFLOW.md; the states that start one are Todo, Implementing, Reviewing\n'
    ])
    const lone = await cliInProcess(repo, ['run', '--issue', 'ENG-1', '--state', 'Todo'])
    expect([lone.code, lone.stderr.split('\n')[1]]).toEqual([
      2,
      'run: --state goes with --restart: --restart --state STATE'
    ])
    const typo = await cliInProcess(repo, ['run', '--issue', 'ENG-1', '--restrat'])
    expect(typo.stderr.split('\n')[1]).toBe(
      'run: unknown option --restrat; did you mean --restart?'
    )
    // With no record (deleted), a blocked issue starts again in the pipeline's first state.
    const first = await cliInProcess(repo, ['run', '--issue', 'ENG-1', '--restart'])
    expect(first.stdout).toContain('✓ researcher in "Todo" · succeeded')
  })

  it('prints no agent log for a stage recovered from the branch, which ran no agent', async () => {
    const { repo } = localPipeline()
    writeFileSync(join(repo, '.itervox/issues/ENG-1.md'), ISSUE('Implementing'))
    git(repo, 'commit', '--quiet', '-am', 'implementing')
    const failed = await cliInProcess(repo, ['run', '--issue', 'ENG-1'], failing)
    expect(failed.stdout).toMatch(/agent log: .*agent\.log/)
    // Without its record, the run finds the failed attempt's commit and replays it.
    rmSync(join(repo, '.itervox/runs/ENG-1.json'))
    const replayed = await cliInProcess(repo, ['run', '--issue', 'ENG-1'], failing)
    expect(replayed.stdout).toContain('✗ implementer in "Implementing" · failed (exit code 1)')
    expect(replayed.stdout).not.toContain('agent log:')
  })
})
