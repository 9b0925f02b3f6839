import * as z from '../../zod.js'
import { stageOutcomeSchema } from './outcome.js'
import { stageKindSchema, type StageKind } from '../../stage-kind.js'
import { PARSE_ONCE } from '../../parse-once.js'

// What the pipeline itself says about each stage, written into the stage's commit after the
// agent has exited (see stageTrailers), so no agent ever writes it. It is read back from the
// branch, which anyone with push access can edit, so it is parsed with a schema like the record.

const count = z.int().check(z.minimum(0))

/** Why the work passed to this stage, in the handoff contract's terms. */
export const handoffReasonSchema = z.enum([
  'specialization',
  'supervision',
  'recovery',
  'escalation'
])
export type HandoffReason = z.infer<typeof handoffReasonSchema>

const provenanceSchema = z.object({
  v: z.literal(1),
  profile: z.string().check(z.maxLength(100)),
  /** The state the stage ran in (entered); the state it left is the next stage's. */
  state: z.string().check(z.maxLength(200)),
  kind: stageKindSchema,
  reason: handoffReasonSchema,
  outcome: stageOutcomeSchema,
  attempt: count,
  run: z.string().check(z.maxLength(200)),
  runUrl: z.optional(z.string().check(z.maxLength(500))),
  startedAt: z.string().check(z.maxLength(40)),
  endedAt: z.string().check(z.maxLength(40)),
  turns: z.optional(count),
  inputTokens: z.optional(count),
  outputTokens: z.optional(count),
  costUsd: z.optional(z.number().check(z.minimum(0))),
  /** Where a cost came from when the CLI reported only tokens (a dated price table). */
  pricedFrom: z.optional(z.string().check(z.maxLength(60)))
})
export type Provenance = z.infer<typeof provenanceSchema>

/** A stage's provenance as it is found on the branch: with its commit and its deliverable. */
export interface LandedProvenance extends Provenance {
  sha: string
  handoffPath?: string
}

/**
 * A review is supervision; a retry or a resumed run is recovery; a stage started while the
 * issue waited for a person (needs-attention) is the hand-back after an escalation; any other
 * stage (an automation's run among them) is the next specialist's.
 */
export function handoffReason(o: {
  kind: StageKind
  attempt: number
  resume: number
  escalated: boolean
}): HandoffReason {
  if (o.escalated) return 'escalation'
  if (o.kind === 'review') return 'supervision'
  if (o.attempt > 0 || o.resume > 0) return 'recovery'
  return 'specialization'
}

/**
 * One trailer value: JSON on one line (JSON escapes every line break in a string); null when
 * a figure is not one the schema takes (a CLI that reported a fraction of a turn).
 */
export function encodeProvenance(p: Provenance): string | null {
  const parsed = provenanceSchema.safeParse(p, PARSE_ONCE)
  return parsed.success ? JSON.stringify(parsed.data) : null
}

/** The provenance in a trailer value; null for anything else. */
export function decodeProvenance(value: string): Provenance | null {
  try {
    const parsed = provenanceSchema.safeParse(JSON.parse(value))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}
