import * as z from './zod.js'

/**
 * What kind of run a stage was: the state's own work, a review of it, or an automation's helper
 * run for an event (a comment, a merged pull request, a failed stage: see pipeline/triggers/).
 */
export const stageKindSchema = z.enum(['work', 'review', 'automation'])
export type StageKind = z.infer<typeof stageKindSchema>
