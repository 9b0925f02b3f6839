// Several reviewers of one stage's work (agent.reviewer_profiles), run one after another in the
// order written, each a review stage of its own; agent.review_quorum combines their verdicts:
//   any_block  the first FAIL decides (the reviewers after it do not run); all PASS passes.
//   unanimous  every reviewer runs; the work passes only if every one says PASS.
//   majority   every reviewer runs; the work passes when more than half say PASS (a tie fails).
// The verdicts counted are those of this entry and review round, read from the record.
import type { WorkflowConfig } from '../../config/types.js'
import type { IssueRecord } from './record.js'

type Verdict = 'PASS' | 'FAIL'

/** A review already given in this round: who, what, and the deliverable saying why. */
export interface GivenVerdict {
  profile: string
  verdict: Verdict
  handoffPath?: string
}

/** The chain's next step once a reviewer gave its verdict. */
export type ChainStep =
  | { kind: 'next'; reviewer: string }
  | { kind: 'pass' }
  | { kind: 'fail'; findings?: string; why: string }

/**
 * The profile a review continuation runs: the one the record names while it is still one of
 * WORKFLOW.md's reviewers, else the first reviewer (the record is ours, but WORKFLOW.md may have
 * changed since it was written).
 */
export function reviewerOf(config: WorkflowConfig, named: string): string {
  const chain = config.agent.reviewers
  return chain.includes(named) ? named : (chain[0] ?? named)
}

/** The reviews given in `entry` and `round` of `state` before this one, oldest first. */
export function givenVerdicts(
  record: IssueRecord,
  at: { entry: number; round: number; state: string }
): GivenVerdict[] {
  return record.stages.flatMap((s) =>
    s.kind === 'review' && s.entry === at.entry && s.round === at.round && s.verdict
      ? [
          {
            profile: s.profile,
            verdict: s.verdict,
            ...(s.handoffPath ? { handoffPath: s.handoffPath } : {})
          }
        ]
      : []
  )
}

/** What follows `latest`, the verdict of reviewer `profile`, given the round's earlier ones. */
export function chainStep(
  config: WorkflowConfig,
  profile: string,
  latest: GivenVerdict,
  earlier: GivenVerdict[]
): ChainStep {
  const chain = config.agent.reviewers
  const quorum = config.agent.reviewQuorum
  // Each reviewer counts once: a retried reviewer's latest verdict is its own.
  const byProfile = new Map<string, GivenVerdict>()
  for (const v of earlier) if (chain.includes(v.profile)) byProfile.set(v.profile, v)
  byProfile.delete(latest.profile)
  byProfile.set(latest.profile, latest)
  const given = [...byProfile.values()]
  const fails = given.filter((v) => v.verdict === 'FAIL')
  const lastFail = fails[fails.length - 1]
  const fail = (why: string): ChainStep => ({
    kind: 'fail',
    why,
    ...(lastFail?.handoffPath ? { findings: lastFail.handoffPath } : {})
  })
  if (quorum === 'any_block' && lastFail) {
    return fail(`${lastFail.profile} gave FAIL (review_quorum any_block)`)
  }
  const after = chain.indexOf(profile)
  const next = chain.slice(after + 1).find((p) => !byProfile.has(p))
  if (after >= 0 && next !== undefined) return { kind: 'next', reviewer: next }
  const passes = given.length - fails.length
  const voters = Math.max(chain.length, given.length)
  const counted = `${passes} of ${voters} reviewers gave PASS`
  if (quorum === 'majority') {
    return passes * 2 > voters ? { kind: 'pass' } : fail(`${counted} (review_quorum majority)`)
  }
  return fails.length === 0 ? { kind: 'pass' } : fail(`${counted} (review_quorum ${quorum})`)
}
