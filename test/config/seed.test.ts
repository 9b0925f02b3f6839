import { describe, expect, it } from '@jest/globals'
import { formatWarning, loadWorkflowFile } from '../../src/config/load.js'
import { UserErrors } from '../../src/errors.js'
import { thrownBy } from './helpers.js'

const SEED = 'test/fixtures/workflows/seed/WORKFLOW.md'

const NO_FILTER = { matchMode: 'all', states: [], labelsAny: [], bodyContains: [] }

describe("the handoff guide's example WORKFLOW.md", () => {
  // Profile paths are repository-relative; load-file.test.ts pins them exactly.
  it('loads with LINEAR_API_KEY set', () => {
    const { config } = loadWorkflowFile(SEED, { LINEAR_API_KEY: 'lin_api_test' })
    expect(config.tracker).toEqual({
      kind: 'linear',
      apiKey: 'lin_api_test',
      projectSlug: 'my-project',
      activeStates: ['Todo', 'Researching', 'Implementing', 'Reviewing'],
      terminalStates: ['Closed', 'Cancelled', 'Canceled', 'Duplicate', 'Done'],
      completionState: 'Done',
      failedState: "Won't Do",
      backlogStates: ['Backlog'],
      allowedBots: []
    })
    expect(config.workspace).toEqual({ baseBranch: 'main' })
    expect(config.agent).toMatchObject({
      command: 'claude',
      maxTurns: 20,
      maxRetries: 2,
      stallTimeoutMs: 300000,
      turnTimeoutMs: 3600000,
      reviewers: ['reviewer'],
      reviewQuorum: 'any_block',
      autoReview: false,
      maxReviewRounds: 3
    })
    expect(Object.keys(config.agent.profiles)).toEqual(['researcher', 'implementer', 'reviewer'])
    expect(config.agent.profiles.researcher).toEqual({
      name: 'researcher',
      command: 'claude',
      argv: ['claude'],
      commandAt: { key: 'agent.profiles.researcher.command', line: 24 },
      soulFile: expect.stringMatching(/(^|\/)\.itervox\/agents\/researcher\/SOUL\.md$/),
      soulText: expect.stringMatching(
        /^# researcher SOUL\n\nYou are a careful code archaeologist\./
      ),
      soulLine: 25,
      instructionsFile: expect.stringMatching(
        /(^|\/)\.itervox\/agents\/researcher\/INSTRUCTIONS\.md$/
      ),
      instructionsText: expect.stringMatching(
        /^# researcher INSTRUCTIONS\n[^]*\{\{ run\.handoff_path \}\}/
      ),
      allowedActions: ['comment', 'move_state'],
      allowedStates: [],
      enabled: true,
      commitPaths: [],
      requiredSections: [],
      env: [],
      verify: [],
      verifyTimeoutMs: 600_000
    })
    expect(config.automations).toEqual([
      {
        id: 'kick-off-research',
        enabled: true,
        trigger: { type: 'issue_entered_state' },
        filter: NO_FILTER,
        states: ['Todo'],
        profile: 'researcher',
        moveToState: 'Researching'
      },
      {
        id: 'kick-off-implementation',
        enabled: true,
        trigger: { type: 'issue_entered_state' },
        filter: NO_FILTER,
        states: ['Researching'],
        profile: 'implementer',
        moveToState: 'Implementing'
      },
      {
        id: 'kick-off-review',
        enabled: true,
        trigger: { type: 'issue_entered_state' },
        filter: NO_FILTER,
        states: ['Implementing'],
        profile: 'reviewer',
        moveToState: 'Reviewing'
      }
    ])
    expect(config.handoff).toEqual({ budgetBytes: 30720, maxFileBytes: 1048576, maxFiles: 1000 })
    expect(config.body).toBe(
      'Implement issue {{ issue.identifier }}: {{ issue.title }}.\n\n{{ issue.description }}'
    )
    expect(config.bodyLine).toBe(67)
  })

  it('warns once for each itervox daemon key it uses', () => {
    const { warnings } = loadWorkflowFile(SEED, { LINEAR_API_KEY: 'k' })
    expect(warnings.map(formatWarning)).toEqual([
      `${SEED}:12:3: warning: workspace.root: used only by the itervox daemon; this CI runner ignores it`,
      `${SEED}:13:3: warning: workspace.worktree: used only by the itervox daemon; this CI runner ignores it`,
      `${SEED}:15:3: warning: workspace.auto_clear: used only by the itervox daemon; this CI runner ignores it`
    ])
  })

  it('reads agent.max_concurrent_agents (the action holds it across jobs)', () => {
    const { config } = loadWorkflowFile(SEED, { LINEAR_API_KEY: 'k' })
    expect(config.agent.maxConcurrentAgents).toBe(3)
  })

  it('fails naming LINEAR_API_KEY when it is unset or empty', () => {
    for (const env of [{}, { LINEAR_API_KEY: '' }]) {
      const thrown = thrownBy(() => loadWorkflowFile(SEED, env))
      expect(thrown).toBeInstanceOf(UserErrors)
      expect((thrown as UserErrors).format()).toBe(
        `${SEED}:5:12: tracker.api_key: environment variable LINEAR_API_KEY is not set or is empty; set it, or write $$ for a literal $`
      )
    }
  })
})
