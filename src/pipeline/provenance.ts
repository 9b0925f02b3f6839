import { z } from 'zod'
import { stageOutcomeSchema } from './outcome.js'
import { stageKindSchema } from './record.js'
import { PARSE_ONCE } from '../parse-once.js'

// What the pipeline itself says about each stage, written into the stage's commit after the
// agent has exited (see stageTrailers), so no agent ever writes it. It is read back from the
// branch, which anyone with push access can edit, so it is parsed with a schema like the record.

const count = z.int().min(0)

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
  profile: z.string().max(100),
  /** The state the stage ran in (entered); the state it left is the next stage's. */
  state: z.string().max(200),
  kind: stageKindSchema,
  reason: handoffReasonSchema,
  outcome: stageOutcomeSchema,
  attempt: count,
  run: z.string().max(200),
  runUrl: z.string().max(500).optional(),
  startedAt: z.string().max(40),
  endedAt: z.string().max(40),
  turns: count.optional(),
  inputTokens: count.optional(),
  outputTokens: count.optional(),
  costUsd: z.number().min(0).finite().optional(),
  /** Where a cost came from when the CLI reported only tokens (a dated price table). */
  pricedFrom: z.string().max(60).optional()
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
 * stage is the next specialist's.
 */
export function handoffReason(o: {
  kind: 'work' | 'review'
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
