import { describe, expect, it } from '@jest/globals'
import { BUDGET_SPENT } from '../../../src/agent/classify.js'
import type { StageFacts } from '../../../src/pipeline/record/next.js'
import { decideNext, TRANSITION_BUDGET } from '../../../src/pipeline/settle/transitions.js'
import { seedConfig } from '../pipeline-config.js'

const config = seedConfig()
const facts = (over: Partial<StageFacts> = {}): StageFacts => ({
  config,
  automation: config.automations[0]!,
  kind: 'work',
  state: 'Todo',
  profile: 'researcher',
  outcome: 'succeeded',
  reason: 'exit code 0',
  attempt: 0,
  recheckSpent: false,
  round: 0,
  visited: ['Todo'],
  transitions: 0,
  requests: {},
  ...over
})

describe('decideNext', () => {
  it("moves by the automation's policy after a success", () => {
    expect(decideNext(facts())).toEqual({
      kind: 'move',
      to: 'Researching',
      why: 'automation research'
    })
  })

  it('lets a permitted move_state from the agent take precedence over the policy', () => {
    expect(decideNext(facts({ requests: { moveState: 'Done' } }))).toMatchObject({
      kind: 'move',
      to: 'Done'
    })
  })

  it('retries failed, stalled, timed-out and rate-limited runs until max_retries, then escalates to the failed state', () => {
    for (const outcome of ['failed', 'stalled', 'timed_out', 'rate_limited'] as const) {
      expect(decideNext(facts({ outcome, attempt: 0 }))).toMatchObject({
        kind: 'retry',
        attempt: 1
      })
      const spent = decideNext(
        facts({ outcome, attempt: 1, handoffPath: '.itervox/handoff/x.partial.md' })
      )
      expect(spent).toMatchObject({ kind: 'escalate', to: "Won't Do" })
      expect(spent.kind === 'escalate' && spent.why).toContain('.itervox/handoff/x.partial.md')
    }
  })

  it('does not retry a run that the CLI stopped at its cost budget: escalates, or hands it to the fallback', () => {
    const reason = `${BUDGET_SPENT}Reached maximum budget ($0.001)`
    const spent = decideNext(facts({ outcome: 'failed', reason, attempt: 0 }))
    expect(spent).toEqual({
      kind: 'escalate',
      to: "Won't Do",
      why: 'the researcher stage stopped at its cost budget (Reached maximum budget ($0.001)); no retry'
    })
    const withFallback = seedConfig({ researcher: 'fallback_profile: reviewer' })
    expect(
      decideNext(facts({ config: withFallback, outcome: 'failed', reason, attempt: 0 }))
    ).toMatchObject({ kind: 'retry', attempt: 0, profile: 'reviewer' })
  })

  it('re-runs once with the refusal when the deliverable fails its checks, then escalates', () => {
    const reason = 'the deliverable is not acceptable: missing section "Risks"'
    expect(decideNext(facts({ outcome: 'failed', reason }))).toMatchObject({
      kind: 'retry',
      recheck: 'missing section "Risks"'
    })
    expect(decideNext(facts({ outcome: 'failed', reason, recheckSpent: true }))).toMatchObject({
      kind: 'escalate'
    })
  })

  it('waits on input_required and stops on a cancel without retrying', () => {
    expect(decideNext(facts({ outcome: 'input_required', question: 'Which format?' }))).toEqual({
      kind: 'wait',
      question: 'Which format?'
    })
    expect(decideNext(facts({ outcome: 'cancelled' }))).toMatchObject({ kind: 'stop' })
  })

  it('sends a success to review when auto_review is on, and acts on the verdict', () => {
    const review = seedConfig({ agent: 'auto_review: true\nreviewer_profile: reviewer' })
    expect(decideNext(facts({ config: review }))).toEqual({
      kind: 'review',
      reviewer: 'reviewer',
      pendingMove: 'Researching'
    })
    const base = {
      config: review,
      kind: 'review' as const,
      profile: 'reviewer',
      pendingMove: 'Researching',
      reviewed: 'researcher'
    }
    expect(decideNext(facts({ ...base, requests: { verdict: 'PASS' } }))).toMatchObject({
      kind: 'move',
      to: 'Researching'
    })
    expect(
      decideNext(facts({ ...base, requests: { verdict: 'FAIL' }, handoffPath: 'r.md' }))
    ).toEqual({
      kind: 'rework',
      profile: 'researcher',
      round: 1,
      findings: 'r.md'
    })
    expect(decideNext(facts({ ...base, requests: { verdict: 'FAIL' }, round: 2 }))).toMatchObject({
      kind: 'escalate'
    })
    expect(decideNext(facts({ ...base }))).toMatchObject({
      kind: 'retry',
      recheck: expect.stringContaining('verdict')
    })
  })

  it('runs agent.reviewer_profiles one after another and combines their verdicts by agent.review_quorum', () => {
    const chain = (quorum: string) =>
      seedConfig({
        agent: `auto_review: true\nreviewer_profiles: [reviewer, implementer]\nreview_quorum: ${quorum}`
      })
    const review = (
      config: ReturnType<typeof seedConfig>,
      profile: string,
      verdict: 'PASS' | 'FAIL',
      earlier: Array<['reviewer' | 'implementer', 'PASS' | 'FAIL']> = []
    ) =>
      decideNext(
        facts({
          config,
          kind: 'review',
          profile,
          pendingMove: 'Researching',
          reviewed: 'researcher',
          requests: { verdict },
          handoffPath: `${profile}.md`,
          verdicts: earlier.map(([p, v]) => ({ profile: p, verdict: v, handoffPath: `${p}.md` }))
        })
      )
    const anyBlock = chain('any_block')
    expect(decideNext(facts({ config: anyBlock }))).toEqual({
      kind: 'review',
      reviewer: 'reviewer',
      pendingMove: 'Researching'
    })
    // The first reviewer's PASS hands the work to the second; its FAIL decides (any_block).
    expect(review(anyBlock, 'reviewer', 'PASS')).toEqual({
      kind: 'review',
      reviewer: 'implementer',
      pendingMove: 'Researching'
    })
    expect(review(anyBlock, 'reviewer', 'FAIL')).toMatchObject({
      kind: 'rework',
      findings: 'reviewer.md'
    })
    expect(review(anyBlock, 'implementer', 'PASS', [['reviewer', 'PASS']])).toMatchObject({
      kind: 'move',
      to: 'Researching'
    })
    // unanimous and majority hear every reviewer before deciding.
    const unanimous = chain('unanimous')
    expect(review(unanimous, 'reviewer', 'FAIL')).toMatchObject({
      kind: 'review',
      reviewer: 'implementer'
    })
    expect(review(unanimous, 'implementer', 'PASS', [['reviewer', 'FAIL']])).toMatchObject({
      kind: 'rework',
      findings: 'reviewer.md'
    })
    const majority = chain('majority')
    // One PASS of two is no majority (a tie fails).
    expect(review(majority, 'implementer', 'PASS', [['reviewer', 'FAIL']])).toMatchObject({
      kind: 'rework'
    })
    expect(review(majority, 'implementer', 'PASS', [['reviewer', 'PASS']])).toMatchObject({
      kind: 'move'
    })
  })

  it('counts a move back to a state the issue was in as a review round, up to agent.max_review_rounds', () => {
    const back = {
      automation: config.automations[2]!,
      state: 'Implementing',
      profile: 'reviewer',
      visited: ['Todo', 'Researching', 'Implementing'],
      requests: { moveState: 'Researching' }
    }
    expect(decideNext(facts(back))).toEqual({
      kind: 'move',
      to: 'Researching',
      why: 'reviewer asked for it; review round 2',
      round: 1
    })
    expect(decideNext(facts({ ...back, round: 1 }))).toMatchObject({ kind: 'move', round: 2 })
    const spent = decideNext(facts({ ...back, round: 2, handoffPath: 'r.md' }))
    expect(spent).toMatchObject({ kind: 'escalate', to: "Won't Do" })
    expect(spent.kind === 'escalate' && spent.why).toBe(
      'reviewer sent the work back to "Researching" after 3 review rounds (agent.max_review_rounds: 3); its reasons are in r.md; a person needs to look at it, then move the issue into a state to start again'
    )
    // On through the pipeline, or to a state not yet visited, is no new round.
    expect(decideNext(facts({ ...back, round: 2, requests: { moveState: 'Done' } }))).toMatchObject(
      { kind: 'move', to: 'Done' }
    )
    const onward = { ...back, state: 'Researching', automation: config.automations[1]! }
    expect(decideNext(facts({ ...onward, round: 2, requests: {} }))).toEqual({
      kind: 'move',
      to: 'Implementing',
      why: 'automation implement'
    })
  })

  it('uses agent.max_review_rounds for auto_review too', () => {
    const five = seedConfig({
      agent: 'auto_review: true\nreviewer_profile: reviewer\nmax_review_rounds: 5'
    })
    const fail = {
      config: five,
      kind: 'review' as const,
      profile: 'reviewer',
      reviewed: 'researcher',
      requests: { verdict: 'FAIL' as const }
    }
    expect(decideNext(facts({ ...fail, round: 3 }))).toMatchObject({ kind: 'rework', round: 4 })
    expect(decideNext(facts({ ...fail, round: 4 }))).toMatchObject({
      kind: 'escalate',
      why: expect.stringContaining('agent.max_review_rounds: 5')
    })
  })

  it('stops a loop once the transition budget is spent, with a clear reason', () => {
    const next = decideNext(facts({ transitions: TRANSITION_BUDGET }))
    expect(next).toMatchObject({ kind: 'escalate', to: "Won't Do" })
    expect(next.kind === 'escalate' && next.why).toContain('cannot loop forever')
  })

  it('says why it stops when no move follows a stage', () => {
    const last = config.automations[2]!
    const noMove = { ...last, moveToState: undefined }
    expect(decideNext(facts({ automation: noMove, profile: 'reviewer' }))).toMatchObject({
      kind: 'stop'
    })
  })
})
