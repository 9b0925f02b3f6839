// pr_opened: the pull request was opened (pull_request opened).
import type { AutomationEvent } from '../ports.js'
import { pullOccasion } from './pull-request.js'
import type { TriggerRule } from './rule.js'

export const prOpened: TriggerRule<Extract<AutomationEvent, { type: 'pr_opened' }>> = {
  type: 'pr_opened',
  occasion: (e, c) => pullOccasion(e, c, 'was opened')
}
