import type { AutomationConfig, ProfileConfig, WorkflowConfig } from '../config/types.js'
import { headingTitles } from '../handoff/deliverable.js'
import { neutralizeForgedLines } from '../handoff/forged-lines.js'
import { handoffPath, renderRunContext } from '../handoff/index.js'
import {
  addCounts,
  describeSanitizeCounts,
  emptyCounts,
  sanitizeUntrusted
} from '../handoff/sanitize.js'
import { type BindingInput, templateBindings } from './bindings.js'
import { renderTemplate } from './template.js'

// itervox renders this when WORKFLOW.md has no body.
const EMPTY_BODY = 'You are working on an issue.'

export interface PromptParts {
  config: WorkflowConfig
  profile: ProfileConfig
  automation?: AutomationConfig
  /** The issue as the tracker gave it: untrusted, cleaned here. */
  issue: BindingInput['issue']
  attempt: number | null
  timestamp: string
  /** The rendered `## Prior Agent Handoffs` block ('' when there is none). */
  handoffBlock: string
  /** The `## Pipeline Provenance` section, right after Run Context ('' when there is none). */
  provenanceSection?: string
  /** Our own sections after the automation's instructions (permitted actions, a reply, ...). */
  sections?: string[]
}

export interface AssembledPrompt {
  prompt: string
  handoffPath: string
  warnings: string[]
}

/**
 * The prompt in itervox's order: rendered body, Prior Agent Handoffs, Run Context (then our
 * Pipeline Provenance), SOUL.md,
 * INSTRUCTIONS.md, the automation's instructions; blocks joined by a blank line.
 */
export async function assemblePrompt(input: PromptParts): Promise<AssembledPrompt> {
  const { config, profile, automation } = input
  const path = handoffPath(input.timestamp, profile.name)
  const templates = [
    config.body,
    profile.soulText,
    profile.instructionsText,
    automation?.instructions ?? ''
  ]
  const { issue, warning } = cleanIssue(input.issue, templateTitles(templates))
  const bindings = templateBindings({
    issue,
    attempt: input.attempt,
    run: { timestamp: input.timestamp, handoffPath: path },
    trigger: {
      type: 'issue_entered_state',
      state: issue.state,
      automation: automation?.id ?? null
    },
    profile: profile.name
  })

  const body = config.body
    ? await renderTemplate(
        { text: config.body, file: config.file, line: config.bodyLine, what: 'prompt template' },
        bindings
      )
    : EMPTY_BODY
  const soul = await renderTemplate(
    { text: profile.soulText, file: profile.soulFile, line: 1, what: 'SOUL.md' },
    bindings
  )
  const instructions = await renderTemplate(
    {
      text: profile.instructionsText,
      file: profile.instructionsFile,
      line: 1,
      what: 'INSTRUCTIONS.md'
    },
    bindings
  )
  const overlay = automation?.instructions
    ? await renderTemplate(
        {
          text: automation.instructions,
          file: config.file,
          line: automation.instructionsLine ?? 1,
          what: `automation ${automation.id} instructions`
        },
        bindings
      )
    : ''

  const blocks = [
    body,
    input.handoffBlock,
    renderRunContext(input.timestamp, path),
    input.provenanceSection ?? '',
    soul,
    instructions,
    overlay,
    ...(input.sections ?? [])
  ]
  const warnings = warning ? [`the issue's text: ${warning}`] : []
  return { prompt: blocks.filter((b) => b.trim() !== '').join('\n\n'), handoffPath: path, warnings }
}

// The headings the templates write are the prompt's structure as much as the pipeline's own:
// an issue must not forge `## Handoff Protocol` either. Liquid in a heading is left out, so
// `## Issue {{ issue.identifier }}` guards every heading that starts with "Issue".
function templateTitles(templates: string[]): string[] {
  return templates
    .flatMap((t) => headingTitles(t))
    .map((title) => title.replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g, ' ').trim())
    .filter((title) => title !== '')
}

/**
 * The issue as the templates may print it: what a person does not see removed, and every line
 * that would read as one of the prompt's headings or markers escaped. Each field is one value
 * a template prints, so its first and last lines count as a heading's title too.
 */
function cleanIssue(
  issue: BindingInput['issue'],
  titles: string[]
): { issue: BindingInput['issue']; warning: string } {
  const counts = emptyCounts()
  let forged = 0
  const clean = (text: string): string => {
    const r = sanitizeUntrusted(text)
    addCounts(counts, r.counts)
    const n = neutralizeForgedLines(r.text, { value: true, titles })
    forged += n.count
    return n.text
  }
  const optional = (text: string | undefined): string | undefined =>
    text === undefined ? undefined : clean(text)
  const cleaned: BindingInput['issue'] = {
    ...issue,
    id: clean(issue.id),
    identifier: clean(issue.identifier),
    title: clean(issue.title),
    description: clean(issue.description),
    labels: issue.labels.map(clean),
    url: clean(issue.url),
    branchName: optional(issue.branchName),
    createdAt: optional(issue.createdAt),
    updatedAt: optional(issue.updatedAt),
    comments: issue.comments?.map((c) => ({
      author: clean(c.author),
      body: clean(c.body),
      createdAt: clean(c.createdAt)
    }))
  }
  const parts = [describeSanitizeCounts(counts)]
  if (forged > 0) {
    parts.push(`escaped ${forged} line${forged === 1 ? '' : 's'} imitating the prompt's headings`)
  }
  return { issue: cleaned, warning: parts.filter((p) => p !== '').join('; ') }
}
