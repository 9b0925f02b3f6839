import { describe, expect, it } from '@jest/globals'
import { UserError, UserErrors } from '../../src/errors.js'
import { BASE, edit, errorsOf, parse, thrownBy, warningsOf } from './helpers.js'

describe('WORKFLOW.md mistakes, one line each', () => {
  it('pins the did-you-mean for a misspelt top-level key', () => {
    expect(errorsOf(edit('tracker:', 'trackr:'))).toEqual([
      'WORKFLOW.md:3:1: unknown key "trackr"; did you mean "tracker"?'
    ])
  })

  it('pins a profile name typo in an automation', () => {
    expect(errorsOf(edit('    profile: researcher', '    profile: researchr'))).toEqual([
      'WORKFLOW.md:21:14: automations[0].profile: no profile named "researchr"; did you mean "researcher"?'
    ])
  })

  it('pins a state typo in move_to_state', () => {
    expect(errorsOf(edit('move_to_state: Researching', 'move_to_state: Reserching'))).toEqual([
      'WORKFLOW.md:23:22: automations[0].policy.move_to_state: unknown state "Reserching"; did you mean "Researching"?'
    ])
  })

  it('pins an action typo', () => {
    expect(errorsOf(edit('[comment, move_state]', '[comment, mvoe_state]'))).toEqual([
      'WORKFLOW.md:12:34: agent.profiles.researcher.allowed_actions[1]: unknown action "mvoe_state"; did you mean "move_state"?'
    ])
  })

  it('pins an unknown state in allowed_states, and warns when the profile may not move', () => {
    const moves = '      allowed_actions: [comment, move_state]'
    expect(errorsOf(edit(moves, `${moves}\n      allowed_states: [Done, Reveiwing]`))).toEqual([
      'WORKFLOW.md:13:30: agent.profiles.researcher.allowed_states[1]: unknown state "Reveiwing"; did you mean "Reviewing"?'
    ])
    const review = '      instructions_file: agents/reviewer/INSTRUCTIONS.md'
    expect(warningsOf(edit(review, `${review}\n      allowed_states: [Done]`))).toEqual([
      'WORKFLOW.md:16:7: warning: agent.profiles.reviewer.allowed_states: has no effect: profile "reviewer" may not move the issue; add move_state to its allowed_actions'
    ])
  })

  it('pins a max_review_rounds below one', () => {
    expect(errorsOf(edit('agent:\n', 'agent:\n  max_review_rounds: 0\n'))).toEqual([
      'WORKFLOW.md:8:22: agent.max_review_rounds: must be greater than 0'
    ])
  })

  it('lists the allowed actions when no name is close', () => {
    expect(errorsOf(edit('[comment, move_state]', '[deploy]'))).toEqual([
      'WORKFLOW.md:12:25: agent.profiles.researcher.allowed_actions[0]: unknown action "deploy"; use one of: comment, comment_pr, create_issue, move_state, provide_input, merge_pr'
    ])
  })

  it.each([
    [
      '  kind: github',
      '  kidn: github',
      ['WORKFLOW.md:4:3: tracker: unknown key "kidn"; did you mean "kind"?']
    ],
    [
      'kind: github',
      'kind: gitlab',
      [
        'WORKFLOW.md:4:9: tracker.kind: must be one of github, local, linear; did you mean "github"?'
      ]
    ],
    [
      'kind: github',
      'kind: linear',
      [
        'WORKFLOW.md:3:1: tracker.api_key: tracker kind linear needs an API key; add api_key: $LINEAR_API_KEY'
      ]
    ],
    [
      'kind: github',
      'kind: local\n  project_slug: 1abc',
      [
        'WORKFLOW.md:5:17: tracker.project_slug: for the local tracker this is the issue prefix: a letter, then letters, digits or _ (e.g. ENG)'
      ]
    ],
    [
      'kind: github',
      'kind: github\n  project_slug: just-a-name',
      [
        'WORKFLOW.md:5:17: tracker.project_slug: for the github tracker this is owner/repo; inside the action it can be left out'
      ]
    ],
    [
      '  kind: github\n',
      '',
      [
        'WORKFLOW.md:3:1: tracker: missing required key "kind" (one of github, local, linear); add it'
      ]
    ],
    [
      'tracker:\n  kind: github\n  active_states: [Todo, Researching, Reviewing]\n  completion_state: Done\n',
      '',
      ['WORKFLOW.md:2:1: missing required key "tracker"; add it']
    ],
    [
      'active_states: [Todo, Researching, Reviewing]',
      'active_states: Todo',
      ['WORKFLOW.md:5:18: tracker.active_states: must be a list, not text']
    ],
    [
      'itervox_schema_version: 2',
      'itervox_schema_version: 3',
      [
        'WORKFLOW.md:2:25: unsupported itervox_schema_version 3: this itervox-handoff reads version 2; write itervox_schema_version: 2, or use a newer itervox-handoff'
      ]
    ],
    [
      'itervox_schema_version: 2',
      'itervox_schema_version: 1',
      [
        'WORKFLOW.md:2:25: itervox_schema_version 1 is the legacy inline profile-prompt schema; move each profile prompt into the files named by soul_file and instructions_file (itervox-handoff init writes an example of each) and set itervox_schema_version: 2'
      ]
    ],
    [
      'itervox_schema_version: 2\n',
      '',
      [
        'WORKFLOW.md:2:1: missing itervox_schema_version; add "itervox_schema_version: 2" as the first line of the front matter'
      ]
    ],
    [
      'itervox_schema_version: 2',
      'itervox_schema_version: "2"',
      [
        'WORKFLOW.md:2:25: itervox_schema_version must be the number 2; write itervox_schema_version: 2'
      ]
    ],
    [
      'agent:\n',
      'agent:\n  agent_mode: teams\n  enable_agent_teams: true\n',
      [
        'WORKFLOW.md:8:3: agent.agent_mode: is not allowed in itervox_schema_version 2; remove it',
        'WORKFLOW.md:9:3: agent.enable_agent_teams: is not allowed in itervox_schema_version 2; remove it'
      ]
    ],
    [
      '    reviewer:\n',
      '    reviewer:\n      prompt: You review.\n',
      [
        'WORKFLOW.md:14:7: agent.profiles.reviewer.prompt: inline prompts are not allowed in itervox_schema_version 2; move the text into the file named by instructions_file'
      ]
    ],
    [
      'agent:\n',
      'agent:\n  max_turns: many\n  auto_review: yes\n  max_retries: -1\n  stall_timeout_ms: 1.5\n  turn_timeout_ms: 0\n',
      [
        'WORKFLOW.md:8:14: agent.max_turns: must be a whole number, not text',
        'WORKFLOW.md:9:16: agent.auto_review: must be true or false, not text',
        'WORKFLOW.md:10:16: agent.max_retries: must be at least 0',
        'WORKFLOW.md:11:21: agent.stall_timeout_ms: must be a whole number, not 1.5',
        'WORKFLOW.md:12:20: agent.turn_timeout_ms: must be greater than 0'
      ]
    ],
    [
      'agent:\n',
      'agent:\n  command: claude; rm -rf /\n',
      [
        'WORKFLOW.md:8:12: agent.command: must not contain any of ;|&`$()>< (it runs without a shell); put the pipeline in a wrapper script and name the script here'
      ]
    ],
    [
      '    reviewer:\n',
      '    reviewer:\n      command: claude --foo | tee x\n',
      [
        'WORKFLOW.md:14:16: agent.profiles.reviewer.command: must not contain any of ;|&`$()>< (it runs without a shell); put the pipeline in a wrapper script and name the script here'
      ]
    ],
    [
      '    reviewer:\n',
      '    reviewer:\n      command: claude --model "opus 4"\n',
      [
        'WORKFLOW.md:14:16: agent.profiles.reviewer.command: must not contain quotes or backslashes (it is split on whitespace, without a shell); put the arguments in a wrapper script and name the script here'
      ]
    ],
    [
      'soul_file: agents/reviewer/SOUL.md',
      'soul_file: agents/reviewer/SOUL.txt',
      [
        'WORKFLOW.md:14:7: agent.profiles.reviewer.soul_file: agents/reviewer/SOUL.txt does not exist in the repository; create it or fix the path'
      ]
    ],
    [
      'soul_file: agents/reviewer/SOUL.md',
      'soul_file: /etc/passwd',
      [
        "WORKFLOW.md:14:7: agent.profiles.reviewer.soul_file: must be relative to WORKFLOW.md's folder, not an absolute path"
      ]
    ],
    [
      'instructions_file: agents/reviewer/INSTRUCTIONS.md',
      'instructions_file: agents/../../secrets.md',
      [
        'WORKFLOW.md:15:7: agent.profiles.reviewer.instructions_file: must stay inside the repository; remove the ".." that leads out of it'
      ]
    ],
    [
      'soul_file: agents/reviewer/SOUL.md',
      'soul_file: agents\\reviewer\\SOUL.md',
      [
        'WORKFLOW.md:14:7: agent.profiles.reviewer.soul_file: must use "/" between folders, not "\\"'
      ]
    ],
    [
      '      soul_file: agents/reviewer/SOUL.md\n',
      '',
      ['WORKFLOW.md:13:5: agent.profiles.reviewer: missing required key "soul_file"; add it']
    ],
    [
      '      soul_file: agents/reviewer/SOUL.md\n',
      '      soul_file:\n',
      ['WORKFLOW.md:14:7: agent.profiles.reviewer.soul_file: is empty; write text']
    ],
    [
      '      soul_file: agents/reviewer/SOUL.md\n',
      '      soul_fil: agents/reviewer/SOUL.md\n',
      [
        'WORKFLOW.md:14:7: agent.profiles.reviewer: unknown key "soul_fil"; did you mean "soul_file"?'
      ]
    ],
    [
      '    reviewer:',
      '    story writer:',
      [
        'WORKFLOW.md:13:5: agent.profiles: profile name "story writer" may only use letters, digits, ".", "_" and "-"; rename it, e.g. "story-writer"'
      ]
    ],
    [
      '    reviewer:',
      '    a/b:',
      [
        'WORKFLOW.md:13:5: agent.profiles: profile name "a/b" may only use letters, digits, ".", "_" and "-"; rename it, e.g. "a-b"'
      ]
    ],
    [
      'agent:\n',
      'agent:\n  auto_review: true\n',
      [
        'WORKFLOW.md:8:16: agent.auto_review: needs agent.reviewer_profile; name the profile that reviews, or set auto_review: false'
      ]
    ],
    [
      'agent:\n',
      'agent:\n  reviewer_profile: reviwer\n',
      [
        'WORKFLOW.md:8:21: agent.reviewer_profile: no profile named "reviwer"; did you mean "reviewer"?'
      ]
    ],
    ['agent:\n', 'agent:\n  reviewer_profile: reviewer\n', [] as string[]],
    ['    reviewer:\n', '    reviewer:\n      enabled: false\n', [] as string[]],
    [
      '      state: Todo',
      '      states: [Todo, Reviewng]',
      [
        'WORKFLOW.md:20:22: automations[0].trigger.states[1]: unknown state "Reviewng"; did you mean "Reviewing"?'
      ]
    ],
    [
      '      state: Todo',
      '      state: Backlog',
      [
        'WORKFLOW.md:20:14: automations[0].trigger.state: unknown state "Backlog"; add it to tracker.active_states or tracker.terminal_states'
      ]
    ],
    [
      '      state: Todo',
      '      state: Todo\n      states: [Todo]',
      ['WORKFLOW.md:21:15: automations[0].trigger.states: use either state or states, not both']
    ],
    [
      '      state: Todo\n',
      '',
      [
        'WORKFLOW.md:19:7: automations[0].trigger: needs the state that starts the automation; add state: <name> or states: [<names>]'
      ]
    ],
    [
      '      state: Todo',
      '      states: []',
      ['WORKFLOW.md:20:15: automations[0].trigger.states: must list at least 1']
    ],
    [
      '      type: issue_entered_state',
      '      type: issue_enterd_state',
      [
        'WORKFLOW.md:19:13: automations[0].trigger.type: must be one of issue_entered_state, cron, tracker_comment_added, pr_opened, pr_merged, run_failed, input_required, issue_moved_to_backlog, rate_limited, blockers_resolved; did you mean "issue_entered_state"?'
      ]
    ],
    [
      '    policy:\n      move_to_state: Researching\n',
      '    policy:\n      move_to_state: Researching\n      auto_resum: true\n',
      [
        'WORKFLOW.md:24:7: automations[0].policy: unknown key "auto_resum"; did you mean "auto_resume"?'
      ]
    ],
    [
      '---\n\nWork',
      '  - id: RESEARCH\n    trigger: {type: issue_entered_state, state: todo}\n    profile: reviewer\n---\n\nWork',
      [
        'WORKFLOW.md:24:9: automations[1].id: id "RESEARCH" is already used by automations[0] (ids ignore case); rename one',
        'WORKFLOW.md:25:49: automations[1].trigger.state: state "todo" already starts automations[0] ("research"); a state may start only one enabled automation'
      ]
    ],
    [
      'itervox_schema_version: 2\n',
      'itervox_schema_version: 2\nhandoff:\n  budget_bytes: 0\n  max_files: big\n  extra: 1\n',
      [
        'WORKFLOW.md:4:17: handoff.budget_bytes: must be greater than 0',
        'WORKFLOW.md:5:14: handoff.max_files: must be a whole number, not text',
        'WORKFLOW.md:6:3: handoff: unknown key "extra"; remove it, or use one of: budget_bytes, max_file_bytes, max_files'
      ]
    ],
    [
      '      allowed_actions: [comment, move_state]\n',
      '      allowed_actions: [comment, move_state]\n      commit_paths: [../x, "src/**"]\n      required_sections: ["## Findings", ""]\n',
      [
        'WORKFLOW.md:13:22: agent.profiles.researcher.commit_paths[0]: must be a glob relative to the repository root, with "/" between folders, no ".." and nothing under .git',
        'WORKFLOW.md:14:42: agent.profiles.researcher.required_sections[1]: must not be empty'
      ]
    ],
    [
      '      allowed_actions: [comment, move_state]\n',
      '      allowed_actions: [comment, move_state]\n      env: [NPM_TOKEN, 1PASSWORD, "MY-KEY", GITHUB_TOKEN, INPUT_GITHUB-TOKEN, ACTIONS_ID_TOKEN_REQUEST_TOKEN]\n',
      [
        'WORKFLOW.md:13:24: agent.profiles.researcher.env[1]: "1PASSWORD" is not an environment variable name; use letters, digits and "_", not starting with a digit',
        'WORKFLOW.md:13:35: agent.profiles.researcher.env[2]: "MY-KEY" is not an environment variable name; use letters, digits and "_", not starting with a digit',
        'WORKFLOW.md:13:45: agent.profiles.researcher.env[3]: "GITHUB_TOKEN" is a runner variable (a token, an action input or a step file), which the agent never gets; remove it: the action pushes and comments itself after the agent exits',
        'WORKFLOW.md:13:59: agent.profiles.researcher.env[4]: "INPUT_GITHUB-TOKEN" is a runner variable (a token, an action input or a step file), which the agent never gets; remove it: the action pushes and comments itself after the agent exits',
        'WORKFLOW.md:13:79: agent.profiles.researcher.env[5]: "ACTIONS_ID_TOKEN_REQUEST_TOKEN" is a runner variable (a token, an action input or a step file), which the agent never gets; remove it: the action pushes and comments itself after the agent exits'
      ]
    ],
    [
      '      allowed_actions: [comment, move_state]\n',
      '      allowed_actions: [comment, move_state]\n      evn: [NPM_TOKEN]\n',
      ['WORKFLOW.md:13:7: agent.profiles.researcher: unknown key "evn"; did you mean "env"?']
    ],
    [
      '      allowed_actions: [comment, move_state]\n',
      '      allowed_actions: [comment, move_state]\n      env: NPM_TOKEN\n',
      ['WORKFLOW.md:13:12: agent.profiles.researcher.env: must be a list, not text']
    ],
    [
      'tracker:\n',
      'tracker:\n  kind: github\n',
      ['WORKFLOW.md:5:3: duplicate key "kind"; keep only one']
    ],
    [
      'agent:\n',
      'agent:\n  max_turns: [1\n',
      [
        'WORKFLOW.md:9:3: YAML: Flow sequence in block collection must be sufficiently indented and end with a ]'
      ]
    ],
    [
      'agent:\n',
      'defaults: &d\n  soul_file: x\nagent:\n  <<: *d\n',
      ['WORKFLOW.md:10:3: YAML merge keys ("<<") are not supported; write the keys out']
    ]
  ])('%j → %j', (from, to, expected) => {
    if (expected.length === 0) {
      expect(() => parse(edit(from, to))).not.toThrow()
    } else {
      expect(errorsOf(edit(from, to))).toEqual(expected)
    }
  })

  it('keeps messages on one line when names hold newlines', () => {
    expect(errorsOf(edit('  kind: github', '  "ki\\nnd": github\n  kind: github'))).toEqual([
      'WORKFLOW.md:4:3: tracker: unknown key "ki\\nnd"; did you mean "kind"?'
    ])
    expect(errorsOf(edit('      state: Todo', '      state: "To\\ndo"'))).toEqual([
      'WORKFLOW.md:20:14: automations[0].trigger.state: unknown state "To\\ndo"; did you mean "Todo"?'
    ])
    expect(errorsOf(edit('    reviewer:', '    "a\\tb":'))).toEqual([
      'WORKFLOW.md:13:5: agent.profiles: profile name "a\\tb" may only use letters, digits, ".", "_" and "-"; rename it, e.g. "a-b"'
    ])
  })

  it('does not echo an env name that came from the environment', () => {
    const text = edit('      allowed_actions: [comment, move_state]\n', '      env: [$WHICH]\n')
    expect(errorsOf(text, { env: { WHICH: 'GITHUB_TOKEN' } })).toEqual([
      'WORKFLOW.md:12:13: agent.profiles.researcher.env[0]: (a value from the environment) is a runner variable (a token, an action input or a step file), which the agent never gets; remove it: the action pushes and comments itself after the agent exits'
    ])
  })

  it('rejects a front matter that is not a map', () => {
    expect(errorsOf('---\n- a\n- b\n---\nbody')).toEqual([
      'WORKFLOW.md:2:1: the front matter must be "key: value" settings, starting with itervox_schema_version: 2'
    ])
  })

  it('asks for itervox_schema_version when there is no front matter at all', () => {
    expect(errorsOf('Just a prompt.\n')).toEqual([
      'WORKFLOW.md:1:1: missing itervox_schema_version: the file has no front matter (line 1 is not exactly "---"); start the file with a "---" line, "itervox_schema_version: 2" and the settings, then a closing "---"'
    ])
    expect(errorsOf('---\n---\nbody')).toEqual([
      'WORKFLOW.md:2:1: missing itervox_schema_version; add "itervox_schema_version: 2" as the first line of the front matter'
    ])
  })

  it('reports an alias that refers to itself', () => {
    const text = edit(
      'active_states: [Todo, Researching, Reviewing]',
      'active_states: &s [Todo, *s]'
    )
    expect(errorsOf(text)).toEqual([
      'WORKFLOW.md:5:28: YAML: alias *s refers to itself or to nothing'
    ])
  })

  it('reports every mistake at once, in file order, without stack traces', () => {
    let text = edit('tracker:', 'trackr:')
    text = edit('    profile: researcher', '    profile: researchr', text)
    text = edit('[comment, move_state]', '[coment, move_state]', text)
    text = edit('      soul_file: agents/reviewer/SOUL.md\n', '', text)
    text = edit('agent:\n', 'agent:\n  max_turns: 0\n  polling: {}\n', text)
    const thrown = thrownBy(() => parse(text))
    expect(thrown).toBeInstanceOf(UserErrors)
    const errors = thrown as UserErrors
    expect(
      errors.errors.every((e) => e instanceof UserError && e.location?.line !== undefined)
    ).toBe(true)
    expect(errors.format()).toBe(
      [
        'WORKFLOW.md:3:1: unknown key "trackr"; did you mean "tracker"?',
        'WORKFLOW.md:8:14: agent.max_turns: must be greater than 0',
        'WORKFLOW.md:9:3: agent: unknown key "polling"; remove it, or use one of: command, max_turns, max_retries, stall_timeout_ms, turn_timeout_ms, reviewer_profile, reviewer_profiles, review_quorum, auto_review, max_review_rounds, max_concurrent_agents, max_concurrent_agents_by_state, max_cost_usd, prices, profiles',
        'WORKFLOW.md:14:25: agent.profiles.researcher.allowed_actions[0]: unknown action "coment"; did you mean "comment"?',
        'WORKFLOW.md:15:5: agent.profiles.reviewer: missing required key "soul_file"; add it',
        'WORKFLOW.md:22:14: automations[0].profile: no profile named "researchr"; did you mean "researcher"?'
      ].join('\n')
    )
    expect(errors.format()).not.toMatch(/\n\s+at /)
    expect(errors.format()).not.toContain('Error')
  })
})

describe('keys this CI runner does not use', () => {
  it('load with one warning each, without interpolating them', () => {
    const text = edit(
      'itervox_schema_version: 2\n',
      'itervox_schema_version: 2\nserver:\n  port: 0\nhooks:\n  before_run: echo $HOME_NOT_SET\n'
    )
    expect(warningsOf(text)).toEqual([
      'WORKFLOW.md:3:1: warning: server: used only by the itervox daemon; this CI runner ignores it',
      'WORKFLOW.md:5:1: warning: hooks: used only by the itervox daemon; this CI runner ignores it'
    ])
  })

  it('cover every section', () => {
    const text = BASE.replace(
      '  completion_state: Done\n',
      '  completion_state: Done\n  endpoint: https://x\n  working_state: Doing\n'
    )
      .replace(
        'agent:\n',
        'workspace:\n  clone_url: x\nagent:\n  backend: claude\n  base_branch: main\n'
      )
      .replace(
        '    reviewer:\n',
        '    reviewer:\n      permission_mode: sandbox\n      require_evidence: [tests]\n'
      )
    expect(warningsOf(text)).toEqual([
      'WORKFLOW.md:7:3: warning: tracker.endpoint: used only by the itervox daemon; this CI runner ignores it',
      'WORKFLOW.md:8:3: warning: tracker.working_state: used only by the itervox daemon; this CI runner ignores it',
      'WORKFLOW.md:10:3: warning: workspace.clone_url: used only by the itervox daemon; this CI runner ignores it',
      'WORKFLOW.md:12:3: warning: agent.backend: used only by the itervox daemon; this CI runner ignores it',
      'WORKFLOW.md:13:3: warning: agent.base_branch: used only by the itervox daemon; this CI runner ignores it',
      'WORKFLOW.md:20:7: warning: agent.profiles.reviewer.permission_mode: used only by the itervox daemon; this CI runner ignores it',
      'WORKFLOW.md:21:7: warning: agent.profiles.reviewer.require_evidence: used only by the itervox daemon; this CI runner ignores it'
    ])
  })

  it('warn when an enabled automation uses a disabled profile', () => {
    const text = edit('      allowed_actions: [comment, move_state]\n', '      enabled: false\n')
    expect(warningsOf(text)).toEqual([
      'WORKFLOW.md:21:14: warning: automations[0].profile: profile "researcher" is disabled, so this automation will be skipped'
    ])
  })
})

describe('a disabled reviewer profile', () => {
  it('cannot be agent.reviewer_profile', () => {
    const text = edit(
      'agent:\n',
      'agent:\n  reviewer_profile: reviewer\n',
      edit('    reviewer:\n', '    reviewer:\n      enabled: false\n')
    )
    expect(errorsOf(text)).toEqual([
      'WORKFLOW.md:8:21: agent.reviewer_profile: profile "reviewer" is disabled; enable it or name another profile'
    ])
  })
})

describe('messages that used to mislead', () => {
  it('points an unclosed front matter that reads on into the body at its opening "---"', () => {
    const unclosed = BASE.replace(/\n---\n\nWork on/, '\n\nWork on: {{ issue.title }}')
    expect(errorsOf(unclosed)).toEqual([
      'WORKFLOW.md:1:1: the front matter that starts here is never closed; add a "---" line after the last setting, before the prompt template'
    ])
  })

  it('reports a badly indented key on its own line, past a comment before it', () => {
    expect(
      errorsOf(edit('  completion_state: Done', '  # the end\n   completion_state: Done'))
    ).toEqual(['WORKFLOW.md:7:4: YAML: All mapping items must start at the same column'])
  })

  it('reports a key indented deeper than the one above on its own line', () => {
    expect(errorsOf(edit('  completion_state: Done', '    completion_state: Done'))).toEqual([
      'WORKFLOW.md:6:5: YAML: All mapping items must start at the same column'
    ])
    const deeper = edit(
      '  completion_state: Done',
      '  completion_state: Done\n    failed_state: Blocked'
    )
    expect(errorsOf(deeper)).toEqual([
      'WORKFLOW.md:7:5: YAML: indented deeper than the key above, which already has a value; line it up with that key'
    ])
  })

  it('never advises $$ in a command, where no $ may stay', () => {
    const text = edit('agent:\n', 'agent:\n  command: claude --model $MODEL\n')
    expect(errorsOf(text)).toEqual([
      'WORKFLOW.md:8:12: agent.command: environment variable MODEL is not set or is empty; set it, or leave it out (a command may not hold a literal $)'
    ])
    const malformed = edit('agent:\n', 'agent:\n  command: claude ${MODEL\n')
    expect(errorsOf(malformed)).toEqual([
      'WORKFLOW.md:8:12: agent.command: a "${" must be followed by a variable name and "}", as in ${NAME} (a command may not hold a literal $)'
    ])
    // Elsewhere $$ is the way to a literal $ (load.test.ts reads it).
    expect(errorsOf(edit('completion_state: Done', 'completion_state: $DONE'))).toEqual([
      'WORKFLOW.md:6:21: tracker.completion_state: environment variable DONE is not set or is empty; set it, or write $$ for a literal $'
    ])
  })
})
