import { describe, expect, it } from '@jest/globals'
import { BASE, edit, errorsOf, parse, warningsOf } from './helpers.js'

/** BASE with one more automation (automations[1], starting at line 25). */
function withAutomation(yaml: string, text = BASE): string {
  const indented = yaml
    .trim()
    .split('\n')
    .map((line, i) => (i === 0 ? `  - ${line}` : `    ${line}`))
    .join('\n')
  return edit('---\n\nWork', `${indented}\n---\n\nWork`, text)
}

function second(yaml: string, text?: string) {
  const { config, warnings } = parse(withAutomation(yaml, text))
  return { automation: config.automations[1], warnings: warnings.map((w) => w.message) }
}

describe('every itervox trigger type', () => {
  it.each([
    'tracker_comment_added',
    'pr_opened',
    'pr_merged',
    'run_failed',
    'issue_moved_to_backlog',
    'blockers_resolved'
  ])('loads %s with no states of its own', (type) => {
    const { automation } = second(`id: a\ntrigger: {type: ${type}}\nprofile: reviewer`)
    expect(automation).toMatchObject({
      id: 'a',
      trigger: { type },
      states: [],
      profile: 'reviewer'
    })
  })

  it('reads a cron schedule in its time zone', () => {
    const { automation, warnings } = second(
      'id: nightly\ntrigger: {type: cron, cron: "0 2 * * 1-5", timezone: Europe/Prague}\nprofile: reviewer\nfilter: {states: [Todo], limit: 3}'
    )
    expect(automation?.trigger).toMatchObject({
      type: 'cron',
      schedule: { expression: '0 2 * * 1-5', timeZone: 'Europe/Prague', hours: [2] }
    })
    expect(automation?.filter).toMatchObject({ states: ['Todo'], limit: 3 })
    expect(warnings).toEqual([])
  })

  it('warns that a cron automation without a time zone runs in UTC', () => {
    const text = withAutomation('id: n\ntrigger: {type: cron, cron: "@hourly"}\nprofile: reviewer')
    expect(warningsOf(text)).toEqual([
      "WORKFLOW.md:25:27: warning: automations[1].trigger.cron: no trigger.timezone: this runner reads the schedule in UTC, where the itervox daemon uses its machine's time zone; add timezone: <IANA name> to pin it"
    ])
  })

  it.each([
    [
      'trigger: {type: cron}',
      'WORKFLOW.md:25:14: automations[1].trigger: cron automations require trigger.cron; add cron: "0 9 * * 1-5"'
    ],
    [
      'trigger: {type: cron, cron: "0 25 * * *", timezone: UTC}',
      'WORKFLOW.md:25:33: automations[1].trigger.cron: the hour field is not valid: use *, a number or name in 0-23, a range a-b, a step */n or a-b/n, or a list of these joined by commas'
    ],
    [
      'trigger: {type: cron, cron: "0 9 * * *", timezone: Mars/Olympus}',
      'WORKFLOW.md:25:56: automations[1].trigger.timezone: unknown time zone; use an IANA name such as Europe/Prague or UTC'
    ]
  ])('rejects a bad schedule at its line: %s', (trigger, error) => {
    expect(errorsOf(withAutomation(`id: n\n${trigger}\nprofile: reviewer`))).toEqual([error])
  })

  it('reads rate_limited policies, with the daemon cooldown by default', () => {
    const { automation, warnings } = second(
      'id: rl\ntrigger: {type: rate_limited}\nprofile: researcher\npolicy: {switch_to_profile: reviewer, auto_switch: true}'
    )
    expect(automation?.trigger).toEqual({
      type: 'rate_limited',
      switchToProfile: 'reviewer',
      cooldownMinutes: 30
    })
    expect(warnings).toEqual([])
  })

  it('says once that switch_to_backend is not applied here', () => {
    const text = withAutomation(
      'id: rl\ntrigger: {type: rate_limited}\nprofile: researcher\npolicy: {switch_to_profile: reviewer, auto_resume: true, switch_to_backend: codex, cooldown_minutes: 5}'
    )
    expect(parse(text).config.automations[1]?.trigger).toMatchObject({
      switchToBackend: 'codex',
      cooldownMinutes: 5
    })
    expect(warningsOf(text)).toEqual([
      'WORKFLOW.md:27:62: warning: automations[1].policy.switch_to_backend: is not applied by this runner, which runs profile "reviewer" with its own command; give that profile the command of the backend you want'
    ])
  })

  it.each([
    [
      'policy: {auto_switch: true}',
      'WORKFLOW.md:27:13: automations[1].policy: rate_limited automations require policy.switch_to_profile; name the profile to switch to'
    ],
    [
      'policy: {switch_to_profile: reviewer}',
      'WORKFLOW.md:27:13: automations[1].policy: rate_limited automations require policy.auto_switch: true (or auto_resume: true)'
    ],
    [
      'policy: {switch_to_profile: reviewr, auto_switch: true}',
      'WORKFLOW.md:27:33: automations[1].policy.switch_to_profile: no profile named "reviewr"; did you mean "reviewer"?'
    ]
  ])('rejects a rate_limited automation with %s', (policy, error) => {
    const text = withAutomation(
      `id: rl\ntrigger: {type: rate_limited}\nprofile: researcher\n${policy}`
    )
    expect(errorsOf(text)).toEqual([error])
  })

  it('reads input_required with its filters', () => {
    const { automation } = second(
      'id: answer\ntrigger: {type: input_required}\nprofile: reviewer\npolicy: {auto_resume: true}\nfilter: {input_context_regex: "(?i)which db", max_age_minutes: 60, match_mode: any}'
    )
    expect(automation?.trigger).toEqual({ type: 'input_required', autoResume: true })
    expect(automation?.filter).toMatchObject({ matchMode: 'any', maxAgeMinutes: 60 })
    expect(automation?.filter.inputContextRegex?.test('Which DB should I use?')).toBe(true)
  })

  it('reads a comment filter, body_regex in RE2 spelling', () => {
    const { automation } = second(
      'id: c\ntrigger: {type: tracker_comment_added}\nprofile: reviewer\nfilter: {body_contains: ["/retry"], body_regex: "^(?P<verb>/\\\\w+)", labels_any: [bug], identifier_regex: "^#1\\\\d$", states_any: [Todo]}'
    )
    const filter = automation!.filter
    expect(filter).toMatchObject({ bodyContains: ['/retry'], labelsAny: ['bug'], states: ['Todo'] })
    expect(filter.bodyRegex?.exec('/retry now')?.groups).toEqual({ verb: '/retry' })
    expect(filter.identifierRegex?.test('#12')).toBe(true)
  })

  it('moves on blockers_resolved only for a profile that may move the issue', () => {
    const ok = second(
      'id: unblock\ntrigger: {type: blockers_resolved}\nprofile: researcher\npolicy: {move_to_state: Researching}'
    )
    expect(ok.automation).toMatchObject({
      trigger: { type: 'blockers_resolved' },
      moveToState: 'Researching'
    })
    expect(
      errorsOf(
        withAutomation(
          'id: unblock\ntrigger: {type: blockers_resolved}\nprofile: reviewer\npolicy: {move_to_state: Researching}'
        )
      )
    ).toEqual([
      'WORKFLOW.md:27:29: automations[1].policy.move_to_state: needs profile "reviewer" to allow move_state; add it to that profile\'s allowed_actions'
    ])
  })
})

describe('misplaced keys', () => {
  it.each([
    [
      'trigger: {type: pr_merged}\npolicy: {move_to_state: Done}',
      'WORKFLOW.md:26:14: automations[1].policy.move_to_state: is only meaningful on issue_entered_state and blockers_resolved triggers; remove it'
    ],
    [
      'trigger: {type: run_failed}\npolicy: {switch_to_profile: researcher}',
      'WORKFLOW.md:26:14: automations[1].policy.switch_to_profile: is only meaningful on rate_limited triggers; remove it'
    ],
    [
      'trigger: {type: cron, cron: "@daily", timezone: UTC}\npolicy: {cooldown_minutes: 10}',
      'WORKFLOW.md:26:14: automations[1].policy.cooldown_minutes: is only meaningful on rate_limited triggers; remove it'
    ],
    [
      'trigger: {type: pr_opened}\npolicy: {require_approval: true}',
      'WORKFLOW.md:26:14: automations[1].policy.require_approval: is only meaningful on issue_entered_state triggers; remove it'
    ],
    [
      'trigger: {type: run_failed}\nfilter: {max_age_minutes: 5}',
      'WORKFLOW.md:26:14: automations[1].filter.max_age_minutes: is only meaningful on input_required triggers; remove it'
    ],
    [
      'trigger: {type: pr_opened}\nfilter: {body_regex: x}',
      'WORKFLOW.md:26:14: automations[1].filter.body_regex: is only meaningful on tracker_comment_added triggers; remove it'
    ],
    [
      'trigger: {type: tracker_comment_added}\nfilter: {body_regex: "a(b"}',
      "WORKFLOW.md:26:26: automations[1].filter.body_regex: is not a regular expression this runner can read (JavaScript syntax, with RE2's leading (?i) flags); fix the pattern"
    ],
    [
      'trigger: {type: tracker_comment_added}\nfilter: {match_mode: some}',
      'WORKFLOW.md:26:26: automations[1].filter.match_mode: must be one of all, any'
    ]
  ])('%s is an error', (yaml, error) => {
    expect(errorsOf(withAutomation(`id: x\n${yaml}\nprofile: reviewer`))).toEqual([error])
  })

  it('keys the daemon ignores only warn', () => {
    const text = withAutomation(
      'id: x\ntrigger: {type: pr_merged, state: Todo}\nprofile: reviewer\npolicy: {auto_resume: true}\nfilter: {input_context_regex: x, states: [Todo], states_any: [Done]}'
    )
    expect(warningsOf(text)).toEqual([
      'WORKFLOW.md:25:32: warning: automations[1].trigger.state: has no effect on pr_merged triggers; remove it',
      'WORKFLOW.md:27:14: warning: automations[1].policy.auto_resume: has no effect on pr_merged triggers; remove it',
      'WORKFLOW.md:28:14: warning: automations[1].filter.input_context_regex: has no effect on pr_merged triggers; remove it',
      'WORKFLOW.md:28:54: warning: automations[1].filter.states_any: is ignored when states is set, as in the daemon; keep one'
    ])
  })

  it('a filter state the pipeline lacks, or a backlog trigger with no backlog, warns', () => {
    const text = withAutomation(
      'id: x\ntrigger: {type: issue_moved_to_backlog}\nprofile: reviewer\nfilter: {states: [Reviewng]}'
    )
    expect(warningsOf(text)).toEqual([
      'WORKFLOW.md:25:21: warning: automations[1].trigger.type: tracker.backlog_states is empty (the default for github), so this never fires; list the labels that mean backlog there',
      'WORKFLOW.md:27:23: warning: automations[1].filter.states[0]: names no state of the pipeline, so no issue in it is admitted; did you mean "Reviewing"?'
    ])
    const withBacklog = edit(
      '  kind: github\n',
      '  kind: github\n  backlog_states: [Icebox]\n',
      text
    )
    expect(warningsOf(withBacklog)).toHaveLength(1)
  })

  it("issue_entered_state keeps its state lists and this runner's policies", () => {
    const { automation } = second(
      'id: review\ntrigger: {type: issue_entered_state, states: [Researching, Reviewing]}\nprofile: reviewer\npolicy: {move_to_state: Done, require_approval: true}\nfilter: {labels_any: [ready]}'
    )
    expect(automation).toMatchObject({
      trigger: { type: 'issue_entered_state' },
      states: ['Researching', 'Reviewing'],
      moveToState: 'Done',
      requireApproval: true,
      filter: { labelsAny: ['ready'] }
    })
  })
})
