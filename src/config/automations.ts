import { DAEMON_TRIGGER_TYPES } from './daemon-keys.js'
import type { Env } from './interpolate.js'
import type { Problems } from './problems.js'
import { automationSchema } from './schema.js'
import { parseSection } from './schema-issues.js'
import { isMap, sectionInput } from './section-input.js'
import type { Path } from './source-map.js'
import type { AutomationConfig } from './types.js'

/** An automation and where its state names sit, for the cross-checks. */
export interface ReadAutomation {
  config: AutomationConfig
  index: number
  /** One path per entry of `config.states`. */
  statePaths: Path[]
}

/**
 * One `automations[i]` entry. Trigger types other than issue_entered_state only run in the
 * itervox daemon: they load with a warning and give undefined, as do broken entries.
 */
export function readAutomation(
  raw: unknown,
  index: number,
  problems: Problems,
  env: Env
): ReadAutomation | undefined {
  const path = ['automations', index]
  const type = isMap(raw) && isMap(raw.trigger) ? raw.trigger.type : undefined
  if (typeof type === 'string' && DAEMON_TRIGGER_TYPES.includes(type)) {
    problems.warnAt(
      [...path, 'trigger', 'type'],
      `${type} automations run only in the itervox daemon; this CI runner ignores this one`
    )
    return undefined
  }
  // instructions are a Liquid template: `$` there is the template's business.
  const input = sectionInput(raw, path, 'automation', problems, { env, verbatim: ['instructions'] })
  const parsed = parseSection(automationSchema, input, path, 'automation', problems)
  if (!parsed) return undefined

  const trigger = parsed.trigger
  const states = trigger.states ?? (trigger.state ? [trigger.state] : [])
  const statePaths = trigger.states
    ? trigger.states.map((_, i) => [...path, 'trigger', 'states', i])
    : [[...path, 'trigger', 'state']]
  const config: AutomationConfig = {
    id: parsed.id,
    enabled: parsed.enabled,
    states,
    profile: parsed.profile
  }
  if (parsed.instructions) {
    const instructionsPath = [...path, 'instructions']
    config.instructions = parsed.instructions
    // A `|` or `>` block's text starts on the line after the indicator.
    config.instructionsLine =
      problems.map.value(instructionsPath).line + (problems.map.isBlock(instructionsPath) ? 1 : 0)
  }
  if (parsed.policy?.move_to_state) config.moveToState = parsed.policy.move_to_state
  if (parsed.policy?.require_approval) config.requireApproval = true
  return { config, index, statePaths }
}
