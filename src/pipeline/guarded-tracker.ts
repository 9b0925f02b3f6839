import { inWords, redactNoting, type SecretScanner } from '../secrets/scanner.js'
import type { Tracker } from './ports.js'

/**
 * The tracker with every text the pipeline sends it screened for secrets: comment bodies
 * (the agent's own words among them), the record behind the status comment, and the pull
 * request. What stage and job already redacted never gets here; this is the last check
 * before anything is written where people (or the public) can read it. Each finding is told
 * to `withheld` in one line naming where, never the value.
 */
export function guardedTracker(
  tracker: Tracker,
  secrets: SecretScanner,
  withheld: (line: string) => void
): Tracker {
  const clean = (where: string, text: string) => redactNoting(secrets, where, text, withheld)
  // Bound to the tracker: its methods are class methods, and unlisted ones pass through.
  const passOn = <K extends keyof Tracker>(k: K): Tracker[K] => {
    const v = tracker[k]
    return (typeof v === 'function' ? v.bind(tracker) : v) as Tracker[K]
  }
  return {
    wakes: tracker.wakes,
    authorize: passOn('authorize'),
    getIssue: passOn('getIssue'),
    branchFor: passOn('branchFor'),
    loadRecord: passOn('loadRecord'),
    saveRecord: (issue, record) => {
      const r = secrets.redactDeep(record)
      if (r.kinds.length > 0) withheld(`the status comment: ${inWords(r.kinds)} redacted`)
      return tracker.saveRecord(issue, r.value)
    },
    moveState: passOn('moveState'),
    comment: (issue, c) => {
      const where = c.agent ? `the ${c.agent} agent's comment` : `the comment ${c.key}`
      return tracker.comment(issue, { ...c, body: clean(where, c.body) })
    },
    setFlag: passOn('setFlag'),
    wake: passOn('wake'),
    ...(tracker.findReply ? { findReply: passOn('findReply') } : {}),
    ...(tracker.pullState ? { pullState: passOn('pullState') } : {}),
    ...(tracker.blockers ? { blockers: passOn('blockers') } : {}),
    publish: (issue, o) =>
      tracker.publish({ ...issue, title: clean('the pull request title', issue.title) }, o),
    // The body it writes holds only the issue's number.
    readyForReview: passOn('readyForReview'),
    runLine: passOn('runLine'),
    replyHint: passOn('replyHint'),
    blobUrl: passOn('blobUrl')
  }
}
