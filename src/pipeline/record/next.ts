import type { AutomationConfig, WorkflowConfig } from '../../config/types.js'
import type { StageOutcome } from './outcome.js'
import type { Recovery, RecoveryKind } from './record.js'
import type { StageKind } from '../../stage-kind.js'
import type { GivenVerdict } from './review-chain.js'

// The state machine's words: how a stage ended (StageFacts) and what follows it (Next). The
// decision is transitions.ts; recovery.ts decides the recoveries within it.

/** What the pipeline does after a stage. */
export type Next =
  /**
   * Move the issue; the stage for the new state starts next (if any). `round` is set when the
   * move sends the work back to a state it was already in: the review round it starts.
   */
  | { kind: 'move'; to: string; why: string; round?: number }
  /** Run the reviewer on the work just done, in the same state. */
  | { kind: 'review'; reviewer: string; pendingMove?: string }
  /** Send the reviewed work back to its profile, in the same state. */
  | { kind: 'rework'; profile: string; round: number; findings?: string }
  /** Run the same stage again (a new attempt). */
  | {
      kind: 'retry'
      attempt: number
      why: string
      recheck?: string
      /** Another profile runs it: the fallback (see recovery.ts). */
      profile?: string
      recovery?: Recovery
    }
  /** Give up: move to the failed state (or flag the issue) and say why. */
  | { kind: 'escalate'; why: string; to?: string }
  /** Wait for a person's reply to the agent's question. */
  | { kind: 'wait'; question: string }
  /** Nothing more to do: the pipeline ended here, or was cancelled. */
  | { kind: 'stop'; why: string }

export interface StageFacts {
  config: WorkflowConfig
  automation: AutomationConfig
  kind: StageKind
  /** The state the stage ran in. */
  state: string
  profile: string
  outcome: StageOutcome
  reason: string
  /** 0 for the first run of this stage in this entry. */
  attempt: number
  /** A rerun for a deliverable that failed its checks was already spent in this entry. */
  recheckSpent: boolean
  /** Review rounds spent since a person last moved the issue (see IssueRecord.round). */
  round: number
  /** The states the issue entered since then, the stage's own included. */
  visited: string[]
  transitions: number
  /** The requests the profile was allowed to make (see permittedRequests). */
  requests: AgentRequests
  /** The move a review is guarding (decided before the review ran). */
  pendingMove?: string
  /** The profile whose work a review looked at. */
  reviewed?: string
  /** The verdicts given earlier in this entry and review round (agent.reviewer_profiles). */
  verdicts?: GivenVerdict[]
  question?: string
  /** The committed deliverable or partial, for messages. */
  handoffPath?: string | null
  /** This run's recovery, if it is one. */
  recovery?: Recovery
  /** The recoveries already run for this stage in this entry and round, this run's included. */
  recovered?: RecoveryKind[]
  /** The deliverable's blocking failures section, when it names any (untrusted). */
  blocking?: string
  /** The last lines of the verify command that failed (untrusted, redacted). */
  verifyTail?: string
}

/** What an agent asks the action to do for it, in its deliverable's front matter. */
export interface AgentRequests {
  moveState?: string
  comment?: string
  commentPr?: string
  verdict?: 'PASS' | 'FAIL'
}
