// pr_merged: the pull request was merged (pull_request closed with merged). The merge
// may close the issue; the run still happens, on the issue branch made again from the merged
// work, and its deliverable goes to a new draft pull request (see hold.ts).
import type { AutomationEvent } from '../ports.js'
import { pullOccasion } from './pull-request.js'
import type { TriggerRule } from './rule.js'

export const prMerged: TriggerRule<Extract<AutomationEvent, { type: 'pr_merged' }>> = {
  type: 'pr_merged',
  onClosed: true,
  occasion: (e, c) => pullOccasion(e, c, 'was merged')
}
