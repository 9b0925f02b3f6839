// The stop switch: the `itervox-paused` label on an issue, the action's `paused` input (a
// repository variable, for every issue), or the issue's pull request closed by a person (not
// merged) holds new stages at once. Nothing is lost: the record keeps what is owed, and taking
// the switch off starts it (the label's `unlabeled` event; the scheduled reconcile once the
// variable is unset; the pull request's `reopened` event, or the reconcile seeing it open). The
// label comes with the issue read, so an issue that is not paused costs no request; the pull
// request's state costs one, once the record knows the pull request. Only someone who may
// start stages lifts the label: the `unlabeled` event's job authorises its sender, and the
// reconcile asks who took the label off (heldByLabel).
import type { IssueRecord } from './record.js'

export const PAUSED_LABEL = 'itervox-paused'

const REPOSITORY_PAUSE =
  'paused for the whole repository by the variable ITERVOX_PAUSED (the action input paused); unset it and the scheduled reconcile resumes where the pipeline was'

/** Why new stages of an issue with these labels are held, or undefined when they are not. */
export function pausedBy(labels: readonly string[], paused: boolean): string | undefined {
  if (labels.some((l) => l.toLowerCase() === PAUSED_LABEL)) {
    return `paused by the ${PAUSED_LABEL} label; remove it to resume where the pipeline was`
  }
  if (paused) return REPOSITORY_PAUSE
  return undefined
}

/** Why new stages are held while a person's closing of the pull request stands. */
export function pausedByClosedPull(pr: number): string {
  return `paused because pull request #${pr} was closed without merging; reopen it to resume where the pipeline was`
}

/**
 * A stage of the issue was held by the label (not the repository's switch, nor a closed pull
 * request), and none has started since: whoever took the label off decides whether it
 * resumes. A reason worded otherwise (a record from another version) counts as the label's, so
 * the doubt keeps the issue paused.
 */
export function heldByLabel(record: IssueRecord): boolean {
  return (
    record.paused !== undefined &&
    record.paused !== REPOSITORY_PAUSE &&
    record.pausedByClosedPull === undefined
  )
}

/**
 * The record once a stage was held by the switch (`why`; `closedPull` when it is the closed
 * pull request), or started (undefined).
 */
export function withPause(
  record: IssueRecord,
  why: string | undefined,
  closedPull?: number
): IssueRecord {
  const next = { ...record }
  if (why === undefined) delete next.paused
  else next.paused = why
  if (why === undefined || closedPull === undefined) delete next.pausedByClosedPull
  else next.pausedByClosedPull = closedPull
  return next
}
