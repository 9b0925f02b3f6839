import type { PricedRun } from '../agent/prices.js'
import type { AgentStats } from '../agent/types.js'
import type {
  Issue,
  JobSections,
  JobTrigger,
  PullRequestRef,
  Slots,
  StageClaims,
  Tracker,
  Workspace
} from './ports.js'
import type { StageOutcome } from './record/outcome.js'
import type { StagePlan } from './decision/plan.js'
import type { IssueRecord } from './record/record.js'
import type { StageJob, StageResult } from './stage/stage.js'
import type { StageRun } from './stage-run.js'
import type { PromptFigures } from './stage/stage-prompt.js'
import type { AgentRequests, Next } from './record/next.js'

// The values that flow through the one job loop (job.ts) and its four phases.

/** A job: its trigger and ports, and what its stage reads (StageJob). */
export interface JobInput extends StageJob {
  trigger: JobTrigger
  tracker: Tracker
  workspace: Workspace
  /** The job's run: `id` is stable across re-runs, `attempt` is not. */
  run: { id: string; attempt: string; url?: string }
  /** Told once the stage to run is known, before the agent starts. */
  onStart?: (run: StageRun, recovered: boolean) => void
  /** The stop switch for every issue (the action's `paused` input, from ITERVOX_PAUSED). */
  paused?: boolean
  /** agent.max_concurrent_agents across jobs; absent: no limit (and no request for one). */
  slots?: Slots
  /** Claims each stage's one agent run across jobs; absent where one process runs them all. */
  claims?: StageClaims
  /** The stage runner; tests of the loop pass a stand-in. */
  stage?: (job: StageJob, run: StageRun) => Promise<StageResult>
  log?: (line: string) => void
  /** The job log's sections, one per phase. */
  sections?: JobSections
}

/** How one job ended: everything the action's outputs and the CLI's lines are made from. */
export interface JobResult {
  outcome: StageOutcome
  reason: string
  issue?: Issue
  state?: string
  plan?: StagePlan
  branch?: string
  commit?: string
  handoffPath?: string
  rescuedTo?: string
  pullRequest?: PullRequestRef
  next?: Next
  /** What the pipeline does next, in a sentence. */
  summary?: string
  /** The issue's state once the job is done. */
  stateAfter?: string | null
  record?: IssueRecord
  requests?: AgentRequests
  refused: string[]
  /** Secrets kept from a commit, a comment or the record: where, and which kind. */
  withheld: string[]
  warnings: string[]
  figures?: PromptFigures
  prompt?: string
  agentStats?: AgentStats
  /** What the run cost and where the figure came from (the CLI, or a price table). */
  cost?: PricedRun
  /** The agent's final text (capped; secrets redacted). */
  resultText?: string
  /** The job must fail, whatever the stage's outcome: the pipeline cannot go on by itself. */
  failure?: string
  /** A deliverable that could be pushed nowhere: its text, for the job summary. */
  unsaved?: { path: string; text: string }
  /** Effects an earlier run owed that this job carried out. */
  finishedOwed: number
  durationMs: number
}

/** What a phase says of the job's end; `end()` in job.ts makes the result from it. */
export type Ending = Partial<JobResult> & Pick<JobResult, 'outcome' | 'reason'>

/** A phase ended the job. */
export interface Stop {
  stop: Ending
}

/** The running job: its input (the tracker guarded) and what its phases gather on the way. */
export interface Job extends JobInput {
  startedMs: number
  /** Secrets kept out of what the job wrote, one line each. */
  withheld: string[]
  /** Steps an earlier run owed that this job carried out. */
  finishedOwed: number
  /** Whether this job holds an agent slot, to give back however it ends. */
  slotHeld: boolean
}
