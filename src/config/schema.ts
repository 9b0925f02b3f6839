import * as z from '../zod.js'
import { commandProblem } from './command.js'
import { isMap } from './section-input.js'
import { TRIGGER_TYPES } from './types.js'

// Each section is checked on its own (see load.ts), so one bad section hides nothing else.
// Messages here never quote the value: it may have come from the environment.

const text = z.string().check(z.trim(), z.minLength(1))

/** Empty, `~` and '' all mean "not set", as in itervox. */
const optionalText = z.pipe(
  z.nullish(z.string()),
  z.transform((v) => v?.trim() || undefined)
)

// Schema parameters here and in the other generic helpers are zod's core type: with zod's
// method API, tsc relating each new kind of schema to z.ZodType took seconds, a fifth of the
// whole type check, and the core type is what every schema of either API is.
function withDefault<T extends z.core.$ZodType>(schema: T, fallback: () => z.output<T>) {
  return z.pipe(
    z.nullish(schema),
    z.transform((v) => v ?? fallback())
  )
}

const positiveInt = z.int().check(z.positive())

const usd = z.number().check(z.positive())

const tokenPrice = z.strictObject({
  input_per_mtok: z.number().check(z.nonnegative()),
  output_per_mtok: z.number().check(z.nonnegative())
})

const command = z.pipe(
  z.string().check(
    z.superRefine((value, ctx) => {
      const problem = commandProblem(value)
      if (problem) ctx.addIssue({ code: 'custom', message: problem })
    })
  ),
  z.transform((v) => v.trim())
)

const DEFAULT_ACTIVE_STATES = ['Todo', 'In Progress']
const DEFAULT_TERMINAL_STATES = ['Closed', 'Cancelled', 'Canceled', 'Duplicate', 'Done']

const LOCAL_PREFIX = /^[A-Za-z][A-Za-z0-9_]*$/
const GITHUB_REPO = /^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/

export const trackerSchema = z
  .strictObject({
    kind: z.enum(['github', 'local', 'linear']),
    api_key: optionalText,
    project_slug: optionalText,
    active_states: withDefault(z.array(text), () => [...DEFAULT_ACTIVE_STATES]),
    terminal_states: withDefault(z.array(text), () => [...DEFAULT_TERMINAL_STATES]),
    completion_state: optionalText,
    failed_state: optionalText,
    // The daemon's default depends on the kind; see load.ts.
    backlog_states: z.nullish(z.array(text)),
    allowed_bots: withDefault(z.array(text), () => [])
  })
  .check(
    z.superRefine((t, ctx) => {
      if (t.kind === 'linear' && !t.api_key) {
        ctx.addIssue({
          code: 'custom',
          path: ['api_key'],
          message: 'tracker kind linear needs an API key; add api_key: $LINEAR_API_KEY'
        })
      }
      const slug = t.project_slug
      if (t.kind === 'local' && slug && !LOCAL_PREFIX.test(slug)) {
        ctx.addIssue({
          code: 'custom',
          path: ['project_slug'],
          message:
            'for the local tracker this is the issue prefix: a letter, then letters, digits or _ (e.g. ENG)'
        })
      }
      if (t.kind === 'github' && slug && !GITHUB_REPO.test(slug)) {
        ctx.addIssue({
          code: 'custom',
          path: ['project_slug'],
          message: 'for the github tracker this is owner/repo; inside the action it can be left out'
        })
      }
    })
  )

const BRANCH = /^(?![-/])(?!.*\.\.)(?!.*\/\/)(?!.*[/.]$)(?!.*\.lock$)[A-Za-z0-9._/-]+$/

export const workspaceSchema = z.strictObject({
  base_branch: optionalText.check(
    z.refine((b) => b === undefined || BRANCH.test(b), {
      message:
        'must be a branch name such as main (letters, digits, ".", "_", "-", "/"); leave it out for the default branch'
    })
  )
})

export const agentSchema = z.strictObject({
  command: withDefault(command, () => 'claude'),
  max_turns: withDefault(positiveInt, () => 20),
  // itervox's daemon retries 5 times; here every retry is a CI job.
  max_retries: withDefault(z.int().check(z.nonnegative()), () => 2),
  stall_timeout_ms: withDefault(positiveInt, () => 300_000),
  turn_timeout_ms: withDefault(positiveInt, () => 3_600_000),
  reviewer_profile: optionalText,
  // Several reviewers, in this order; review_quorum combines their verdicts (see review-chain.ts).
  reviewer_profiles: z.optional(z.array(text).check(z.minLength(1))),
  review_quorum: withDefault(
    z.enum(['any_block', 'majority', 'unanimous']),
    () => 'any_block' as const
  ),
  auto_review: withDefault(z.boolean(), () => false),
  // Each review round is two paid agent runs (the work, then its review).
  max_review_rounds: withDefault(positiveInt, () => 3),
  // Across every issue of the repository; unset: no limit, and no request spent on one.
  max_concurrent_agents: z.optional(positiveInt),
  // Per state, on top of max_concurrent_agents: the stages running at once in that state.
  max_concurrent_agents_by_state: z.optional(
    z.pipe(
      z.record(text, positiveInt),
      z.transform((m) => Object.entries(m).map(([state, max]) => ({ state, max })))
    )
  ),
  // Per issue, summed from the stages' provenance on its branch; unset: no cap.
  max_cost_usd: z.optional(usd),
  // Token prices for CLIs that report no dollars (see src/agent/prices.ts).
  prices: z.optional(
    z.strictObject({ codex: z.optional(tokenPrice), gemini: z.optional(tokenPrice) })
  ),
  // Each profile is checked on its own.
  profiles: z.optional(
    z.custom((v) => v == null || isMap(v), {
      message: 'must be a map from each profile name to its settings'
    })
  )
})

const repoGlob = text.check(
  z.refine(
    (g) =>
      !g.startsWith('/') &&
      !g.includes('\\') &&
      !/(^|\/)\.\.(\/|$)/.test(g) &&
      !/^\.git(\/|$)/.test(g),
    {
      message:
        'must be a glob relative to the repository root, with "/" between folders, no ".." and nothing under .git'
    }
  )
)

const heading = text.check(
  z.refine((h) => !/[\r\n]/.test(h), {
    message: 'must be one line: a section heading such as "## Findings"'
  })
)

export const profileSchema = z.strictObject({
  command: z.nullish(command),
  soul_file: text,
  instructions_file: text,
  // Names are checked in profiles.ts, which can point at each one.
  allowed_actions: withDefault(z.array(z.string()), () => []),
  // States are checked in references.ts, which knows the tracker's.
  allowed_states: withDefault(z.array(text), () => []),
  enabled: withDefault(z.boolean(), () => true),
  commit_paths: withDefault(z.array(repoGlob), () => []),
  required_sections: withDefault(z.array(heading), () => []),
  // Names are checked in profiles.ts, which can quote each one.
  env: withDefault(z.array(z.string()), () => []),
  // One stage of this profile (its attempts together); unset: only agent.max_cost_usd.
  max_cost_usd: z.optional(usd),
  // Checked in fallbacks.ts, which knows every profile.
  fallback_profile: optionalText,
  verify: withDefault(z.array(text), () => []),
  verify_timeout_ms: withDefault(positiveInt, () => 600_000)
})

const nonNegativeInt = z.int().check(z.nonnegative())

// The keys of every trigger type; which type may have which is checked in automations.ts,
// with the daemon's own words.
const triggerSchema = z.strictObject({
  type: z.enum(TRIGGER_TYPES),
  state: z.nullish(text),
  states: z.nullish(z.array(text).check(z.minLength(1))),
  cron: z.nullish(text),
  timezone: optionalText
})

const filterSchema = z.strictObject({
  match_mode: withDefault(z.enum(['all', 'any']), () => 'all' as const),
  states: z.nullish(z.array(text)),
  states_any: z.nullish(z.array(text)),
  labels_any: withDefault(z.array(text), () => []),
  identifier_regex: optionalText,
  // 0 is "no limit", as in the daemon.
  limit: z.nullish(nonNegativeInt),
  input_context_regex: optionalText,
  max_age_minutes: z.nullish(nonNegativeInt),
  body_contains: withDefault(z.array(text), () => []),
  body_regex: optionalText
})

const policySchema = z.strictObject({
  move_to_state: optionalText,
  // A person approves each entry into the state before its stage runs (see approval.ts).
  require_approval: withDefault(z.boolean(), () => false),
  auto_resume: z.nullish(z.boolean()),
  auto_switch: z.nullish(z.boolean()),
  switch_to_profile: optionalText,
  switch_to_backend: z.nullish(z.enum(['claude', 'codex'])),
  cooldown_minutes: z.nullish(nonNegativeInt)
})

export const automationSchema = z.strictObject({
  id: text,
  enabled: withDefault(z.boolean(), () => true),
  trigger: triggerSchema,
  filter: z.nullish(filterSchema),
  profile: text,
  instructions: z.nullish(z.string()),
  policy: z.nullish(policySchema)
})

export const approvalSchema = z.strictObject({
  distinct_approver: withDefault(z.boolean(), () => false)
})

export const handoffSchema = z.strictObject({
  budget_bytes: withDefault(positiveInt, () => 30_720),
  max_file_bytes: withDefault(positiveInt, () => 1_048_576),
  max_files: withDefault(positiveInt, () => 1000)
})

/** Only the top-level keys; the sections are checked by the schemas above. */
export const rootSchema = z.strictObject({
  itervox_schema_version: z.optional(z.unknown()),
  tracker: z.optional(z.unknown()),
  workspace: z.optional(z.unknown()),
  agent: z.optional(z.unknown()),
  automations: z.nullish(z.array(z.unknown())),
  handoff: z.optional(z.unknown()),
  approval: z.optional(z.unknown())
})
