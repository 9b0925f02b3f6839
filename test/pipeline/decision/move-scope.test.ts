import { describe, expect, it } from '@jest/globals'
import { moveScope } from '../../../src/pipeline/decision/move-scope.js'
import { seedConfig } from '../pipeline-config.js'

const config = seedConfig()
const none = { allowedStates: [] }

describe('moveScope', () => {
  it("allows the pipeline's states before and after the stage, and its completion and failed states", () => {
    expect(moveScope(config, 'Implementing', none)).toEqual([
      'Reviewing',
      'Researching',
      'Todo',
      'Done',
      "Won't Do"
    ])
    expect(moveScope(config, 'todo', none)).toEqual([
      'Researching',
      'Implementing',
      'Reviewing',
      'Done',
      "Won't Do"
    ])
  })

  it('leaves out the terminal states and the stage itself unless the profile allows them', () => {
    expect(moveScope(config, 'Implementing', none)).not.toContain('Closed')
    expect(moveScope(config, 'Implementing', none)).not.toContain('Implementing')
    expect(moveScope(config, 'Implementing', { allowedStates: ['Closed', 'done'] })).toEqual([
      'Reviewing',
      'Researching',
      'Todo',
      'Done',
      "Won't Do",
      'Closed'
    ])
  })

  it('follows only enabled automations that move the issue', () => {
    const off = {
      ...config,
      automations: config.automations.map((a) =>
        a.id === 'implement' ? { ...a, enabled: false } : a
      )
    }
    expect(moveScope(off, 'Implementing', none)).toEqual(['Reviewing', 'Done', "Won't Do"])
  })
})
