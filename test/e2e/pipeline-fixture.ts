// The seed's three-stage pipeline, on GitHub, for end-to-end runs of the bundled action.
import { startFakeGitHub, type FakeGitHub } from '../harness/fake-github.js'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { git, makeSandbox, OWNER, REPO, type Sandbox } from '../harness/action-run.js'

export interface PipelineOptions {
  /** `agent.command` (default claude, the scripted fake). */
  command?: string
  /** `agent.max_retries` (default 1). */
  maxRetries?: number
  /** Extra `agent:` keys, e.g. `stall_timeout_ms: 800`. */
  agent?: string
  /** Extra keys for the researcher profile, e.g. `commit_paths: ["docs/**"]`. */
  researcher?: string
  /** Extra keys for the reviewer profile, e.g. `allowed_states: [Closed]`. */
  reviewer?: string
  /** Extra files on the default branch. */
  files?: Record<string, string>
  /** Who the fake GitHub says the token is (default github-actions[bot]). */
  tokenLogin?: string
  /** Researching waits for a person's approval, who may not be the one who started it. */
  gate?: boolean
  /** The state issue #1 starts in (default Todo): a test of a later stage starts there. */
  state?: string
  /** Extra `tracker:` keys, e.g. `allowed_bots: [my-app[bot]]`. */
  tracker?: string
  /** Extra profiles, as YAML under `profiles:` (their files from `files`, or `helperFiles`). */
  profiles?: string
  /** Extra automations, as YAML list entries under `automations:`. */
  automations?: string
  /** A bare repository holding the pipeline's files whose objects the origin borrows. */
  sharing?: string
  /** A folder for the sandbox other than the agent users' homes' file system (see makeSandbox). */
  at?: string
}

const indented = (text: string | undefined, by: string) =>
  (text ?? '')
    .split('\n')
    .filter(Boolean)
    .map((l) => `${by}${l}\n`)
    .join('')

export function workflowMd(o: PipelineOptions = {}): string {
  return `---
itervox_schema_version: 2
tracker:
  kind: github
  active_states: ["Todo", "Researching", "Implementing", "Reviewing"]
  completion_state: "Done"
  failed_state: "Won't Do"
${indented(o.tracker, '  ')}agent:
  command: ${o.command ?? 'claude'}
  max_retries: ${o.maxRetries ?? 1}
${(o.agent ?? '')
  .split('\n')
  .filter(Boolean)
  .map((l) => `  ${l}\n`)
  .join('')}  profiles:
    researcher:
      soul_file: .itervox/agents/researcher/SOUL.md
      instructions_file: .itervox/agents/researcher/INSTRUCTIONS.md
      allowed_actions: ["move_state", "comment"]
${(o.researcher ?? '')
  .split('\n')
  .filter(Boolean)
  .map((l) => `      ${l}\n`)
  .join('')}    implementer:
      soul_file: .itervox/agents/implementer/SOUL.md
      instructions_file: .itervox/agents/implementer/INSTRUCTIONS.md
      allowed_actions: ["move_state", "comment"]
      commit_paths: ["src/**"]
${indented(o.profiles, '    ')}    reviewer:
      soul_file: .itervox/agents/reviewer/SOUL.md
      instructions_file: .itervox/agents/reviewer/INSTRUCTIONS.md
      allowed_actions: ["move_state", "comment"]
${(o.reviewer ?? '')
  .split('\n')
  .filter(Boolean)
  .map((l) => `      ${l}\n`)
  .join('')}automations:
  - id: research
    trigger: { type: issue_entered_state, state: Todo }
    profile: researcher
    policy: { move_to_state: Researching }
  - id: implement
    trigger: { type: issue_entered_state, state: Researching }
    profile: implementer
    policy: { move_to_state: Implementing${o.gate ? ', require_approval: true' : ''} }
  - id: review
    trigger: { type: issue_entered_state, state: Implementing }
    profile: reviewer
    policy: { move_to_state: Reviewing }
${indented(o.automations, '  ')}${o.gate ? 'approval: { distinct_approver: true }\n' : ''}---

Work on issue {{ issue.identifier }}: {{ issue.title }}.

{{ issue.description }}
`
}

export function profileFiles(): Record<string, string> {
  const files: Record<string, string> = {}
  for (const p of ['researcher', 'implementer', 'reviewer']) {
    files[`.itervox/agents/${p}/SOUL.md`] = `# ${p} SOUL\n\nYou are the ${p}.\n`
    files[`.itervox/agents/${p}/INSTRUCTIONS.md`] =
      `# ${p} INSTRUCTIONS\n\n## Handoff Protocol\n- Write your deliverable to \`{{ run.handoff_path }}\`.\n`
  }
  return files
}

/** A `helper` profile for automation runs (allowed only to comment), and its files. */
export const helperProfile = {
  profiles: [
    'helper:',
    '  soul_file: .itervox/agents/helper/SOUL.md',
    '  instructions_file: .itervox/agents/helper/INSTRUCTIONS.md',
    '  allowed_actions: ["comment"]'
  ].join('\n'),
  files: {
    '.itervox/agents/helper/SOUL.md': '# helper SOUL\n\nYou help.\n',
    '.itervox/agents/helper/INSTRUCTIONS.md':
      '# helper INSTRUCTIONS\n\nWrite your deliverable to `{{ run.handoff_path }}`.\n'
  }
} satisfies PipelineOptions

export interface Pipeline {
  sb: Sandbox
  gh: FakeGitHub
  issue: number
}

/** A repository with the pipeline on `main`, a fake GitHub, and issue #1 labelled Todo (or `state`) by ada. */
export async function startPipeline(o: PipelineOptions = {}): Promise<Pipeline> {
  const sb = makeSandbox(
    {
      'WORKFLOW.md': workflowMd(o),
      'README.md': '# demo\n',
      ...profileFiles(),
      ...o.files
    },
    o.sharing,
    o.at
  )
  const gh = await startFakeGitHub({
    owner: OWNER,
    repo: REPO,
    originDir: sb.origin,
    ...(o.tokenLogin ? { tokenLogin: o.tokenLogin } : {})
  })
  gh.addCollaborator('ada', 'write')
  gh.addCollaborator('tim', 'triage')
  const issue = gh.addIssue({
    title: 'Add CSV export',
    body: 'Users want to export the report as CSV.',
    labels: [o.state ?? 'Todo'],
    author: 'ada'
  })
  return { sb, gh, issue }
}

/** A committed agent script, executable, from a clone (git keeps the mode). */
export function commitScript(p: Pipeline, path: string, lines: string[]): void {
  const clone = join(p.sb.dir, `script-${Math.random().toString(36).slice(2)}`)
  git(p.sb.dir, 'clone', '--quiet', p.sb.origin, clone)
  mkdirSync(dirname(join(clone, path)), { recursive: true })
  writeFileSync(join(clone, path), `${lines.join('\n')}\n`, { mode: 0o755 })
  git(clone, 'add', path)
  git(clone, 'update-index', '--chmod=+x', path)
  git(clone, 'commit', '--quiet', '-m', 'agent script')
  git(clone, 'push', '--quiet', 'origin', 'main')
}
