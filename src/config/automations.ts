import { parseCron } from './cron.js'
import type { Env } from './interpolate.js'
import { goRegex } from './go-regex.js'
import type { Problems } from './problems.js'
import { automationSchema } from './schema.js'
import { parseSection } from './schema-issues.js'
import { sectionInput } from './section-input.js'
import type { Path } from './source-map.js'
import type { AutomationConfig, AutomationFilter, AutomationTrigger, TriggerType } from './types.js'
import type * as z from '../zod.js'

type Parsed = z.output<typeof automationSchema>

/** An automation and where its state names sit, for the cross-checks. */
export interface ReadAutomation {
  config: AutomationConfig
  index: number
  /** One path per entry of `config.states`. */
  statePaths: Path[]
}

/** The trigger keys each type reads; the daemon ignores the others, so they only warn. */
const TRIGGER_KEYS: Partial<Record<TriggerType, readonly string[]>> = {
  issue_entered_state: ['state', 'states'],
  cron: ['cron', 'timezone']
}

// The daemon's cooldown when none is written.
const DEFAULT_COOLDOWN_MINUTES = 30

/** One `automations[i]` entry, or undefined when it is broken (its errors are in `problems`). */
export function readAutomation(
  raw: unknown,
  index: number,
  problems: Problems,
  env: Env
): ReadAutomation | undefined {
  const path = ['automations', index]
  // instructions are a Liquid template: `$` there is the template's business.
  const input = sectionInput(raw, path, 'automation', problems, { env, verbatim: ['instructions'] })
  const parsed = parseSection(automationSchema, input, path, 'automation', problems)
  if (!parsed) return undefined

  const ctx = { parsed, path, problems }
  const trigger = readTrigger(ctx)
  const filter = readFilter(ctx)
  const policyOk = checkPolicy(ctx)
  if (!trigger || !filter || !policyOk) return undefined

  const t = parsed.trigger
  const entered = t.type === 'issue_entered_state'
  const states = entered ? (t.states ?? (t.state ? [t.state] : [])) : []
  const statePaths = t.states
    ? t.states.map((_, i) => [...path, 'trigger', 'states', i])
    : [[...path, 'trigger', 'state']]
  const config: AutomationConfig = {
    id: parsed.id,
    enabled: parsed.enabled,
    trigger,
    states,
    filter,
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
  return { config, index, statePaths: entered ? statePaths : [] }
}

interface Context {
  parsed: Parsed
  path: Path
  problems: Problems
}

function readTrigger({ parsed, path, problems }: Context): AutomationTrigger | undefined {
  const t = parsed.trigger
  const at = [...path, 'trigger']
  const reads = TRIGGER_KEYS[t.type] ?? []
  for (const key of ['state', 'states', 'cron', 'timezone'] as const) {
    if (t[key] != null && !reads.includes(key)) {
      problems.warnAtKey([...at, key], `has no effect on ${t.type} triggers; remove it`)
    }
  }
  const policy = parsed.policy
  switch (t.type) {
    case 'issue_entered_state':
      if (t.state && t.states) {
        problems.errorAt([...at, 'states'], 'use either state or states, not both')
        return undefined
      }
      if (!t.state && !t.states) {
        problems.errorAt(
          at,
          'needs the state that starts the automation; add state: <name> or states: [<names>]'
        )
        return undefined
      }
      return { type: t.type }
    case 'cron': {
      if (!t.cron) {
        problems.errorAt(at, 'cron automations require trigger.cron; add cron: "0 9 * * 1-5"')
        return undefined
      }
      const read = parseCron(t.cron, t.timezone)
      if ('error' in read) {
        const zone = read.error.includes('time zone') && t.timezone
        problems.errorAt([...at, zone ? 'timezone' : 'cron'], read.error)
        return undefined
      }
      if (!t.timezone && read.schedule.timeZone === 'UTC' && !/^(CRON_)?TZ=/.test(t.cron)) {
        problems.warnAtKey(
          [...at, 'cron'],
          "no trigger.timezone: this runner reads the schedule in UTC, where the itervox daemon uses its machine's time zone; add timezone: <IANA name> to pin it"
        )
      }
      return { type: t.type, schedule: read.schedule }
    }
    case 'input_required':
      return { type: t.type, autoResume: Boolean(policy?.auto_resume || policy?.auto_switch) }
    case 'rate_limited': {
      const switchTo = policy?.switch_to_profile
      if (!switchTo) {
        problems.errorAt(
          policy ? [...path, 'policy'] : at,
          'rate_limited automations require policy.switch_to_profile; name the profile to switch to'
        )
        return undefined
      }
      if (!policy.auto_switch && !policy.auto_resume) {
        problems.errorAt(
          [...path, 'policy'],
          'rate_limited automations require policy.auto_switch: true (or auto_resume: true)'
        )
        return undefined
      }
      if (policy.switch_to_backend) {
        problems.warnAtKey(
          [...path, 'policy', 'switch_to_backend'],
          `is not applied by this runner, which runs profile "${switchTo}" with its own command; give that profile the command of the backend you want`
        )
      }
      return {
        type: t.type,
        switchToProfile: switchTo,
        ...(policy.switch_to_backend ? { switchToBackend: policy.switch_to_backend } : {}),
        cooldownMinutes: policy.cooldown_minutes || DEFAULT_COOLDOWN_MINUTES
      }
    }
    case 'tracker_comment_added':
    case 'pr_opened':
    case 'pr_merged':
    case 'run_failed':
    case 'issue_moved_to_backlog':
    case 'blockers_resolved':
      return { type: t.type }
  }
}

function readFilter({ parsed, path, problems }: Context): AutomationFilter | undefined {
  const type = parsed.trigger.type
  const f = parsed.filter
  const filter: AutomationFilter = {
    matchMode: f?.match_mode ?? 'all',
    states: (f?.states?.length ? f.states : f?.states_any) ?? [],
    labelsAny: f?.labels_any ?? [],
    bodyContains: f?.body_contains ?? []
  }
  if (!f) return filter
  const at = [...path, 'filter']
  let ok = true
  const only = (key: string, set: boolean, wanted: TriggerType) => {
    if (!set || type === wanted) return
    problems.errorAtKey([...at, key], `is only meaningful on ${wanted} triggers; remove it`)
    ok = false
  }
  only('max_age_minutes', Boolean(f.max_age_minutes), 'input_required')
  only('body_contains', f.body_contains.length > 0, 'tracker_comment_added')
  only('body_regex', Boolean(f.body_regex), 'tracker_comment_added')
  if (f.input_context_regex && type !== 'input_required') {
    problems.warnAtKey(
      [...at, 'input_context_regex'],
      `has no effect on ${type} triggers; remove it`
    )
  }
  if (f.states?.length && f.states_any?.length) {
    problems.warnAtKey(
      [...at, 'states_any'],
      'is ignored when states is set, as in the daemon; keep one'
    )
  }
  if (f.limit) filter.limit = f.limit
  if (f.max_age_minutes) filter.maxAgeMinutes = f.max_age_minutes
  const regex = (key: 'identifier_regex' | 'input_context_regex' | 'body_regex') => {
    const source = f[key]
    if (source === undefined) return undefined
    const re = goRegex(source)
    if (!re) {
      problems.errorAt(
        [...at, key],
        "is not a regular expression this runner can read (JavaScript syntax, with RE2's leading (?i) flags); fix the pattern"
      )
      ok = false
    }
    return re
  }
  const identifier = regex('identifier_regex')
  const inputContext = regex('input_context_regex')
  const body = regex('body_regex')
  if (identifier) filter.identifierRegex = identifier
  if (inputContext) filter.inputContextRegex = inputContext
  if (body) filter.bodyRegex = body
  return ok ? filter : undefined
}

/** Policies on triggers that have no use for them are errors, as the daemon makes them. */
function checkPolicy({ parsed, path, problems }: Context): boolean {
  const type = parsed.trigger.type
  const p = parsed.policy
  if (!p) return true
  const at = [...path, 'policy']
  let ok = true
  const only = (key: string, set: boolean, wanted: readonly TriggerType[]) => {
    if (!set || wanted.includes(type)) return
    problems.errorAtKey(
      [...at, key],
      `is only meaningful on ${wanted.join(' and ')} triggers; remove it`
    )
    ok = false
  }
  only('switch_to_profile', Boolean(p.switch_to_profile), ['rate_limited'])
  only('switch_to_backend', Boolean(p.switch_to_backend), ['rate_limited'])
  only('cooldown_minutes', Boolean(p.cooldown_minutes), ['rate_limited'])
  // issue_entered_state's move is this runner's own; the daemon has it on blockers_resolved only.
  only('move_to_state', Boolean(p.move_to_state), ['issue_entered_state', 'blockers_resolved'])
  only('require_approval', p.require_approval, ['issue_entered_state'])
  for (const key of ['auto_resume', 'auto_switch'] as const) {
    if (p[key] != null && type !== 'input_required' && type !== 'rate_limited') {
      problems.warnAtKey([...at, key], `has no effect on ${type} triggers; remove it`)
    }
  }
  return ok
}
