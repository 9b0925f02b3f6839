import * as z from '../zod.js'
import { stageKindSchema } from '../stage-kind.js'
import { trailLog } from './trail-log.js'

/** The trailers a stage commit carries: who made it, for which stage, and how it ended. */
const TRAILER_KEYS = {
  profile: 'Itervox-Profile',
  run: 'Itervox-Run',
  outcome: 'Itervox-Outcome',
  issue: 'Itervox-Issue',
  state: 'Itervox-State',
  stage: 'Itervox-Stage',
  handoff: 'Itervox-Handoff',
  reason: 'Itervox-Reason',
  provenance: 'Itervox-Provenance'
} as const

export type Trailer = readonly [key: string, value: string]

const count = z.int().check(z.minimum(0))

/** One stage of one issue: the pipeline runs each at most once (see findLandedStage). */
export const stageKeySchema = z.object({
  issue: z.string(),
  state: z.string(),
  entry: count,
  kind: stageKindSchema,
  profile: z.string(),
  attempt: count,
  round: count,
  /** Runs of this same step before (a stage resumed by a reply runs again). */
  resume: count,
  /** The event an automation's run answers (see pipeline/triggers/): one run per event. */
  event: z.optional(z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9._-]{0,79}$/)))
})
export type StageKey = z.infer<typeof stageKeySchema>

export interface StageTrailerInput {
  profile: string
  run: string
  outcome: string
  key?: StageKey
  /** The committed deliverable or partial. */
  handoff?: string
  reason?: string
  /** What the pipeline saw of the stage, as its trailer value (see encodeProvenance). */
  provenance?: string | null
}

export function stageTrailers(t: StageTrailerInput): Trailer[] {
  const out: Trailer[] = [
    [TRAILER_KEYS.profile, t.profile],
    [TRAILER_KEYS.run, t.run],
    [TRAILER_KEYS.outcome, t.outcome]
  ]
  if (t.key) {
    out.push(
      [TRAILER_KEYS.issue, flat(t.key.issue, 100)],
      [TRAILER_KEYS.state, stateValue(t.key.state)],
      [TRAILER_KEYS.stage, stageValue(t.key)]
    )
  }
  if (t.handoff) out.push([TRAILER_KEYS.handoff, flat(t.handoff, 300)])
  const reason = t.reason ? flat(t.reason, 300) : ''
  if (reason) out.push([TRAILER_KEYS.reason, reason])
  if (t.provenance) out.push([TRAILER_KEYS.provenance, t.provenance])
  return out
}

// Trailer values are one line; a state name is data and may hold anything.
export const PROVENANCE_TRAILER = TRAILER_KEYS.provenance
export const ISSUE_TRAILER = TRAILER_KEYS.issue
export const HANDOFF_TRAILER = TRAILER_KEYS.handoff

/** The Itervox-Issue value for an issue id. */
export function issueValue(issue: string): string {
  return flat(issue, 100)
}

function flat(v: string, max: number): string {
  return v
    .replace(/[\s\0]+/g, ' ')
    .trim()
    .slice(0, max)
}

function stateValue(state: string): string {
  return flat(state, 200) || '-'
}

function stageValue(k: StageKey): string {
  return `${k.entry}/${k.kind}/${k.attempt}/${k.round}${k.resume ? `/${k.resume}` : ''}${k.event ? `/${k.event}` : ''}`
}

/** The message, a blank line, then one `Key: value` line per trailer. */
export function formatMessage(message: string, trailers: readonly Trailer[]): string {
  const body = message.replace(/\0/g, '').trimEnd() || 'handoff-action stage'
  if (trailers.length === 0) return `${body}\n`
  const lines = trailers.map(([key, value]) => {
    if (!/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(key)) throw new Error(`bad trailer key: ${key}`)
    if (/[\r\n\0]/.test(value) || !value.trim()) throw new Error(`bad trailer value for ${key}`)
    return `${key}: ${value.trim()}`
  })
  return `${body}\n\n${lines.join('\n')}\n`
}

/** A stage commit found on a branch: what the stage recorded about itself. */
export interface LandedStage {
  sha: string
  outcome: string
  run: string
  handoffPath: string | null
  reason: string
}

/**
 * The commit at or below `head` that a run of this exact stage made, so a stage whose push
 * landed is never run again (a job killed after its push, a record that could not be written).
 * Looks at the newest commits (see trail-log.ts).
 */
export async function findLandedStage(
  repo: string,
  head: string,
  key: StageKey
): Promise<LandedStage | null> {
  for (const { sha, trailers } of await trailLog(repo, head)) {
    const get = (k: string) => trailers.get(k.toLowerCase())
    if (
      get(TRAILER_KEYS.issue) === flat(key.issue, 100) &&
      get(TRAILER_KEYS.profile) === key.profile &&
      get(TRAILER_KEYS.stage) === stageValue(key) &&
      get(TRAILER_KEYS.state) === stateValue(key.state)
    ) {
      return {
        sha,
        outcome: get(TRAILER_KEYS.outcome) ?? 'succeeded',
        run: get(TRAILER_KEYS.run) ?? '',
        handoffPath: get(TRAILER_KEYS.handoff) ?? null,
        reason: get(TRAILER_KEYS.reason) ?? ''
      }
    }
  }
  return null
}
