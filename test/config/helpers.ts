import { UserErrors } from '../../src/errors.js'
import { parseWorkflow, type LoadedWorkflow } from '../../src/config/load.js'
import { formatWarning } from '../../src/config/load.js'

/** Profile files every test workflow may name, by repository path. */
export const FILES: Record<string, string> = {
  'agents/researcher/SOUL.md': '\n# researcher\n\nCurious and careful.\n',
  'agents/researcher/INSTRUCTIONS.md': 'Map the code; write to {{ run.handoff_path }}.',
  'agents/reviewer/SOUL.md': 'Sceptical.',
  'agents/reviewer/INSTRUCTIONS.md': 'Review the diff.'
}

/** A small valid WORKFLOW.md; tests change one thing in it. Line numbers matter. */
export const BASE = `---
itervox_schema_version: 2
tracker:
  kind: github
  active_states: [Todo, Researching, Reviewing]
  completion_state: Done
agent:
  profiles:
    researcher:
      soul_file: agents/researcher/SOUL.md
      instructions_file: agents/researcher/INSTRUCTIONS.md
      allowed_actions: [comment, move_state]
    reviewer:
      soul_file: agents/reviewer/SOUL.md
      instructions_file: agents/reviewer/INSTRUCTIONS.md
automations:
  - id: research
    trigger:
      type: issue_entered_state
      state: Todo
    profile: researcher
    policy:
      move_to_state: Researching
---

Work on {{ issue.title }}.
`

export interface ParseOpts {
  env?: Record<string, string | undefined>
  file?: string
  files?: Record<string, string>
  baseDir?: string
}

export function parse(text: string, opts: ParseOpts = {}): LoadedWorkflow {
  const files = opts.files ?? FILES
  return parseWorkflow(text, {
    file: opts.file ?? 'WORKFLOW.md',
    env: opts.env ?? {},
    baseDir: opts.baseDir,
    readFile: (p) => (Object.hasOwn(files, p) ? (files[p] ?? null) : null)
  })
}

/** The formatted lines of the UserErrors that parsing `text` throws. */
export function errorsOf(text: string, opts: ParseOpts = {}): string[] {
  try {
    parse(text, opts)
  } catch (e) {
    if (e instanceof UserErrors) return e.format().split('\n')
    throw e
  }
  throw new Error('expected the workflow to be rejected')
}

export function warningsOf(text: string, opts: ParseOpts = {}): string[] {
  return parse(text, opts).warnings.map(formatWarning)
}

/** BASE with `from` replaced by `to` (which must occur exactly once). */
export function edit(from: string, to: string, text = BASE): string {
  const at = text.indexOf(from)
  if (at === -1 || text.indexOf(from, at + 1) !== -1) throw new Error(`"${from}" must occur once`)
  return text.slice(0, at) + to + text.slice(at + from.length)
}

/** What `fn` throws; fails the test when it returns. */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn()
  } catch (e) {
    return e
  }
  throw new Error('expected a throw')
}
