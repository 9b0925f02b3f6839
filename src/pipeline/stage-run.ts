import type { AutomationConfig, ProfileConfig, WorkflowConfig } from '../config/types.js'
import type { StageKey } from '../git/trailers.js'
import { runTimestamp } from '../handoff/index.js'
import type { Issue, PreparedBranch } from './ports.js'
import { hasFlag } from './decision/flags.js'
import { NEEDS_ATTENTION_LABEL } from './names.js'
import type { StagePlan } from './decision/plan.js'
import { handoffReason, type HandoffReason } from './record/provenance.js'

/**
 * One stage of one issue, as planned and prepared: made once, then read by the stage, its saved
 * context and the job's tail, rather than copied field by field from one to the next.
 */
export interface StageRun {
  /** Which stage of which issue: its commit carries this, so it is never run twice. */
  key: StageKey
  issue: Issue
  automation: AutomationConfig
  profile: ProfileConfig
  plan: StagePlan
  branch: PreparedBranch
  /** `<run id>/<attempt>`: names this run in trailers and the record. */
  run: string
  runUrl?: string | undefined
  startedAt: Date
  /** The run's timestamp: names its handoff file. */
  timestamp: string
  /** Why the work came to this stage, for its provenance. */
  handoffReason: HandoffReason
  /** What is left of the cost budget, for a CLI that can enforce one. */
  maxBudgetUsd?: number | undefined
}

export function stageRun(o: {
  config: WorkflowConfig
  issue: Issue
  state: string
  automation: AutomationConfig
  plan: StagePlan
  branch: PreparedBranch
  run: { id: string; attempt: string; url?: string | undefined }
}): StageRun {
  const { config, issue, state, plan } = o
  const profile = config.agent.profiles[plan.profile]!
  const startedAt = new Date()
  return {
    key: {
      issue: issue.id,
      state,
      entry: plan.entry,
      kind: plan.kind,
      profile: plan.profile,
      attempt: plan.attempt,
      round: plan.round,
      resume: plan.resume,
      event: plan.automation?.key
    },
    issue,
    automation: o.automation,
    profile,
    plan,
    branch: o.branch,
    run: `${o.run.id}/${o.run.attempt}`,
    runUrl: o.run.url,
    startedAt,
    timestamp: plan.timestamp ?? runTimestamp(startedAt),
    handoffReason: handoffReason({
      kind: plan.kind,
      attempt: plan.attempt,
      resume: plan.resume,
      escalated: hasFlag(issue.labels, NEEDS_ATTENTION_LABEL)
    })
  }
}

/** What every result of a job that got as far as a stage says of it. */
export function stageEnding(stage: StageRun): {
  issue: Issue
  state: string
  plan: StagePlan
  branch: string
} {
  return {
    issue: stage.issue,
    state: stage.key.state,
    plan: stage.plan,
    branch: stage.branch.branch
  }
}
