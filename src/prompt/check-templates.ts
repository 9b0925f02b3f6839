import type { AutomationConfig, ProfileConfig, WorkflowConfig } from '../config/types.js'
import { UserError } from '../errors.js'
import { handoffPath } from '../handoff/index.js'
import { templateBindings } from './bindings.js'
import { renderTemplate, TemplateError, type TemplateSource } from './template.js'

const SAMPLE_TIMESTAMP = '2026-01-01T00-00-00.000Z'

/**
 * Renders every template a stage can render (the prompt template, each profile's SOUL.md and
 * INSTRUCTIONS.md, each automation's instructions), strictly, against sample bindings: a first
 * run with no comments and a retry with one, so a branch taken only on a retry is checked too.
 * Returns each mistake once, with its file and line.
 */
export async function checkTemplates(config: WorkflowConfig): Promise<UserError[]> {
  const found = new Map<string, UserError>()
  const render = async (src: TemplateSource, bindings: Record<string, unknown>) => {
    // Liquid stops at the first undefined variable: each one found is defined and the template
    // rendered again, so every one is reported.
    for (let given = bindings; ;) {
      try {
        await renderTemplate(src, given)
        return
      } catch (err) {
        if (!(err instanceof UserError)) throw err
        found.set(err.format(), err)
        const defined = err instanceof TemplateError && withVariable(given, err.variable)
        if (!defined) return
        given = defined
      }
    }
  }
  for (const { profile, automation } of stages(config)) {
    for (const bindings of sampleBindings(profile, automation)) {
      if (config.body) {
        const what = 'prompt template'
        await render(
          { text: config.body, file: config.file, line: config.bodyLine, what },
          bindings
        )
      }
      const soul = { text: profile.soulText, file: profile.soulFile, line: 1, what: 'SOUL.md' }
      await render(soul, bindings)
      const instructions = {
        text: profile.instructionsText,
        file: profile.instructionsFile,
        line: 1,
        what: 'INSTRUCTIONS.md'
      }
      await render(instructions, bindings)
      if (automation?.instructions) {
        const overlay = {
          text: automation.instructions,
          file: config.file,
          line: automation.instructionsLine ?? 1,
          what: `automation ${automation.id} instructions`
        }
        await render(overlay, bindings)
      }
    }
  }
  return [...found.values()]
}

/** `bindings` with the dotted `name` set to a sample value, or undefined when it cannot be. */
function withVariable(
  bindings: Record<string, unknown>,
  name: string | undefined
): Record<string, unknown> | undefined {
  const [head, field, ...rest] = name?.split('.') ?? []
  if (head === undefined || rest.length > 0 || !/^\w+$/.test(`${head}${field ?? ''}`)) return
  if (field === undefined)
    return Object.hasOwn(bindings, head) ? undefined : { ...bindings, [head]: '' }
  const parent = bindings[head] ?? {}
  if (typeof parent !== 'object' || Array.isArray(parent) || Object.hasOwn(parent, field)) return
  return { ...bindings, [head]: { ...parent, [field]: '' } }
}

/** Each automation with its profile, and each profile no automation runs (a reviewer) alone. */
function stages(
  config: WorkflowConfig
): { profile: ProfileConfig; automation: AutomationConfig | undefined }[] {
  const out: { profile: ProfileConfig; automation: AutomationConfig | undefined }[] = []
  for (const automation of config.automations) {
    const profile = config.agent.profiles[automation.profile]
    if (profile) out.push({ profile, automation })
  }
  for (const profile of Object.values(config.agent.profiles)) {
    if (!out.some((s) => s.profile === profile)) out.push({ profile, automation: undefined })
  }
  return out
}

function sampleBindings(
  profile: ProfileConfig,
  automation: AutomationConfig | undefined
): Record<string, unknown>[] {
  const state = automation?.states[0] ?? null
  const issue = {
    id: 'SAMPLE-1',
    identifier: 'SAMPLE-1',
    title: 'A sample issue',
    description: 'What the issue asks for.',
    state,
    labels: state ? [state] : [],
    url: 'https://example.com/issues/1',
    isPullRequest: false,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z'
  }
  const comment = { body: 'A comment.', author: 'ada', createdAt: '2026-01-01T00:00:00Z' }
  const common = {
    run: { timestamp: SAMPLE_TIMESTAMP, handoffPath: handoffPath(SAMPLE_TIMESTAMP, profile.name) },
    trigger: { type: 'issue_entered_state', state, automation: automation?.id ?? null },
    profile: profile.name
  }
  return [
    templateBindings({ ...common, issue: { ...issue, comments: [] }, attempt: null }),
    templateBindings({ ...common, issue: { ...issue, comments: [comment] }, attempt: 1 })
  ]
}
