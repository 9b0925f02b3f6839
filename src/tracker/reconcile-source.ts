// What a reconcile needs of a tracker, apart from the reconcile itself: the passes it runs
// (cron, blockers) read the same source.
import type { Authorization, Blocker, Issue } from '../pipeline/ports.js'
import type { IssueRecord } from '../pipeline/record/record.js'

/** Who has sent which wake-up: one claim per issue and wake-up key. */
export interface DispatchClaims {
  /** The claims held now (one request for all of them). */
  held(): Promise<Array<{ issue: string; key: string }>>
  /** True when this caller now holds the claim (taken fresh, or over from a stale holder). */
  take(issue: string, key: string): Promise<boolean>
  /** Drops a claim whose wake-up has been served. */
  drop(issue: string, key: string): Promise<void>
}

/** What a reconcile needs of a tracker. */
export interface ReconcileSource {
  /**
   * The issues in any of `states`, each once; one that cannot be judged comes with its problem
   * (`key` names it in claims, `label` in the log).
   */
  list(
    states: string[],
    log: (line: string) => void
  ): Promise<Array<Issue | { key: string; label: string; problem: string }>>
  /** How claims name the issue: a plain word of a git ref. */
  keyOf(issue: Issue): string
  loadRecord(issue: Issue): Promise<IssueRecord | null>
  /**
   * Whether whoever moved the issue into `state` may start stages; absent where the tracker's
   * own access decides who can move an issue (Linear: the team's members).
   */
  mayStart?(issue: Issue, state: string): Promise<Authorization>
  /** Whether a pull request is open, or was closed or merged (see Tracker). */
  pullState?(pr: number): Promise<'open' | 'closed' | 'merged'>
  /** Whether whoever reopened the pull request that paused the issue may start stages. */
  mayReopen?(pr: number): Promise<Authorization>
  /**
   * Whether whoever took the stop switch (PAUSED_LABEL) off the issue may start stages; absent
   * where the tracker's own access decides who changes an issue.
   */
  mayResume?(issue: Issue): Promise<Authorization>
  /** Puts the stop switch back on the issue and tells it `why`, when mayResume said no. */
  keepPaused?(issue: Issue, why: string): Promise<void>
  /** Where comments send no event: the reply that answers a waiting stage (see Tracker). */
  findReply?(issue: Issue, waiting: { entry: number }): Promise<{ id: string } | null>
  wake(issue: Issue, w: { state: string; entry: number; step?: string }): Promise<void>
  /** The issue's blockers (see Tracker); absent where the tracker has none. */
  blockers?(issue: Issue): Promise<Blocker[]>
  /** The keys of the issues the closed issue `key` blocks by the tracker's own relations. */
  blocking?(key: string): Promise<string[]>
  /** Compare-and-set move, as Tracker.moveState. */
  moveState?(issue: Issue, from: string, to: string): Promise<{ current: string | null }>
  /** HTTP requests sent so far, retries included. */
  readonly requestCount: number
  /**
   * The listing says when an issue entered a backlog state (Linear), so moves into one that no
   * run answered are found; on GitHub the label event is the only sign of such a move.
   */
  readonly seesBacklogMoves?: boolean
}
