import { knownStates } from '../../config/load.js'
import { sameState } from '../../config/lookup.js'
import type { AutomationConfig, WorkflowConfig } from '../../config/types.js'
import { recordAfter } from '../record/record-after.js'
import { recordAfterAutomation } from '../triggers/after.js'
import { blockingFailures } from './blocking-failures.js'
import type { StagePlan } from '../decision/plan.js'
import { moveScope } from '../decision/move-scope.js'
import { recordStage, recordStart, type IssueRecord, type RecoveryKind } from '../record/record.js'
import { readContractFields, type ContractFields } from '../../handoff/contract-fields.js'
import { clip } from '../untrusted-text.js'
import { givenVerdicts } from '../record/review-chain.js'
import { permittedRequests, readRequests } from '../decision/requests.js'
import type { FinalisedStage } from '../stage/stage.js'
import type { AgentRequests, Next } from '../record/next.js'
import { decideNext } from './transitions.js'

export interface Settled {
  next: Next
  /** The record with this stage and the decision in it, ready to store. */
  record: IssueRecord
  /** The record with this stage only: what to store when the decision could not be carried out. */
  staged: IssueRecord
  /** What the agent asked for and its profile permits. */
  requests: AgentRequests
  /** Everything refused: paths not committed, `.git` changes put back, requests. */
  refused: string[]
}

/**
 * What a finished stage means for the pipeline, the same for the action and the CLI: the
 * agent's permitted requests (read from the committed deliverable), the next step, and the
 * issue's record afterwards. Carrying the step out is the tracker adapter's part.
 */
export async function settleStage(o: {
  /** Reads a committed file (the deliverable, for its requests). */
  readCommitted: (commit: string, path: string, maxBytes: number) => Promise<string | null>
  config: WorkflowConfig
  automation: AutomationConfig
  state: string
  plan: StagePlan
  record: IssueRecord
  result: FinalisedStage
  /** The commit holding the deliverable (after any rebase on push). */
  commit: string | null
  run: string
  runUrl?: string
  startedAt: Date
  /** The run's timestamp: a stage that waits for input resumes on the same handoff path. */
  timestamp: string
  /** The work did not reach the issue branch: the pipeline cannot go on without a person. */
  unpublished?: string
  /** Where the work went instead of the issue branch. */
  rescuedTo?: string
}): Promise<Settled> {
  const { config, plan, result } = o
  const profile = config.agent.profiles[plan.profile]!
  const refused = refusalsOf(result)
  let requests: AgentRequests = {}
  const refusedRequests: string[] = []
  let fields: ContractFields = {}
  let blocking: string | null = null
  if (result.outcome === 'succeeded' && result.handoffPath && o.commit && !o.unpublished) {
    const text = await o.readCommitted(o.commit, result.handoffPath, config.handoff.maxFileBytes)
    blocking = blockingFailures(text ?? '')
    const read = readRequests(text ?? '')
    const allowed = permittedRequests(read.requests, profile.allowedActions, knownStates(config), {
      from: o.state,
      profile: plan.profile,
      states: moveScope(config, o.state, profile)
    })
    requests = allowed.permitted
    const contract = readContractFields(text ?? '')
    fields = recordedFields(contract.fields)
    refusedRequests.push(...read.problems, ...contract.notices, ...allowed.refused)
    refused.push(...refusedRequests.map((r) => `request refused: ${r}`))
  }
  const started = recordStart(o.record, o.state, plan)
  const visited = started.visited ?? []
  if (!visited.some((s) => sameState(s, o.state))) started.visited = [...visited, o.state]
  const decided = decideNext({
    config,
    automation: o.automation,
    kind: plan.kind,
    state: o.state,
    profile: plan.profile,
    outcome: result.outcome,
    reason: result.reason,
    attempt: plan.attempt,
    recheckSpent: Boolean(plan.recheck),
    round: plan.round,
    visited: started.visited ?? [],
    transitions: o.record.transitions,
    requests,
    pendingMove: o.record.pendingMove,
    reviewed: plan.reviewed,
    verdicts: givenVerdicts(o.record, { entry: plan.entry, round: plan.round, state: o.state }),
    question: result.agent?.question,
    handoffPath: result.handoffPath,
    recovery: plan.recovery,
    recovered: recoveredIn(o.record, plan, o.state),
    blocking: blocking ?? undefined,
    verifyTail: result.verify && !result.verify.passed ? result.verify.tail : undefined
  })
  const next: Next = o.unpublished ? { kind: 'escalate', why: o.unpublished } : decided
  const stage = {
    entry: plan.entry,
    state: o.state,
    profile: plan.profile,
    kind: plan.kind,
    attempt: plan.attempt
  }
  const stats = result.agent?.stats
  // A helper run leaves where the pipeline is as it was (triggers/after.ts).
  const record = recordStage(plan.automation ? o.record : started, {
    ...stage,
    round: plan.round,
    outcome: result.outcome,
    reason: result.reason.slice(0, 300),
    run: o.run,
    runUrl: o.runUrl || undefined,
    startedAt: o.startedAt.toISOString(),
    durationMs: Date.now() - o.startedAt.getTime(),
    handoffPath: result.handoffPath ?? undefined,
    commit: o.commit ?? undefined,
    rescuedTo: o.rescuedTo,
    // Empty lists and objects stay out: the record is kept small.
    agent: stats && Object.keys(stats).length > 0 ? stats : undefined,
    refused:
      refusedRequests.length > 0
        ? refusedRequests.slice(0, 10).map((r) => r.slice(0, 300))
        : undefined,
    withheld: result.withheld.length > 0 ? result.withheld.slice(0, 10) : undefined,
    fields: Object.keys(fields).length > 0 ? fields : undefined,
    recovery: plan.recovery && { kind: plan.recovery.kind, from: plan.recovery.from || undefined },
    verify: result.verify,
    verdict: plan.kind === 'review' ? requests.verdict : undefined,
    automation: plan.automation && { id: plan.automation.id, event: plan.automation.key }
  })
  const current = {
    kind: plan.kind,
    profile: plan.profile,
    round: plan.round,
    run: o.run,
    reviewed: plan.reviewed
  }
  return {
    next,
    record: plan.automation
      ? recordAfterAutomation(record, next, plan.profile)
      : recordAfter(record, next, { ...stage, timestamp: o.timestamp }, current),
    staged: record,
    requests,
    refused
  }
}

/** The recoveries run for this stage in its entry and round so far, this run's included. */
function recoveredIn(record: IssueRecord, plan: StagePlan, state: string): RecoveryKind[] {
  const earlier = record.stages
    .filter((s) => s.entry === plan.entry && s.round === plan.round && sameState(s.state, state))
    .flatMap((s) => (s.recovery ? [s.recovery.kind] : []))
  return plan.recovery ? [...earlier, plan.recovery.kind] : earlier
}

/** Paths left out of the commit and what was put back under `.git`, one line each. */
function refusalsOf(r: FinalisedStage): string[] {
  // A file refused for a secret is reported once, among the secrets withheld.
  const out = r.commit.dropped
    .filter((d) => !d.screened)
    .map((d) => `${d.path} was not committed: ${d.reason}`)
  if (r.gitDir) {
    out.push(...r.gitDir.changes.map((c) => `.git change put back: ${c.path} (${c.change})`))
    out.push(...r.gitDir.configKeys.map((k) => `.git/config key put back: ${k}`))
    if (r.gitDir.branchMoved) {
      out.push('the agent moved the branch; its files were judged, not its commits')
    }
  }
  return out
}

// The record is kept small (it lives in a comment): a few items of each list, each clipped.
function recordedFields(f: ContractFields): ContractFields {
  const few = (l: string[] | undefined) => l?.slice(0, 5).map((v) => clip(v, 200))
  const out: ContractFields = {}
  const keyFacts = few(f.keyFacts)
  const decisions = few(f.decisions)
  const openQuestions = few(f.openQuestions)
  if (keyFacts) out.keyFacts = keyFacts
  if (decisions) out.decisions = decisions
  if (openQuestions) out.openQuestions = openQuestions
  if (f.confidence !== undefined) out.confidence = f.confidence
  return out
}
