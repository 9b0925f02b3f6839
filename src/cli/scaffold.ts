/**
 * The files `init` (and the demo) write: a WORKFLOW.md with the research → implement → review
 * pipeline and each profile's SOUL.md and INSTRUCTIONS.md.
 */
export const PROFILES = ['researcher', 'implementer', 'reviewer'] as const
type ProfileName = (typeof PROFILES)[number]

/** The pipeline's states, in order. */
export const STATES = {
  start: 'Todo',
  implement: 'Implementing',
  review: 'Reviewing',
  done: 'Done',
  failed: 'Blocked'
} as const

export interface WorkflowTemplate {
  tracker: 'github' | 'local'
  /** The agent command every profile runs. */
  command: string
  /** What the implementer may commit besides its deliverable. */
  implementerPaths: string[]
}

export interface ScaffoldFile {
  /** Repository-relative. */
  path: string
  text: string
}

export function scaffoldFiles(t: WorkflowTemplate): ScaffoldFile[] {
  return [
    { path: 'WORKFLOW.md', text: workflowText(t) },
    ...PROFILES.flatMap((p) => [
      { path: `.itervox/agents/${p}/SOUL.md`, text: profileStarter(p, 'soul') },
      { path: `.itervox/agents/${p}/INSTRUCTIONS.md`, text: profileStarter(p, 'instructions') }
    ])
  ]
}

function workflowText(t: WorkflowTemplate): string {
  const { start, implement, review, done, failed } = STATES
  const list = (items: string[]) => `[${items.map((i) => JSON.stringify(i)).join(', ')}]`
  const tracker =
    t.tracker === 'github'
      ? [
          'tracker:',
          '  kind: github',
          `  # States are issue labels: label an issue "${start}" to start the pipeline.`
        ]
      : [
          'tracker:',
          '  kind: local',
          '  # Issues are files, .itervox/issues/<ID>.md, with title and state in their front matter.',
          `  # Start one with: itervox-handoff run --issue <ID> --until-idle (state: ${start})`
        ]
  const profile = (name: ProfileName, actions: string[], extra: string[] = []) => [
    `    ${name}:`,
    `      soul_file: .itervox/agents/${name}/SOUL.md`,
    `      instructions_file: .itervox/agents/${name}/INSTRUCTIONS.md`,
    `      allowed_actions: ${list(actions)}`,
    ...extra
  ]
  return [
    '---',
    '# A research → implement → review pipeline. Entering a state runs one profile; its',
    '# deliverable is committed to .itervox/handoff/ on the issue branch, and every later stage',
    '# reads it. Check this file with: itervox-handoff validate',
    'itervox_schema_version: 2',
    '',
    ...tracker,
    `  active_states: ${list([start, implement, review])}`,
    `  completion_state: ${JSON.stringify(done)}`,
    `  failed_state: ${JSON.stringify(failed)}`,
    '',
    'agent:',
    `  command: ${t.command}`,
    '  max_retries: 2 # runs again after a failed, stalled or timed-out attempt',
    '  stall_timeout_ms: 300000 # 5 minutes with no output and no CPU ends a run as stalled',
    '  turn_timeout_ms: 3600000 # one run may take an hour at most',
    '  profiles:',
    ...profile('researcher', ['comment']),
    ...profile(
      'implementer',
      ['comment'],
      [
        '      # Besides its deliverable, what the implementer may commit. A stage never commits',
        '      # WORKFLOW.md, .github/, .itervox/agents/ or an earlier handoff, nor agent',
        '      # configuration (.claude/, CLAUDE.md, AGENTS.md, .gemini/, .mcp.json, ...) unless',
        '      # an entry here names it without a wildcard, e.g. "CLAUDE.md".',
        `      commit_paths: ${list(t.implementerPaths)}`
      ]
    ),
    ...profile('reviewer', ['move_state', 'comment']),
    '',
    'automations:',
    ...automation('research', start, 'researcher', implement),
    ...automation('implement', implement, 'implementer', review),
    ...automation('review', review, 'reviewer', done),
    '---',
    '',
    'You are one stage of a pipeline working on issue {{ issue.identifier }}: {{ issue.title }}.',
    '',
    '{{ issue.description }}',
    ''
  ].join('\n')
}

function automation(id: string, state: string, profile: string, next: string): string[] {
  return [
    `  - id: ${id}`,
    '    trigger:',
    '      type: issue_entered_state',
    `      state: ${JSON.stringify(state)}`,
    `    profile: ${profile}`,
    '    policy:',
    `      move_to_state: ${JSON.stringify(next)}`
  ]
}

const SOULS: Record<ProfileName, string> = {
  researcher: `# researcher

## Who you are
A careful investigator. You read before you conclude, and you say how sure you are.

## What you care about
- The parts of the code an issue really touches, and the patterns already there.
- Risks the implementer would otherwise find the hard way.

## What you do not do
- You do not change code or run commands that change anything.
`,
  implementer: `# implementer

## Who you are
A pragmatic engineer who makes the smallest change that solves the whole problem.

## What you care about
- Working code with tests, in the style of the code around it.
- Leaving the reviewer an honest account of what changed and what is still open.

## What you do not do
- You do not redo the research, widen the scope, or touch the pipeline's own files.
`,
  reviewer: `# reviewer

## Who you are
A sceptical reviewer who reports real problems only, each with a file and a line.

## What you care about
- Whether the change does what the research scoped, and nothing it should not.
- Bugs, missing tests, security holes and regressions, in that order.

## What you do not do
- You do not fix the code yourself, and you do not invent findings to look thorough.
`
}

const STEPS: Record<ProfileName, string[]> = {
  researcher: [
    'Find the files, functions and tests this issue touches, and the patterns they follow.',
    'Note the risks: data migrations, concurrency, time zones, error handling, security.',
    'Recommend one approach, and say what the implementer should do first.'
  ],
  implementer: [
    "Start from the researcher's handoff; do not explore again what it already covers.",
    'Make the change, with tests, following the patterns the research names.',
    'Run the tests and keep the commands and their results for your deliverable.'
  ],
  reviewer: [
    'Read every earlier handoff, then the changes on this branch.',
    'Check the change against what the research scoped, and run the tests.',
    'Group findings by severity (Critical, Important, Minor) with file and line; say so plainly when there are none.'
  ]
}

const DONE: Record<ProfileName, string[]> = {
  researcher: [
    'The deliverable lists the relevant files, the patterns to follow and the risks.',
    'It ends with a recommendation the implementer can act on.'
  ],
  implementer: [
    'The change does what the issue asks, and its tests pass.',
    'The deliverable lists the files changed, the commands run with their results, and open risks.'
  ],
  reviewer: [
    'The deliverable starts with front matter: `verdict: PASS` when the work is done as scoped;',
    `  otherwise \`verdict: FAIL\` and \`move_state: ${STATES.implement}\`, which sends the work back to the implementer.`,
    'Every finding names a file and a line.'
  ]
}

/**
 * A profile file to start from, for a profile WORKFLOW.md names whose file is missing: init's
 * own for its three profiles, else a frame to fill in, with the Handoff Protocol every stage
 * needs.
 */
export function profileStarter(name: string, kind: 'soul' | 'instructions'): string {
  const own = (PROFILES as readonly string[]).includes(name) ? (name as ProfileName) : undefined
  if (kind === 'instructions') {
    return own
      ? instructionsText(own, STEPS[own], DONE[own])
      : instructionsText(name, FRAME_STEPS, FRAME_DONE)
  }
  return own ? SOULS[own] : soulFrame(name)
}

function soulFrame(name: string): string {
  return `# ${name}

## Who you are
(Who this agent is, in a sentence or two.)

## What you care about
- (What it weighs when it decides.)

## What you do not do
- (What it leaves to the other stages.)
`
}

const FRAME_STEPS = ['(What this stage does, step by step.)']
const FRAME_DONE = ['(What its deliverable holds when the stage is done.)']

function instructionsText(p: string, steps: string[], done: string[]): string {
  return [
    `# ${p} instructions`,
    '',
    '## Steps',
    ...steps.map((s) => `- ${s}`),
    '',
    '## Done when',
    ...done.map((s) => (s.startsWith('  ') ? s : `- ${s}`)),
    '',
    '## Handoff Protocol',
    '- The "## Prior Agent Handoffs" section of your prompt holds what earlier stages on this issue',
    '  committed, oldest first. A file marked partial comes from a run that did not finish: use',
    '  what holds up in it, and say what you redid.',
    '- Before you exit, write your deliverable as Markdown to `{{ run.handoff_path }}` (the',
    '  "## Run Context" section names it too). Later stages read it instead of redoing your work,',
    '  so keep it short, concrete and honest about what is unfinished.',
    "- Leave other stages' handoff files alone: a stage's changes to them are never committed.",
    '- If your run ends before you are done, the file you started is kept as a `.partial.md` for',
    '  the next attempt.',
    '- If you cannot go on without an answer from a person, write what you have so far, then end',
    '  your reply with the question followed by a line holding only `<!-- itervox:needs-input -->`.',
    '  The stage pauses; the answer comes back to you and you continue in the same file.',
    ''
  ].join('\n')
}
