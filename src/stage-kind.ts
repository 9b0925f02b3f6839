import * as z from './zod.js'

/** What kind of run a stage was: the state's own work, or a review of it. */
export const stageKindSchema = z.enum(['work', 'review'])
export type StageKind = z.infer<typeof stageKindSchema>
