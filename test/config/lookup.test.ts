import { describe, expect, it } from '@jest/globals'
import {
  automationForProfile,
  findAutomation,
  knownStates,
  unknownProfileError
} from '../../src/config/lookup.js'
import { BASE, edit, parse } from './helpers.js'

const TWO_STAGES = edit(
  '---\n\nWork',
  '  - id: review\n    trigger: {type: issue_entered_state, states: [Researching, "in review"]}\n    profile: reviewer\n  - id: off\n    enabled: false\n    trigger: {type: issue_entered_state, state: Done}\n    profile: reviewer\n---\n\nWork',
  edit(
    '  kind: github',
    '  kind: github\n  terminal_states: [Done, "In Review"]\n  failed_state: reviewing'
  )
)

describe('knownStates', () => {
  it('lists active, terminal, completion and failed states once each, ignoring case', () => {
    expect(knownStates(parse(TWO_STAGES).config)).toEqual([
      'Todo',
      'Researching',
      'Reviewing',
      'Done',
      'In Review'
    ])
    expect(knownStates(parse(BASE).config)).toEqual([
      'Todo',
      'Researching',
      'Reviewing',
      'Closed',
      'Cancelled',
      'Canceled',
      'Duplicate',
      'Done'
    ])
  })
})

describe('findAutomation', () => {
  const { config } = parse(TWO_STAGES)

  it('finds the enabled automation a state starts, ignoring case', () => {
    expect(findAutomation(config, 'todo')?.id).toBe('research')
    expect(findAutomation(config, 'RESEARCHING')?.id).toBe('review')
    expect(findAutomation(config, 'In Review')?.id).toBe('review')
  })

  it('skips disabled automations and unknown states', () => {
    expect(findAutomation(config, 'Done')).toBeUndefined()
    expect(findAutomation(config, 'Nope')).toBeUndefined()
  })
})

describe('automationForProfile', () => {
  const { config } = parse(TWO_STAGES)

  it("prefers the automation the issue's state starts", () => {
    expect(automationForProfile(config, 'reviewer', 'in review')?.id).toBe('review')
  })

  it("falls back to the profile's first enabled automation", () => {
    expect(automationForProfile(config, 'reviewer', 'Todo')?.id).toBe('review')
    expect(automationForProfile(config, 'researcher', null)?.id).toBe('research')
    expect(automationForProfile(config, 'nobody', 'Todo')).toBeUndefined()
  })
})

describe('unknownProfileError', () => {
  const { config } = parse(BASE)

  it('suggests a close name or lists the profiles', () => {
    expect(unknownProfileError(config, 'reviwer', '--profile').format()).toBe(
      '--profile: WORKFLOW.md has no profile named "reviwer"; did you mean "reviewer"?'
    )
    expect(unknownProfileError(config, 'deployer', '--profile').format()).toBe(
      '--profile: WORKFLOW.md has no profile named "deployer"; it has: researcher, reviewer'
    )
  })
})
