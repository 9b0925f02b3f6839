import { mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import * as z from '../zod.js'
import { writeWhole } from '../files/write-whole.js'
import { gitDirSnapshotSchema } from '../git/guard.js'
import { handedOverSchema } from '../isolation/agent-tree.js'
import { stageKeySchema } from '../git/trailers.js'
import { stageOutcomeSchema } from './outcome.js'
import { handoffReasonSchema } from './provenance.js'
import { PARSE_ONCE } from '../parse-once.js'
import type { WorkflowConfig } from '../config/types.js'
import type { Identity } from '../git/commit.js'
import type { StageRun } from './stage-run.js'

/**
 * What a stage must remember so that whoever finishes it (the main step, or the `post:` step
 * after a cancellation) can commit the deliverable or its partial. Plain JSON on disk, in the
 * runner's temp folder, which the agent's working tree does not contain; still, it is read
 * back through this schema, as anything on disk an agent might reach.
 */
const identitySchema = z.object({ name: z.string(), email: z.string() })

const tokenPrice = z.object({ inputPerMTok: z.number(), outputPerMTok: z.number() })

const stageContextSchema = z.object({
  repo: z.string(),
  branch: z.string(),
  baseSha: z.string(),
  /** Where the agent's configuration came from; a commit name only, as it goes to git. */
  trustedCommit: z.optional(z.string().check(z.regex(/^[0-9a-f]{40,64}$/))),
  /** The branch was new on the remote when the stage began. */
  created: z.boolean(),
  issue: z.string(),
  profile: z.string(),
  runId: z.string(),
  timestamp: z.string(),
  handoffPath: z.string(),
  requiredSections: z.array(z.string()),
  maxFileBytes: z.number(),
  commitPaths: z.array(z.string()),
  /**
   * The variables the profile's `env` hands the agent: their values (read from the
   * environment again, never stored here) are secrets no commit may hold.
   */
  secretNames: z._default(z.array(z.string()), []),
  /** Repo-relative WORKFLOW.md, never committed by a stage. */
  workflowPath: z.string(),
  startedAt: z.string(),
  /** `.git` as it was before the agent ran; holds the persisted credential, if any. */
  snapshot: z.optional(gitDirSnapshotSchema),
  /** The tracker's files in the tree before the agent ran (see snapshotTrackerFiles). */
  trackerFiles: z.optional(z.record(z.string(), z.string())),
  /** Where the isolated agent works, as whom (isolation: user). */
  sandbox: z.optional(handedOverSchema),
  /** Its tree, once taken back from it; null when it left none. */
  tree: z.optional(z.nullable(z.string())),
  /** Who the stage's commit is by and who made it (the action's inputs); the bot when absent. */
  author: z.optional(identitySchema),
  committer: z.optional(identitySchema),
  /** Which stage of which issue this is; its commit carries it as trailers. */
  key: z.optional(stageKeySchema),
  /** Why the work came to this stage, for its provenance trailer. */
  handoffReason: z.optional(handoffReasonSchema),
  runUrl: z.optional(z.string()),
  /** WORKFLOW.md's agent.prices, for a CLI that reports only tokens. */
  prices: z.optional(z.object({ codex: z.optional(tokenPrice), gemini: z.optional(tokenPrice) })),
  /** The agent's process group, once it runs. */
  agentPgid: z.optional(z.int()),
  /**
   * How the agent ended, once it has (and its verify commands with it): a job killed before
   * the commit still commits its work as it ended, not as cancelled.
   */
  ended: z.optional(z.object({ outcome: stageOutcomeSchema, reason: z.string() })),
  /**
   * How far the stage got: the agent may be running (or killed) in `agent`; in `committed` its
   * end is judged and committed (`committed` says how), so whoever finishes it only publishes
   * that commit; in `published` the work is safe but the pipeline's next step may not have
   * been carried out; in `done` the job saw it through.
   */
  phase: z.optional(z.enum(['agent', 'committed', 'published', 'done'])),
  committed: z.optional(
    z.object({
      sha: z.nullable(z.string()),
      outcome: stageOutcomeSchema,
      reason: z.string(),
      handoffPath: z.nullable(z.string())
    })
  )
})
export type StageContext = z.infer<typeof stageContextSchema>

/** The context of a stage about to start: what finishing it needs of its run and its job. */
export function stageContext(
  job: {
    config: WorkflowConfig
    trustedCommit: string
    workflowPath: string
    author?: Identity | undefined
    committer?: Identity | undefined
  },
  run: StageRun,
  handoffPath: string
): StageContext {
  const { branch, profile } = run
  return {
    repo: branch.repo,
    branch: branch.branch,
    baseSha: branch.baseSha,
    trustedCommit: job.trustedCommit,
    created: branch.created,
    issue: run.issue.id,
    profile: profile.name,
    runId: run.run,
    timestamp: run.timestamp,
    handoffPath,
    requiredSections: profile.requiredSections,
    maxFileBytes: job.config.handoff.maxFileBytes,
    commitPaths: profile.commitPaths,
    secretNames: profile.env,
    workflowPath: job.workflowPath,
    startedAt: new Date().toISOString(),
    key: run.key,
    author: job.author,
    committer: job.committer,
    handoffReason: run.handoffReason,
    runUrl: run.runUrl,
    prices: job.config.agent.prices,
    phase: 'agent'
  }
}

export function saveStageContext(path: string, ctx: StageContext): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  writeWhole(path, JSON.stringify(ctx), { mode: 0o600 })
}

/** The context at `path`; null when there is none or it is not shaped like one. */
export function loadStageContext(path: string): StageContext | null {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return null
  }
  const parsed = stageContextSchema.safeParse(value, PARSE_ONCE)
  return parsed.success ? parsed.data : null
}
