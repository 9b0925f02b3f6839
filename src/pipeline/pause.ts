// The stop switch: the `itervox-paused` label on an issue, the action's `paused` input (a
// repository variable, for every issue), or the issue's pull request closed by a person (not
// merged) holds new stages at once. Nothing is lost: the record keeps what is owed, and taking
// the switch off starts it (the label's `unlabeled` event; the scheduled reconcile once the
// variable is unset; the pull request's `reopened` event, or the reconcile seeing it open). The
// label comes with the issue read, so an issue that is not paused costs no request; the pull
// request's state costs one, once the record knows the pull request.
import type { IssueRecord } from './record.js'

export const PAUSED_LABEL = 'itervox-paused'

/** Why new stages of an issue with these labels are held, or undefined when they are not. */
export function pausedBy(labels: readonly string[], paused: boolean): string | undefined {
  if (labels.some((l) => l.toLowerCase() === PAUSED_LABEL)) {
    return `paused by the ${PAUSED_LABEL} label; remove it to resume where the pipeline was`
  }
  if (paused) {
    return 'paused for the whole repository by the variable ITERVOX_PAUSED (the action input paused); unset it and the scheduled reconcile resumes where the pipeline was'
  }
  return undefined
}

/** Why new stages are held while a person's closing of the pull request stands. */
export function pausedByClosedPull(pr: number): string {
  return `paused because pull request #${pr} was closed without merging; reopen it to resume where the pipeline was`
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
