import { describe, expect, it } from '@jest/globals'
import { unknownStateMentions } from '../../src/config/state-mentions.js'
import { BASE, edit, errorsOf, FILES, parse, warningsOf } from './helpers.js'

describe('where a pipeline ends', () => {
  it('refuses a failed_state that starts an automation: an escalated issue would run again', () => {
    const text = edit('  completion_state: Done', '  completion_state: Done\n  failed_state: todo')
    expect(errorsOf(text)).toEqual([
      'WORKFLOW.md:7:17: tracker.failed_state: "todo" starts automations[0] ("research"), so an escalated issue would run again; name a state no automation starts, e.g. "Blocked"'
    ])
  })

  it('warns when the completion state starts an automation', () => {
    const text = edit('  completion_state: Done', '  completion_state: Todo')
    expect(warningsOf(text)).toEqual([
      'WORKFLOW.md:6:21: warning: tracker.completion_state: "Todo" starts automations[0] ("research"), so the pipeline does not end there'
    ])
  })

  it('takes a failed_state that no automation starts', () => {
    const text = edit(
      '  completion_state: Done',
      '  completion_state: Done\n  failed_state: Blocked'
    )
    expect(warningsOf(text)).toEqual([])
  })

  it('takes a misspelt end state for the state it nearly names, at its line and column', () => {
    const text = edit(
      '  completion_state: Done',
      '  terminal_states: [Done, Blocked]\n  completion_state: Don\n  failed_state: "Blokced"'
    )
    expect(errorsOf(text)).toEqual([
      'WORKFLOW.md:7:21: tracker.completion_state: unknown state "Don"; did you mean "Done"? If "Don" is meant, list it in tracker.terminal_states',
      'WORKFLOW.md:8:17: tracker.failed_state: unknown state "Blokced"; did you mean "Blocked"? If "Blokced" is meant, list it in tracker.terminal_states'
    ])
    // A state of its own, named only as an end state, is one.
    const own = edit(
      '  completion_state: Done',
      "  completion_state: Done\n  failed_state: Won't Do"
    )
    expect(parse(own).config.tracker.failedState).toBe("Won't Do")
  })
})

describe('states the profiles tell an agent to ask for', () => {
  it('warns about a move_state that names no state, at its file and line', () => {
    const files = {
      ...FILES,
      'agents/reviewer/INSTRUCTIONS.md':
        'Review the diff.\n\nOn findings, start with `move_state: Reserching`.\nOr `move_state: {{ trigger.state }}`.\n'
    }
    const text = edit(
      '    profile: researcher\n',
      '    profile: researcher\n    instructions: |\n      When done, ask for move_state: "Reviewing", or move_state: Nowhere.\n'
    )
    const { config } = parse(text, { files })
    expect(
      unknownStateMentions(config).map((w) => [w.location.file, w.location.line, w.message])
    ).toEqual([
      [
        'agents/reviewer/INSTRUCTIONS.md',
        3,
        'move_state: "Reserching" names no state of WORKFLOW.md, so an agent that asks for it is refused; did you mean "Researching"?'
      ],
      [
        'WORKFLOW.md',
        23,
        expect.stringContaining('move_state: "Nowhere" names no state of WORKFLOW.md')
      ]
    ])
    expect(unknownStateMentions(parse(BASE).config)).toEqual([])
  })
})
