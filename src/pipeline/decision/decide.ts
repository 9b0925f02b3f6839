import { findAutomation, knownStates } from '../../config/load.js'
import { sameState } from '../../config/lookup.js'
import type { AutomationConfig, WorkflowConfig } from '../../config/types.js'
import type { Issue, JobTrigger } from '../ports.js'

export type Decision = { skip: string } | { state: string; automation: AutomationConfig }

/** Whether this trigger starts a stage for the issue as it is now (never as the payload says). */
export function decideStage(config: WorkflowConfig, trigger: JobTrigger, issue: Issue): Decision {
  if (issue.closed) return { skip: `${issue.identifier} is closed` }
  const state = issue.state
  if (trigger.label) {
    const label = trigger.label
    const isState = knownStates(config).some((k) => sameState(k, label))
    if (!isState) return { skip: `label "${label}" is not a pipeline state` }
    if (!state || !sameState(state, label)) {
      return {
        skip: `label "${label}" was added, but the issue is now in "${state ?? 'no state'}"`
      }
    }
  }
  if (!state) return { skip: `${issue.identifier} carries no state` }
  if (trigger.state && !sameState(trigger.state, state)) {
    return { skip: `the trigger was for "${trigger.state}", but the issue is now in "${state}"` }
  }
  const automation = findAutomation(config, state)
  if (!automation) return { skip: `no automation starts when an issue enters "${state}"` }
  if (!config.agent.profiles[automation.profile]?.enabled) {
    return { skip: `profile ${automation.profile} is disabled` }
  }
  return { state, automation }
}
