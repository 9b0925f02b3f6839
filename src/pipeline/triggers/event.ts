// The events an automation answers besides a state entry, as the job receives them: from the
// GitHub event (untrusted, like every payload) or from the record (a failed stage, a
// question waiting). Each trigger file in this folder turns one of them into a run.

/** Every pipeline comment starts with its `<!-- itervox:… -->` marker line (tracker/github.ts). */
const OWN_MARKER = /^<!-- itervox:[A-Za-z0-9:._-]* -->$/

export type AutomationEvent =
  /** A person commented on the issue (`comment` is GitHub's comment id). */
  | { type: 'tracker_comment_added'; comment: number; body: string; author: string }
  /** The pull request was opened, or merged. */
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

/**
 * The pipeline's own comments (the status comment, its notices, an agent's words it posted):
 * none of them starts a stage or answers one. A person who types the marker only silences
 * their own comment.
 */
export function isOwnComment(body: string): boolean {
  return OWN_MARKER.test(body.replace(/^\s+/, '').split('\n', 1)[0]?.trim() ?? '')
}
