import type { Location } from '../errors.js'

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

/** An `issue_entered_state` automation: entering one of `states` runs `profile`. */
export interface AutomationConfig {
  id: string
  enabled: boolean
  states: string[]
  profile: string
  /** Liquid text, not interpolated. */
  instructions?: string
  /** File line where the instructions text starts. */
  instructionsLine?: number
  moveToState?: string
  /** Each entry into the state waits for a person's approval before its stage runs. */
  requireApproval?: boolean
}

export type ReviewQuorum = 'any_block' | 'majority' | 'unanimous'

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
