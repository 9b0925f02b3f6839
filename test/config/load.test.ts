import { describe, expect, it } from '@jest/globals'
import { UserErrors } from '../../src/errors.js'
import { parseWorkflow } from '../../src/config/load.js'
import { BASE, FILES, edit, errorsOf, parse, thrownBy, warningsOf } from './helpers.js'

describe('parseWorkflow', () => {
  it('fills in the defaults', () => {
    const { config, warnings } = parse(BASE)
    expect(warnings).toEqual([])
    expect(config.file).toBe('WORKFLOW.md')
    expect(config.tracker).toEqual({
      kind: 'github',
      apiKey: undefined,
      projectSlug: undefined,
      activeStates: ['Todo', 'Researching', 'Reviewing'],
      terminalStates: ['Closed', 'Cancelled', 'Canceled', 'Duplicate', 'Done'],
      completionState: 'Done',
      failedState: undefined,
      backlogStates: [],
      allowedBots: []
    })
    expect(config.workspace).toEqual({ baseBranch: undefined })
    expect(config.agent).toMatchObject({
      command: 'claude',
      maxTurns: 20,
      maxRetries: 2,
      stallTimeoutMs: 300000,
      turnTimeoutMs: 3600000,
      reviewers: [],
      reviewQuorum: 'any_block',
      autoReview: false
    })
    expect(config.handoff).toEqual({ budgetBytes: 30720, maxFileBytes: 1048576, maxFiles: 1000 })
    expect(config.automations).toEqual([
      {
        id: 'research',
        enabled: true,
        trigger: { type: 'issue_entered_state' },
        states: ['Todo'],
        filter: { matchMode: 'all', states: [], labelsAny: [], bodyContains: [] },
        profile: 'researcher',
        moveToState: 'Researching'
      }
    ])
    expect(config.body).toBe('Work on {{ issue.title }}.')
    expect(config.bodyLine).toBe(26)
  })

  it('reads profile files through readFile, trimmed, and records the soul_file line', () => {
    const asked: string[] = []
    const { config } = parseWorkflow(BASE, {
      file: 'WORKFLOW.md',
      env: {},
      readFile: (p) => {
        asked.push(p)
        return FILES[p] ?? null
      }
    })
    expect(asked).toEqual([
      'agents/researcher/SOUL.md',
      'agents/researcher/INSTRUCTIONS.md',
      'agents/reviewer/SOUL.md',
      'agents/reviewer/INSTRUCTIONS.md'
    ])
    const researcher = config.agent.profiles.researcher
    expect(researcher?.soulText).toBe('# researcher\n\nCurious and careful.')
    expect(researcher?.soulFile).toBe('agents/researcher/SOUL.md')
    expect(researcher?.soulLine).toBe(10)
    expect(researcher?.instructionsText).toBe('Map the code; write to {{ run.handoff_path }}.')
    expect(researcher?.allowedActions).toEqual(['comment', 'move_state'])
  })

  it("resolves profile paths from WORKFLOW.md's folder, inside the repository", () => {
    const text = edit('soul_file: agents/reviewer/SOUL.md', 'soul_file: ../shared/./SOUL.md')
    const files = { ...prefixed(FILES, 'docs/'), 'shared/SOUL.md': 'shared soul' }
    const { config } = parse(text, { file: 'docs/WORKFLOW.md', files })
    expect(config.agent.profiles.reviewer?.soulFile).toBe('shared/SOUL.md')
    expect(config.agent.profiles.reviewer?.soulText).toBe('shared soul')
    expect(config.agent.profiles.researcher?.instructionsFile).toBe(
      'docs/agents/researcher/INSTRUCTIONS.md'
    )

    expect(
      errorsOf(edit('soul_file: agents/reviewer/SOUL.md', 'soul_file: ../../SOUL.md'), {
        file: 'docs/WORKFLOW.md',
        files
      })
    ).toEqual([
      'docs/WORKFLOW.md:14:7: agent.profiles.reviewer.soul_file: must stay inside the repository; remove the ".." that leads out of it'
    ])
  })

  it('takes the folder from baseDir when given', () => {
    const { config } = parse(BASE, {
      file: '/abs/path/WORKFLOW.md',
      baseDir: 'cfg',
      files: prefixed(FILES, 'cfg/')
    })
    expect(config.agent.profiles.reviewer?.soulFile).toBe('cfg/agents/reviewer/SOUL.md')
  })

  it('normalises actions: lower-cased, de-duplicated, sorted', () => {
    const { config } = parse(
      edit('[comment, move_state]', '[MOVE_STATE, Comment, comment, " merge_pr "]')
    )
    expect(config.agent.profiles.researcher?.allowedActions).toEqual([
      'comment',
      'merge_pr',
      'move_state'
    ])
  })

  it('splits a profile command into argv, defaulting to agent.command', () => {
    const text = edit(
      'agent:\n',
      'agent:\n  command: codex   exec\n',
      edit('    reviewer:\n', '    reviewer:\n      command: " ./bin/agent.sh  --fast "\n')
    )
    const { profiles } = parse(text).config.agent
    expect(profiles.researcher?.command).toBe('codex   exec')
    expect(profiles.researcher?.argv).toEqual(['codex', 'exec'])
    expect(profiles.reviewer?.command).toBe('./bin/agent.sh  --fast')
    expect(profiles.reviewer?.argv).toEqual(['./bin/agent.sh', '--fast'])
  })

  it('keeps commit_paths and required_sections', () => {
    const text = edit(
      '      allowed_actions: [comment, move_state]\n',
      '      commit_paths: ["docs/**", "*.md"]\n      required_sections: ["## Findings", Risks]\n'
    )
    const researcher = parse(text).config.agent.profiles.researcher
    expect(researcher?.commitPaths).toEqual(['docs/**', '*.md'])
    expect(researcher?.requiredSections).toEqual(['## Findings', 'Risks'])
    expect(researcher?.allowedActions).toEqual([])
  })

  it('keeps the env names a profile declares, in order and each once', () => {
    const text = edit(
      '      allowed_actions: [comment, move_state]\n',
      '      env: [NPM_TOKEN, _private, AWS_SECRET_ACCESS_KEY, NPM_TOKEN, ITERVOX_X]\n'
    )
    const { profiles } = parse(text).config.agent
    expect(profiles.researcher?.env).toEqual([
      'NPM_TOKEN',
      '_private',
      'AWS_SECRET_ACCESS_KEY',
      'ITERVOX_X'
    ])
    expect(profiles.reviewer?.env).toEqual([])
  })

  it('accepts trigger.states lists and matches states case-insensitively', () => {
    const text = edit('      state: Todo', '      states: [todo, REVIEWING]')
    expect(parse(text).config.automations[0]?.states).toEqual(['todo', 'REVIEWING'])
  })

  it('treats empty values as not set', () => {
    const text = edit(
      '  completion_state: Done\n',
      '  completion_state: ""\n  failed_state:\n  allowed_bots:\nworkspace:\nhandoff:\n'
    )
    const { config } = parse(text)
    expect(config.tracker.completionState).toBeUndefined()
    expect(config.tracker.failedState).toBeUndefined()
    expect(config.tracker.allowedBots).toEqual([])
    expect(config.handoff.budgetBytes).toBe(30720)
  })

  it('reads the optional handoff section, tracker extras and base branch', () => {
    const text = edit(
      'agent:\n',
      'handoff:\n  budget_bytes: 1024\n  max_file_bytes: 2048\n  max_files: 5\nworkspace:\n  base_branch: release/1.x\nagent:\n',
      edit(
        '  completion_state: Done\n',
        '  completion_state: Done\n  failed_state: Done\n  allowed_bots: ["renovate[bot]"]\n'
      )
    )
    const { config } = parse(text)
    expect(config.handoff).toEqual({ budgetBytes: 1024, maxFileBytes: 2048, maxFiles: 5 })
    expect(config.workspace.baseBranch).toBe('release/1.x')
    expect(config.tracker.allowedBots).toEqual(['renovate[bot]'])
    expect(errorsOf(edit('agent:\n', 'workspace:\n  base_branch: -x\nagent:\n'))).toEqual([
      'WORKFLOW.md:8:16: workspace.base_branch: must be a branch name such as main (letters, digits, ".", "_", "-", "/"); leave it out for the default branch'
    ])
  })

  it('records where automation instructions start, without interpolating them', () => {
    const block = edit(
      '    profile: researcher\n',
      '    profile: researcher\n    instructions: |\n      Cost: $5 for {{ issue.title }} $HOME\n'
    )
    const automation = parse(block).config.automations[0]
    expect(automation?.instructions).toBe('Cost: $5 for {{ issue.title }} $HOME\n')
    expect(automation?.instructionsLine).toBe(23)
    const inline = edit(
      '    profile: researcher\n',
      '    profile: researcher\n    instructions: "Be brief, ${NAME}."\n'
    )
    const inlineAutomation = parse(inline).config.automations[0]
    expect(inlineAutomation?.instructions).toBe('Be brief, ${NAME}.')
    expect(inlineAutomation?.instructionsLine).toBe(22)
  })

  it('keeps a disabled automation but does not let it claim its state', () => {
    const text = edit(
      '---\n\nWork',
      '  - id: old\n    enabled: false\n    trigger: {type: issue_entered_state, state: Todo}\n    profile: reviewer\n---\n\nWork'
    )
    const { automations } = parse(text).config
    expect(automations.map((a) => [a.id, a.enabled])).toEqual([
      ['research', true],
      ['old', false]
    ])
  })

  it('gives profiles a null prototype, so any name is a safe lookup', () => {
    const text = edit(
      '    reviewer:',
      '    __proto__:',
      edit('agent:\n', 'agent:\n  reviewer_profile: __proto__\n')
    )
    const { profiles } = parse(text).config.agent
    expect(Object.keys(profiles)).toEqual(['researcher', '__proto__'])
    expect(profiles['constructor']).toBeUndefined()
    expect(profiles['__proto__']?.soulText).toBe('Sceptical.')
    expect(({} as Record<string, unknown>).soulText).toBeUndefined()
  })

  it('passes YAML warnings on', () => {
    const text = edit('kind: github', 'kind: !custom github')
    expect(warningsOf(text)).toEqual(['WORKFLOW.md:4:9: warning: YAML: Unresolved tag: !custom'])
  })

  it('follows aliases', () => {
    const text = edit(
      'active_states: [Todo, Researching, Reviewing]',
      'active_states: &active [Todo, Researching, Reviewing]\n  allowed_bots: *active'
    )
    expect(parse(text).config.tracker.allowedBots).toEqual(['Todo', 'Researching', 'Reviewing'])
  })

  it('stops runaway nesting where it happens', () => {
    const text = (depth: number) =>
      `---\nitervox_schema_version: 2\ntracker: ${'['.repeat(depth)}${']'.repeat(depth)}\n---\n`
    expect(errorsOf(text(70))).toEqual([
      'WORKFLOW.md:3:73: YAML: nested more than 64 levels deep; flatten it'
    ])
    expect(errorsOf(text(20000))).toHaveLength(1)
  })

  it('refuses deep nesting before yaml recurses into it, however it is written', () => {
    // Before the flat depth check, this sequence aborted the whole process inside yaml.
    for (const indicator of ['- ', '? ', '[', '{', 'a: ', '- [', '? {', '- a: ']) {
      for (const depth of [1000, 4000]) {
        for (const front of [indicator.repeat(depth), `tracker: ${indicator.repeat(depth)}`]) {
          expect(thrownBy(() => parse(`---\n${front}x\n---\n`))).toBeInstanceOf(UserErrors)
        }
      }
    }
  })

  it('stops alias bombs', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]']
    for (let i = 1; i < 8; i++) {
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`
      )
    }
    const text = `---\nitervox_schema_version: 2\n${lines.join('\n')}\n---\n`
    expect(errorsOf(text)).toEqual([
      'WORKFLOW.md:3:31: YAML: more than 100000 values (through aliases?); simplify it'
    ])
  })
})

describe('the file format', () => {
  it('loads a CRLF file exactly like its LF twin', () => {
    const lf = parse(BASE).config
    const crlf = parse(BASE.replace(/\n/g, '\r\n')).config
    expect(crlf).toEqual(lf)
    const typo = edit('tracker:', 'trackr:').replace(/\n/g, '\r\n')
    expect(errorsOf(typo)).toEqual([
      'WORKFLOW.md:3:1: unknown key "trackr"; did you mean "tracker"?'
    ])
  })

  it('reads a file without a closing fence as all front matter', () => {
    const text = BASE.slice(0, BASE.indexOf('---\n\nWork'))
    const { config } = parse(text)
    expect(config.body).toBe('')
    expect(config.automations).toHaveLength(1)
  })
})

describe('environment interpolation', () => {
  it('replaces $VAR and ${VAR} in string values, and reads $$ as $', () => {
    const text = edit(
      '  completion_state: Done\n',
      '  completion_state: $DONE_STATE\n  project_slug: ${OWNER}/${REPO}\n  allowed_bots: ["$$BOT", "${BOT}"]\n'
    )
    const env = { DONE_STATE: 'Done', OWNER: 'acme', REPO: 'rockets', BOT: 'ci[bot]' }
    const { tracker } = parse(text, { env }).config
    expect(tracker.completionState).toBe('Done')
    expect(tracker.projectSlug).toBe('acme/rockets')
    expect(tracker.allowedBots).toEqual(['$BOT', 'ci[bot]'])
  })

  it('interpolates profile values', () => {
    const text = edit('soul_file: agents/reviewer/SOUL.md', 'soul_file: agents/${WHO}/SOUL.md')
    expect(parse(text, { env: { WHO: 'reviewer' } }).config.agent.profiles.reviewer?.soulText).toBe(
      'Sceptical.'
    )
  })

  it('does not touch the body', () => {
    const text = BASE.replace('Work on', () => 'Pay $HOME ${X} $$ for')
    expect(parse(text).config.body).toBe('Pay $HOME ${X} $$ for {{ issue.title }}.')
  })

  it('names every unset variable at its value', () => {
    const text = edit(
      '  completion_state: Done\n',
      '  completion_state: Done\n  api_key: ${TOKEN_A}\n  project_slug: $OWNER/$REPO\n'
    )
    expect(errorsOf(text, { env: { OWNER: 'acme', REPO: '' } })).toEqual([
      'WORKFLOW.md:7:12: tracker.api_key: environment variable TOKEN_A is not set or is empty; set it, or write $$ for a literal $',
      'WORKFLOW.md:8:17: tracker.project_slug: environment variable REPO is not set or is empty; set it, or write $$ for a literal $'
    ])
  })

  it('never echoes a value taken from the environment', () => {
    const secret = 'sk-live-0123456789'
    const env = { S: secret }
    const unknownProfile = edit('    profile: researcher', '    profile: $S')
    const cases = [
      edit('kind: github', 'kind: ${S}'),
      unknownProfile,
      edit('move_to_state: Researching', 'move_to_state: $S'),
      edit('[comment, move_state]', '[comment, $S]'),
      edit('soul_file: agents/reviewer/SOUL.md', 'soul_file: $S'),
      edit('agent:\n', 'agent:\n  reviewer_profile: $S\n'),
      edit('  kind: github', '  kind: github\n  active_states: [$S]')
    ]
    for (const text of cases) {
      const lines = errorsOf(text, { env })
      expect(lines).toHaveLength(1)
      expect(lines[0]).not.toContain(secret)
      expect(lines[0]).not.toContain('sk-live')
    }
    expect(errorsOf(unknownProfile, { env })).toEqual([
      'WORKFLOW.md:21:14: automations[0].profile: no profile named (a value from the environment); use one of: researcher, reviewer'
    ])
  })
})

describe('UserErrors from parseWorkflow', () => {
  it('carries each problem as a UserError with a location', () => {
    const thrown = thrownBy(() => parse(edit('tracker:', 'trackr:')))
    expect(thrown).toBeInstanceOf(UserErrors)
    expect((thrown as UserErrors).errors[0]?.location).toEqual({
      file: 'WORKFLOW.md',
      line: 3,
      col: 1
    })
  })
})

function prefixed(files: Record<string, string>, dir: string): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([k, v]) => [dir + k, v]))
}
