import type { AutomationConfig, ProfileConfig, WorkflowConfig } from '../config/types.js'
import { handoffPath, renderRunContext, sanitizeUntrusted } from '../handoff/index.js'
import { type BindingInput, templateBindings } from './bindings.js'
import { renderTemplate } from './template.js'

// itervox renders this when WORKFLOW.md has no body.
const EMPTY_BODY = 'You are working on an issue.'

export interface StagePromptInput {
  config: WorkflowConfig
  profile: ProfileConfig
  automation?: AutomationConfig
  /** The issue as the tracker gave it: untrusted, cleaned here. */
  issue: BindingInput['issue']
  attempt: number | null
  timestamp: string
  /** The rendered `## Prior Agent Handoffs` block ('' when there is none). */
  handoffBlock: string
  /** Our own sections after the automation's instructions (permitted actions, a reply, ...). */
  sections?: string[]
}

export interface StagePrompt {
  prompt: string
  handoffPath: string
  warnings: string[]
}

/**
 * The prompt in itervox's order: rendered body, Prior Agent Handoffs, Run Context, SOUL.md,
 * INSTRUCTIONS.md, the automation's instructions; blocks joined by a blank line.
 */
export async function buildStagePrompt(input: StagePromptInput): Promise<StagePrompt> {
  const { config, profile, automation } = input
  const path = handoffPath(input.timestamp, profile.name)
  const { issue, removed } = cleanIssue(input.issue)
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
    soul,
    instructions,
    overlay,
    ...(input.sections ?? [])
  ]
  const warnings =
    removed > 0 ? [`removed ${removed} hidden or control characters from the issue's text`] : []
  return { prompt: blocks.filter((b) => b.trim() !== '').join('\n\n'), handoffPath: path, warnings }
}

function cleanIssue(issue: BindingInput['issue']): {
  issue: BindingInput['issue']
  removed: number
} {
  let removed = 0
  const clean = (text: string): string => {
    const r = sanitizeUntrusted(text)
    removed += r.removed
    return r.text
  }
  return {
    issue: {
      ...issue,
      title: clean(issue.title),
      description: clean(issue.description),
      labels: issue.labels.map(clean),
      comments: issue.comments?.map((c) => ({ ...c, author: clean(c.author), body: clean(c.body) }))
    },
    removed
  }
}
