import { describe, expect, it } from '@jest/globals'
import { BASE, edit, errorsOf, parse } from './helpers.js'

const MOVES = '      allowed_actions: [comment, move_state]'
const REVIEWER = '      instructions_file: agents/reviewer/INSTRUCTIONS.md'

describe('agent.profiles.<name>.fallback_profile and verify', () => {
  it('reads both, with their defaults', () => {
    const text = edit(
      MOVES,
      `${MOVES}\n      fallback_profile: reviewer\n      verify: ["npm test", "npx tsc --noEmit"]`
    )
    const { researcher, reviewer } = parse(text).config.agent.profiles
    expect(researcher).toMatchObject({
      fallbackProfile: 'reviewer',
      verify: ['npm test', 'npx tsc --noEmit'],
      verifyTimeoutMs: 600_000
    })
    expect(reviewer?.fallbackProfile).toBeUndefined()
    expect(reviewer?.verify).toEqual([])
  })

  it('pins a misspelt fallback profile, at its line, with a did-you-mean', () => {
    expect(errorsOf(edit(MOVES, `${MOVES}\n      fallback_profile: reveiwer`))).toEqual([
      'WORKFLOW.md:13:25: agent.profiles.researcher.fallback_profile: no profile named "reveiwer"; did you mean "reviewer"?'
    ])
  })

  it('refuses a cycle of fallbacks, and a profile that falls back to itself', () => {
    const both = edit(REVIEWER, `${REVIEWER}\n      fallback_profile: researcher`).replace(
      MOVES,
      `${MOVES}\n      fallback_profile: reviewer`
    )
    expect(errorsOf(both)).toEqual([
      'WORKFLOW.md:13:25: agent.profiles.researcher.fallback_profile: the fallback profiles go round in a circle ("researcher" → "reviewer" → "researcher"); remove fallback_profile from one of them',
      'WORKFLOW.md:17:25: agent.profiles.reviewer.fallback_profile: the fallback profiles go round in a circle ("reviewer" → "researcher" → "reviewer"); remove fallback_profile from one of them'
    ])
    expect(errorsOf(edit(MOVES, `${MOVES}\n      fallback_profile: researcher`))).toEqual([
      'WORKFLOW.md:13:25: agent.profiles.researcher.fallback_profile: the fallback profiles go round in a circle ("researcher" → "researcher"); remove fallback_profile from one of them'
    ])
  })

  it('still loads the base unchanged', () => {
    expect(parse(BASE).config.agent.profiles.researcher?.verify).toEqual([])
  })
})
