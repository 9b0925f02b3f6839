import type { Location } from '../errors.js'
import type { CronSchedule } from './cron.js'

export interface TokenPrice {
  inputPerMTok: number
  outputPerMTok: number
}

/** One agent profile, with its SOUL.md and INSTRUCTIONS.md already read. */
export interface ProfileConfig {
  name: string
  command: string
  argv: string[]
  /** Where the command is set: the profile's `command`, else `agent.command`, else the profile. */
  commandAt: { line: number; key: string }
  /** Repository-relative path of SOUL.md, as read. */
  soulFile: string
  soulText: string
  /** File line of the `soul_file` key in WORKFLOW.md. */
  soulLine: number
  /** Repository-relative path of INSTRUCTIONS.md, as read. */
  instructionsFile: string
  instructionsText: string
  /** Lower-cased, de-duplicated and sorted. */
  allowedActions: string[]
  /** States a `move_state` may name beyond the pipeline's own (see move-scope.ts), as written. */
  allowedStates: string[]
  enabled: boolean
  /** Globs the profile may commit besides its deliverable. */
  commitPaths: string[]
  /** Section headings its deliverable must have. */
  requiredSections: string[]
  /**
   * Environment variables the agent may receive from the job's environment, on top of its
   * preset's model variables; in the order written, each once. Never a runner variable.
   */
  env: string[]
  /** What one stage of this profile may cost, its attempts together; absent: no cap of its own. */
  maxCostUsd?: number
  /** The profile that runs the stage once when this one's retries are spent. */
  fallbackProfile?: string
  /** Shell commands run in the agent's tree after it succeeds; each must exit 0. */
  verify: string[]
  /** The deadline of each verify command. */
  verifyTimeoutMs: number
}

/** The itervox trigger types, each a GitHub event or a moment of the job (docs/workflow-md.md). */
export const TRIGGER_TYPES = [
  'issue_entered_state',
  'cron',
  'tracker_comment_added',
  'pr_opened',
  'pr_merged',
  'run_failed',
  'input_required',
  'issue_moved_to_backlog',
  'rate_limited',
  'blockers_resolved'
] as const

export type TriggerType = (typeof TRIGGER_TYPES)[number]

/** What starts an automation, with the policies only that trigger type has. */
export type AutomationTrigger =
  /** The states are the automation's `states`. */
  | { type: 'issue_entered_state' }
  | { type: 'cron'; schedule: CronSchedule }
  | { type: 'tracker_comment_added' }
  | { type: 'pr_opened' }
  | { type: 'pr_merged' }
  | { type: 'run_failed' }
  /** autoResume: the profile may answer the question and resume the stage (policy.auto_resume). */
  | { type: 'input_required'; autoResume: boolean }
  | { type: 'issue_moved_to_backlog' }
  | {
      type: 'rate_limited'
      /** The profile the stage runs under instead (policy.switch_to_profile). */
      switchToProfile: string
      /** Written for the daemon; this runner runs switchToProfile's own command. */
      switchToBackend?: 'claude' | 'codex'
      /** How long one (issue, profile) is not switched again after a switch. */
      cooldownMinutes: number
    }
  /** The move is the automation's `moveToState`. */
  | { type: 'blockers_resolved' }

/**
 * Which issues an automation considers, as the daemon's `filter.*`. Unset conditions are
 * absent (or empty lists); with none set every issue matches.
 */
export interface AutomationFilter {
  /** all: every condition set must hold; any: one is enough. */
  matchMode: 'all' | 'any'
  /** The issue is in one of these states (`states`, alias `states_any`). */
  states: string[]
  /** The issue has one of these labels. */
  labelsAny: string[]
  /** The identifier (`#12`, `ENG-12`) matches. */
  identifierRegex?: RegExp
  /** At most this many issues per firing. */
  limit?: number
  /** The question an agent asked matches (input_required). */
  inputContextRegex?: RegExp
  /** input_required only: the question was asked at most this long ago. */
  maxAgeMinutes?: number
  /** tracker_comment_added only: the comment contains one of these, ignoring case. */
  bodyContains: string[]
  /** tracker_comment_added only: the comment matches (and so must body_contains, when set). */
  bodyRegex?: RegExp
}

/** One `automations[]` entry: when `trigger` fires for an issue `filter` admits, run `profile`. */
export interface AutomationConfig {
  id: string
  enabled: boolean
  trigger: AutomationTrigger
  /** issue_entered_state: entering one of these starts it; empty for every other trigger. */
  states: string[]
  filter: AutomationFilter
  profile: string
  /** Liquid text, not interpolated. */
  instructions?: string
  /** File line where the instructions text starts. */
  instructionsLine?: number
  /** issue_entered_state: where the issue goes after the stage; blockers_resolved: where it goes. */
  moveToState?: string
  /** issue_entered_state: each entry into the state waits for a person's approval. */
  requireApproval?: boolean
}

type ReviewQuorum = 'any_block' | 'majority' | 'unanimous'

export interface WorkflowConfig {
  /** Display path, as given. */
  file: string
  tracker: {
    kind: 'github' | 'local' | 'linear'
    apiKey?: string
    projectSlug?: string
    activeStates: string[]
    terminalStates: string[]
    completionState?: string
    failedState?: string
    /** States an issue waits in before the pipeline (issue_moved_to_backlog). */
    backlogStates: string[]
    allowedBots: string[]
  }
  /** No base branch means the repository's default branch. */
  workspace: { baseBranch?: string }
  agent: {
    command: string
    maxTurns: number
    maxRetries: number
    stallTimeoutMs: number
    turnTimeoutMs: number
    /**
     * The reviewers of a stage's work, run one after another (agent.reviewer_profiles, else
     * agent.reviewer_profile); empty: none.
     */
    reviewers: string[]
    /** How the reviewers' verdicts combine (see pipeline/review-chain.ts). */
    reviewQuorum: ReviewQuorum
    autoReview: boolean
    /** Review rounds an issue may take: the send-back that would start one more escalates. */
    maxReviewRounds: number
    /** Agents running at once across the repository's issues; absent: no limit. */
    maxConcurrentAgents?: number
    /** Agents running at once in a state (matched as sameState matches), each state once. */
    maxConcurrentAgentsByState: Array<{ state: string; max: number }>
    /** What one issue's stages may cost together; absent: no cap. */
    maxCostUsd?: number
    /** Token prices (USD per million) replacing src/agent/prices.ts for a CLI. */
    prices?: Partial<Record<'codex' | 'gemini', TokenPrice>>
    /** Keyed by profile name; a null-prototype object, so any name is safe to look up. */
    profiles: Record<string, ProfileConfig>
  }
  automations: AutomationConfig[]
  handoff: { budgetBytes: number; maxFileBytes: number; maxFiles: number }
  /** The person who started the pipeline may not approve its gates. */
  approval: { distinctApprover: boolean }
  /** Trimmed Markdown body (the prompt template). */
  body: string
  /** 1-based file line where the body starts. */
  bodyLine: number
}

/** Something that loads but deserves a look, e.g. an itervox daemon key this runner ignores. */
export interface ConfigWarning {
  message: string
  location: Location
}
