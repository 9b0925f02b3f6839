import type { AutomationEvent } from '../ports.js'
import { currentPlace, type Occasion, type RuleContext } from './rule.js'

type PullEvent = Extract<AutomationEvent, { type: 'pr_opened' | 'pr_merged' }>

/**
 * The occasion of the pull request opening or merging. The event reader linked it by
 * its head (`itervox/<number>` in this repository); a pull request the record knows as another
 * is not this issue's.
 */
export function pullOccasion(
  e: PullEvent,
  c: RuleContext,
  what: string
): Occasion | { skip: string } {
  const known = c.record.pullRequest
  if (known !== undefined && known !== e.pullRequest && e.type === 'pr_opened') {
    return { skip: `pull request #${e.pullRequest} is not the one the record knows (#${known})` }
  }
  const place = currentPlace(c)
  if (!place) return { skip: `${c.issue.identifier} carries no state` }
  return {
    ...place,
    key: `${e.type === 'pr_opened' ? 'pr-opened' : 'pr-merged'}-${e.pullRequest}`,
    about: `Pull request #${e.pullRequest} of ${c.issue.identifier} ${what}.`
  }
}
