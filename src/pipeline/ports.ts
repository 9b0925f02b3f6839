import type { NEEDS_ATTENTION_LABEL, NEEDS_INPUT_LABEL } from './names.js'
import type { LandedProvenance } from './record/provenance.js'
import type { LandedStage, StageKey } from '../git/trailers.js'
import type { IssueRecord } from './record/record.js'

// What the one job loop (job.ts) needs from the world, as two ports. A tracker (GitHub issues,
// local issue files, Linear) is where issues, states, comments and the record live; a
// workspace is the git side: the issue branch, and where a stage's commit is published.

/**
 * An issue as the pipeline sees it, whatever tracker it came from. Every text field is
 * untrusted: it was written by whoever opened or edited the issue.
 */
export interface Issue {
  /** The tracker's own id: `42` on GitHub, `DEMO-1` for a local issue. */
  id: string
  /** The issue number on GitHub; absent for trackers without numbers. */
  number?: number
  /** How people refer to it: `#42`, `DEMO-1`. */
  identifier: string
  title: string
  description: string
  /** The one state the issue is in (spelled as WORKFLOW.md spells it), or null when none. */
  state: string | null
  labels: string[]
  url: string
  isPullRequest: boolean
  /** GitHub: the issue is closed (itervox treats any closed issue as terminal). */
  closed?: boolean
  createdAt?: string
  updatedAt?: string
  /**
   * When the issue entered `state`, where the tracker keeps a history and the state is a backlog
   * state (Linear): it names the move, as a label event's time does on GitHub.
   */
  enteredAt?: string
}

/**
 * The events an automation answers besides a state entry, as the job receives them: from the
 * GitHub event (untrusted, like every payload) or from the issue's record (a failed stage, a
 * question waiting).
 */
export type AutomationEvent =
  /** A person commented on the issue (`comment` is GitHub's comment id). */
  | { type: 'tracker_comment_added'; comment: number; body: string; author: string }
  /** The issue's pull request was opened, or merged. */
  | { type: 'pr_opened'; pullRequest: number }
  | { type: 'pr_merged'; pullRequest: number }
  /** A stage of the entry gave up after its retries; which one, the record says. */
  | { type: 'run_failed'; entry: number }
  /** A stage of the entry asked a question; the record holds it. */
  | { type: 'input_required'; entry: number }
  /** The issue was moved into one of tracker.backlog_states, at `at` (the label event's time). */
  | { type: 'issue_moved_to_backlog'; state: string; at?: string }
  /**
   * A cron automation's slot came (the reconcile's wake-up): `automation` is its token
   * (triggers/cron.ts), `slot` the slot's UTC minute, `YYYYMMDDHHMM`.
   */
  | { type: 'cron'; automation: string; slot: string }

/** An issue that blocks another: done once it is closed (or in a terminal state). */
export interface Blocker {
  identifier: string
  done: boolean
}

/** Who or what started this job; every field came from outside and is untrusted. */
export interface JobTrigger {
  source: 'label' | 'workflow_dispatch' | 'wake' | 'comment' | 'event' | 'cli'
  issue: string
  actor: { login: string; type: string }
  /** The label that was added, for label events. */
  label?: string
  /** When the label was added: a late or repeated delivery of the event is older. */
  at?: string
  /** The state a dispatch says the issue is in; checked against the live state. */
  state?: string
  /** A wake-up names the entry it was sent for, and which owed step's wake-up it is. */
  wake?: { entry: number; step?: string }
  /** A person's reply, for `comment` triggers; or an automation's answer (`automation`, its id). */
  reply?: { body: string; author: string; automation?: string }
  /** The stop switch was taken off: start what the issue is owed. */
  resume?: boolean
  /** A person starts the stopped pipeline again in `state` (see restart.ts). */
  restart?: { state: string; by: string }
  /** The event an automation may answer (see triggers/). */
  event?: AutomationEvent
}

/**
 * The job log in sections, one per phase ("Deciding", "Preparing itervox/42", "Running
 * researcher", "Publishing"): groups in the action's log, headings in the CLI's output.
 */
export interface JobSections {
  /** Starts a section; what is logged until `close` belongs to it. */
  open(title: string): void
  close(): void
}

export type Authorization = { allowed: true } | { allowed: false; reason: string }

export type Flag =
  typeof NEEDS_ATTENTION_LABEL | typeof NEEDS_INPUT_LABEL | 'itervox-queued' | 'itervox-approved'

/** The issue's pull request; `node` is its GraphQL id, where the tracker has one. */
export interface PullRequestRef {
  number: number
  url: string
  node?: string
}

export interface Tracker {
  /**
   * How the next stage starts: `dispatch` wakes it explicitly, `label` relies on the state
   * move's own event (same-state steps are still woken), `none` leaves it to a person or to
   * the caller's loop (the local runner follows the record itself).
   */
  readonly wakes: 'dispatch' | 'label' | 'none'
  /** Whether whoever caused the trigger may start stages. */
  authorize(trigger: JobTrigger): Promise<Authorization>
  getIssue(id: string): Promise<Issue>
  /** The branch stages of this issue work on, or why they may not (a fork's pull request). */
  branchFor(issue: Issue): Promise<{ branch: string } | { deny: string }>
  /** The record this tool wrote for the issue; null when there is none (or none of ours). */
  loadRecord(issue: Issue): Promise<IssueRecord | null>
  /** Writes the record (and, where the tracker shows one, the status made from it). */
  saveRecord(issue: Issue, record: IssueRecord): Promise<void>
  /** Compare-and-set: moves only while the issue is still in `from`. */
  moveState(issue: Issue, from: string, to: string): Promise<{ current: string | null }>
  /** Writes the comment unless one with this key exists. `agent` marks an agent's words. */
  comment(
    issue: Issue,
    c: { key: string; body: string; agent?: string; pullRequest?: number }
  ): Promise<void>
  setFlag(issue: Issue, flag: Flag, on: boolean): Promise<void>
  /**
   * Where comments send no event (Linear): the reply that answers the stage waiting in `entry`,
   * by someone allowed to answer it; null when none has come. Absent: replies arrive as events.
   */
  findReply?(
    issue: Issue,
    waiting: { entry: number }
  ): Promise<{ id: string; body: string; author: string } | null>
  /** Starts the stage for `entry` of `state`; a duplicate wake-up is harmless (see plan.ts). */
  wake(issue: Issue, w: { state: string; entry: number; step?: string }): Promise<void>
  /** After a push to the issue branch: the issue's pull request, where the tracker has one. */
  publish(
    issue: Issue,
    o: { branch: string; baseBranch: string; commit: string; created: boolean; known?: number }
  ): Promise<{ pullRequest?: PullRequestRef; problem?: string }>
  /**
   * Whether the issue's pull request is still open, or a person closed or merged it; absent
   * where the tracker keeps no pull requests.
   */
  pullState?(pr: number): Promise<'open' | 'closed' | 'merged'>
  /**
   * The issues that block this one (the tracker's own relations, and on GitHub the body's
   * "blocked by #N" phrases, blocker-phrases.ts), each with whether it is done; absent where
   * the tracker has no blockers.
   */
  blockers?(issue: Issue): Promise<Blocker[]>
  /**
   * The pipeline is complete: the pull request leaves draft and says it closes the issue.
   * Idempotent; a tracker without pull requests does nothing.
   */
  readyForReview(issue: Issue, pr: { number: number; node?: string }): Promise<void>
  /** A link to the run, for comments (`[Run 12](…)`), or a sentence saying where work is. */
  runLine(branch: string | null): string
  /** How a person answers an agent's question here. */
  replyHint(issue: Issue): string
  /** A link to a committed file, where the tracker can make one. */
  blobUrl(commit: string, path: string): string | undefined
}

export interface PreparedBranch {
  /** The working tree the stage runs in. */
  repo: string
  branch: string
  /** Where a new branch starts and the pull request goes. */
  baseBranch: string
  /** The commit the stage starts from. */
  baseSha: string
  /**
   * Where the branch left `baseBranch` (their merge-base): handoffs committed there came from
   * the base branch, earlier issues' trails, and are not shown as this issue's.
   */
  forkSha: string
  /** The branch was new when the stage began. */
  created: boolean
}

/** What publishing needs of a prepared branch (the `post:` step has only this much). */
export type PublishTarget = Pick<PreparedBranch, 'branch' | 'baseSha' | 'created'>

export type Published =
  /** On the issue branch (`rescuedTo` unset) or, when the branch refused it, on a rescue ref. */
  | {
      commit: string
      rescuedTo?: string
      refusal?: string
      /** Said in the log and the summary: e.g. why a commit meant to be signed was pushed. */
      notice?: string
    }
  /** Nowhere: the deliverable's text is all that is left to show. */
  | { failed: string }

export interface Workspace {
  /**
   * `recorded`: where the record says the branch left its base; it is the fork point again when
   * a person merged the branch into the base meanwhile.
   */
  prepare(branch: string, recorded?: { fork: string; issue: string }): Promise<PreparedBranch>
  /** The commit of an earlier run of exactly this stage, if it landed. */
  findLanded(prepared: PreparedBranch, key: StageKey): Promise<LandedStage | null>
  /** The provenance of the issue's stages on the prepared branch, oldest first. */
  provenance(prepared: PreparedBranch, issue: string): Promise<LandedProvenance[]>
  /** Publishes the stage's commit; never throws for a refused push (the result says where). */
  publish(prepared: PublishTarget, commit: string, rescueRef: string): Promise<Published>
  /** A committed regular file within `maxBytes`, as text; null when there is none. */
  readCommitted(commit: string, path: string, maxBytes: number): Promise<string | null>
  /** Runs the stage with whatever the workspace must set aside meanwhile. */
  around<T>(prepared: PreparedBranch, stage: () => Promise<T>): Promise<T>
}

/** A stage's place in the queue: what its wake-up must name (see Tracker.wake). */
export interface QueuedStage {
  state: string
  entry: number
  step?: string
}

/**
 * agent.max_concurrent_agents across independent jobs: a slot is held while an agent runs.
 * Claims and releases are compare-and-swap records, so two jobs never hold one slot.
 */
/** Each stage's one agent run, across every job that could start it. */
export interface StageClaims {
  /** Takes the stage for this job; else who holds it, and whether that run has ended. */
  take(key: StageKey): Promise<{ won: true } | { won: false; holder: string; ended: boolean }>
}

export interface Slots {
  /** Which limit a claim that failed ran into, as a sentence part ("all 2 agent slot(s) of …"). */
  describe(): string
  /**
   * Takes a slot for this job's agent. False: every slot is held; the stage is queued and
   * will be woken by the end of another (`wasQueued`: the issue was queued before).
   */
  claim(issue: Issue, stage: QueuedStage, wasQueued: boolean): Promise<boolean>
  /**
   * Gives this job's slot back, then wakes the oldest queued stage (unless `wake` is false: a
   * slot held only for a moment, while another pool's claim failed).
   */
  release(o?: { wake?: boolean }): Promise<void>
}
