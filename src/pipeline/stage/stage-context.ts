import { mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import * as z from '../../zod.js'
import { writeWhole } from '../../files/write-whole.js'
import { gitDirSnapshotSchema } from '../../git/guard.js'
import { handedOverSchema } from '../../isolation/agent-tree.js'
import { stageKeySchema } from '../../git/trailers.js'
import { handoffPath } from '../../handoff/index.js'
import { stageOutcomeSchema } from '../record/outcome.js'
import { handoffReasonSchema } from '../record/provenance.js'
import { PARSE_ONCE } from '../../parse-once.js'

/**
 * What a stage must remember so that whoever finishes it (the main step, or the `post:` step
 * after a cancellation) can commit the deliverable or its partial: its StageRun and what of the
 * job finishing reads, each as the schemas below keep them, and how far it got. Plain JSON on
 * disk, in the runner's temp folder, which the agent's working tree does not contain; still,
 * it is read back through this schema, as anything on disk an agent might reach.
 */
const identitySchema = z.object({ name: z.string(), email: z.string() })

const tokenPrice = z.object({ inputPerMTok: z.number(), outputPerMTok: z.number() })

/** The part of the StageRun that finishing the stage reads. */
const savedRunSchema = z.object({
  /**
   * Which stage of which issue this is; its commit carries it as trailers. Absent for a stage
   * committed as a plain partial, to be done again (an interrupted local run).
   */
  key: z.optional(stageKeySchema),
  issue: z.object({ id: z.string() }),
  profile: z.object({
    name: z.string(),
    requiredSections: z.array(z.string()),
    commitPaths: z.array(z.string()),
    /**
     * The variables the profile's `env` hands the agent: their values (read from the
     * environment again, never stored here) are secrets no commit may hold.
     */
    env: z.array(z.string())
  }),
  branch: z.object({
    repo: z.string(),
    branch: z.string(),
    baseSha: z.string(),
    /** The branch was new on the remote when the stage began. */
    created: z.boolean()
  }),
  run: z.string(),
  runUrl: z.optional(z.string()),
  /** A Date in the run, its ISO text on disk. */
  startedAt: z.pipe(
    z.union([z.date(), z.iso.datetime()]),
    z.transform((at) => new Date(at))
  ),
  timestamp: z.string(),
  handoffReason: handoffReasonSchema
})

/** The part of the job that finishing the stage reads. */
const savedJobSchema = z.object({
  config: z.object({
    handoff: z.object({ maxFileBytes: z.number() }),
    /** WORKFLOW.md's agent.prices, for a CLI that reports only tokens. */
    agent: z.object({
      prices: z.optional(
        z.object({ codex: z.optional(tokenPrice), gemini: z.optional(tokenPrice) })
      )
    })
  }),
  /** Where the agent's configuration came from; a commit name only, as it goes to git. */
  trustedCommit: z.optional(z.string().check(z.regex(/^[0-9a-f]{40,64}$/))),
  /** Repo-relative WORKFLOW.md, never committed by a stage. */
  workflowPath: z.string(),
  /** Who the stage's commit is by and who made it (the action's inputs); the bot when absent. */
  author: z.optional(identitySchema),
  committer: z.optional(identitySchema)
})

const stageContextSchema = z.object({
  stage: savedRunSchema,
  job: savedJobSchema,
  /** `.git` as it was before the agent ran; holds the persisted credential, if any. */
  snapshot: z.optional(gitDirSnapshotSchema),
  /** The tracker's files in the tree before the agent ran (see snapshotTrackerFiles). */
  trackerFiles: z.optional(z.record(z.string(), z.string())),
  /** Where the isolated agent works, as whom (isolation: user). */
  sandbox: z.optional(handedOverSchema),
  /** Its tree, once taken back from it; null when it left none. */
  tree: z.optional(z.nullable(z.string())),
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

/**
 * The context of a stage about to start: of its StageRun and its job, what finishing it reads
 * (given the whole StageRun and StageJob, the schemas keep only that).
 */
export function stageContext(
  job: z.input<typeof savedJobSchema>,
  run: z.input<typeof savedRunSchema>
): StageContext {
  return {
    stage: kept(savedRunSchema, run),
    job: kept(savedJobSchema, job),
    phase: 'agent'
  }
}

/** What `schema` keeps of `value` (an object schema drops the keys it does not name). */
function kept<S extends z.ZodMiniType>(schema: S, value: z.input<S>): z.output<S> {
  return schema.parse(value)
}

/** The stage's own file, as the agent was told to write it. */
export function contextHandoffPath(ctx: StageContext): string {
  return handoffPath(ctx.stage.timestamp, ctx.stage.profile.name)
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
