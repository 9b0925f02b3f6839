import type * as z from '../zod.js'
import { dirname, posix, resolve } from 'node:path'
import { formatLocation, UserError, UserErrors } from '../errors.js'
import { FileRefused, readCappedText } from '../files/read-capped.js'
import { type ReadAutomation, readAutomation } from './automations.js'
import { readRepoFile, repoRelativeDir, repoRootOf } from './disk-files.js'
import { splitFrontMatter } from './front-matter.js'
import type { Env } from './interpolate.js'
import { Problems } from './problems.js'
import { readProfile } from './profiles.js'
import { tokenPrices } from './token-prices.js'
import { checkReferences } from './references.js'
import {
  agentSchema,
  approvalSchema,
  handoffSchema,
  rootSchema,
  trackerSchema,
  workspaceSchema
} from './schema.js'
import { parseSection } from './schema-issues.js'
import { checkSchemaVersion } from './schema-version.js'
import { isMap, sectionInput } from './section-input.js'
import type { ConfigWarning, ProfileConfig, WorkflowConfig } from './types.js'
import { readYamlTree } from './yaml-tree.js'

export { findAutomation, knownStates } from './lookup.js'

export interface ParseOptions {
  /** Display path, as given; also locates profile files unless `baseDir` is given. */
  file: string
  env: Env
  /**
   * A profile file's text by repository-relative path, or null when it is missing; throws a
   * UserError when the file is there but cannot be used (not a regular file, too large).
   */
  readFile: (relPath: string) => string | null
  /** WORKFLOW.md's folder relative to the repository root (default: the folder of `file`). */
  baseDir?: string
}

export interface LoadedWorkflow {
  config: WorkflowConfig
  warnings: ConfigWarning[]
}

const NO_FRONT_MATTER =
  'missing itervox_schema_version: the file has no front matter (line 1 is not exactly "---"); ' +
  'start the file with a "---" line, "itervox_schema_version: 2" and the settings, then a closing "---"'

// itervox reads an unclosed front matter to the end of the file; when that fails, the prompt
// template was taken for settings, and yaml's errors would point into it.
const UNCLOSED =
  'the front matter that starts here is never closed; add a "---" line after the last setting, before the prompt template'

/**
 * Reads WORKFLOW.md: front matter with positions, `$VAR` interpolation, schema checks, the
 * profile files. Every problem found is thrown at once as UserErrors, one line each.
 */
export function parseWorkflow(text: string, opts: ParseOptions): LoadedWorkflow {
  const parts = splitFrontMatter(text)
  if (parts.frontMatter === null) {
    throw new UserErrors([new UserError(NO_FRONT_MATTER, { file: opts.file, line: 1, col: 1 })])
  }
  const tree = readYamlTree(parts.frontMatter, parts.frontMatterLine)
  if (parts.unclosed && tree.errors.length > 0) {
    throw new UserErrors([new UserError(UNCLOSED, { file: opts.file, line: 1, col: 1 })])
  }
  const problems = new Problems(opts.file, tree.map)
  for (const w of tree.warnings) problems.warn(w.pos, w.message)
  for (const e of tree.errors) problems.error(e.pos, e.message)
  problems.throwIfAny()
  const root = tree.root ?? Object.create(null)
  if (!isMap(root)) {
    problems.error(
      tree.map.value([]),
      'the front matter must be "key: value" settings, starting with itervox_schema_version: 2'
    )
    return problems.fail()
  }
  checkSchemaVersion(root, problems)
  problems.throwIfAny()

  const { env } = opts
  parseSection(rootSchema, sectionInput(root, [], 'root', problems, {}), [], 'root', problems)
  const section = <T extends z.core.$ZodType>(
    name: 'tracker' | 'workspace' | 'agent' | 'handoff' | 'approval',
    schema: T,
    raw: unknown,
    verbatim?: string[]
  ) => {
    const input = sectionInput(raw, [name], name, problems, { env, verbatim })
    return parseSection(schema, input, [name], name, problems)
  }
  const tracker = section('tracker', trackerSchema, root.tracker)
  const workspace = section('workspace', workspaceSchema, root.workspace ?? {})
  // Profiles are checked one by one below.
  const agent = section('agent', agentSchema, root.agent ?? {}, ['profiles'])
  const handoff = section('handoff', handoffSchema, root.handoff ?? {})
  const approval = section('approval', approvalSchema, root.approval ?? {})

  const rawProfiles = isMap(root.agent) && isMap(root.agent.profiles) ? root.agent.profiles : {}
  const profiles: Record<string, ProfileConfig> = Object.create(null)
  const profileContext = {
    problems,
    env,
    baseDir: opts.baseDir ?? posix.dirname(opts.file.replace(/\\/g, '/')),
    readFile: opts.readFile,
    defaultCommand: agent?.command ?? 'claude'
  }
  for (const [name, raw] of Object.entries(rawProfiles)) {
    const profile = readProfile(name, raw, profileContext)
    if (profile) profiles[name] = profile
  }

  const automations: ReadAutomation[] = []
  if (Array.isArray(root.automations)) {
    root.automations.forEach((raw, i) => {
      const read = readAutomation(raw, i, problems, env)
      if (read) automations.push(read)
    })
  }

  const trackerConfig = tracker && {
    kind: tracker.kind,
    apiKey: tracker.api_key,
    projectSlug: tracker.project_slug,
    activeStates: tracker.active_states,
    terminalStates: tracker.terminal_states,
    completionState: tracker.completion_state,
    failedState: tracker.failed_state,
    // The daemon's defaults: Linear and local issues have a Backlog state; GitHub has none.
    backlogStates: tracker.backlog_states ?? (tracker.kind === 'github' ? [] : ['Backlog']),
    allowedBots: tracker.allowed_bots
  }
  checkReferences(
    {
      tracker: trackerConfig,
      reviewerProfile: agent?.reviewer_profile,
      reviewerProfiles: agent?.reviewer_profiles,
      autoReview: agent?.auto_review ?? false,
      stateCaps: agent?.max_concurrent_agents_by_state ?? [],
      profileNames: Object.keys(rawProfiles),
      profiles,
      automations
    },
    problems
  )
  if (problems.failed || !trackerConfig || !workspace || !agent || !handoff || !approval)
    return problems.fail()

  const config: WorkflowConfig = {
    file: opts.file,
    tracker: trackerConfig,
    workspace: { baseBranch: workspace.base_branch },
    agent: {
      command: agent.command,
      maxTurns: agent.max_turns,
      maxRetries: agent.max_retries,
      stallTimeoutMs: agent.stall_timeout_ms,
      turnTimeoutMs: agent.turn_timeout_ms,
      reviewers:
        agent.reviewer_profiles ?? (agent.reviewer_profile ? [agent.reviewer_profile] : []),
      reviewQuorum: agent.review_quorum,
      autoReview: agent.auto_review,
      maxReviewRounds: agent.max_review_rounds,
      ...(agent.max_concurrent_agents !== undefined
        ? { maxConcurrentAgents: agent.max_concurrent_agents }
        : {}),
      maxConcurrentAgentsByState: agent.max_concurrent_agents_by_state ?? [],
      ...(agent.max_cost_usd !== undefined ? { maxCostUsd: agent.max_cost_usd } : {}),
      ...(agent.prices ? { prices: tokenPrices(agent.prices) } : {}),
      profiles
    },
    automations: automations.map((a) => a.config),
    handoff: {
      budgetBytes: handoff.budget_bytes,
      maxFileBytes: handoff.max_file_bytes,
      maxFiles: handoff.max_files
    },
    approval: { distinctApprover: approval.distinct_approver },
    body: parts.body,
    bodyLine: parts.bodyLine
  }
  return { config, warnings: problems.warnings }
}

// A WORKFLOW.md is a few KiB; the cap keeps a runaway file from filling memory.
const WORKFLOW_MAX_BYTES = 1024 * 1024

/** WORKFLOW.md's text from disk: a regular file of at most 1 MiB, or a UserError saying why not. */
export function readWorkflowText(path: string): string {
  try {
    return readCappedText(path, WORKFLOW_MAX_BYTES)
  } catch (e) {
    if (e instanceof FileRefused && (e.reason === 'missing' || e.reason === 'unreadable')) {
      throw new UserError(`cannot read the workflow file (${e.code}); check the path`, {
        file: path
      })
    }
    throw e
  }
}

/** Reads WORKFLOW.md from disk; profile files are found relative to its folder. */
export function loadWorkflowFile(path: string, env: Env = process.env): LoadedWorkflow {
  const text = readWorkflowText(path)
  const dir = dirname(resolve(path))
  const root = repoRootOf(dir)
  return parseWorkflow(text, {
    file: path,
    env,
    baseDir: repoRelativeDir(root, dir),
    readFile: (relPath) => readRepoFile(root, relPath)
  })
}

/** `file:line:col: warning: message`. */
export function formatWarning(w: ConfigWarning): string {
  return `${formatLocation(w.location)}: warning: ${w.message}`
}
