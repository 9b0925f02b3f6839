// input_required with policy.auto_resume: the automation's answer resumes the waiting stage by
// itself, as a person's reply does. Its deliverable is the answer; the record keeps where it is
// (never its text) and a wake-up starts the job that resumes the stage with it. Whichever comes
// first, that job or a person's reply, resumes the stage; the stage's claim lets only one run.
// Without the policy the answer stays in the trail and a person still answers.
import { sameState } from '../../config/lookup.js'
import type { WorkflowConfig } from '../../config/types.js'
import type { Issue, Tracker, Workspace } from '../ports.js'
import type { Effect, IssueRecord } from '../record/record.js'
import { ANSWERED_STEP, type AutomationRun } from './run.js'

/** The record and effects after an input_required automation's run, when its answer resumes. */
export function withAnswer(
  record: IssueRecord,
  effects: Effect[],
  o: {
    config: WorkflowConfig
    /** The run's plan: its entry, profile and automation. */
    plan: { entry: number; profile: string; automation?: AutomationRun }
    /** The run's accepted deliverable, if it succeeded with one. */
    deliverable: { commit: string; path: string } | undefined
    wakes: Tracker['wakes']
  }
): { record: IssueRecord; effects: Effect[] } {
  const run = o.plan.automation
  const w = record.waiting
  const a = run && o.config.automations.find((x) => x.id === run.id)
  const resumes = a?.trigger.type === 'input_required' && a.trigger.autoResume
  if (!run || !resumes || !o.deliverable || !w || o.wakes === 'none') return { record, effects }
  if (w.entry !== o.plan.entry || w.entry !== record.entry) return { record, effects }
  const answer = { automation: run.id, profile: o.plan.profile, ...o.deliverable }
  return {
    record: { ...record, waiting: { ...w, answer } },
    effects: [...effects, { kind: 'wake', state: w.state, entry: w.entry, step: ANSWERED_STEP }]
  }
}

/**
 * The answer the wake-up sent by withAnswer brings, as a reply from the automation; a skip when
 * the stage no longer waits for it (a person answered first); null for any other job.
 */
export async function answerOf(
  o: { trigger: { source: string; wake?: { entry: number; step?: string } }; workspace: Workspace },
  issue: Issue,
  record: IssueRecord,
  maxBytes: number
): Promise<{ body: string; author: string; automation: string } | { skip: string } | null> {
  const t = o.trigger
  if (t.source !== 'wake' || t.wake?.step !== ANSWERED_STEP) return null
  const w = record.waiting
  const answer = w?.answer
  if (!w || !answer || w.entry !== t.wake.entry || w.entry !== record.entry) {
    return { skip: `no stage of entry ${t.wake.entry} waits for the automation's answer` }
  }
  if (!issue.state || !sameState(issue.state, w.state)) {
    return { skip: `${issue.identifier} left "${w.state}" before the answer resumed its stage` }
  }
  const body = await o.workspace.readCommitted(answer.commit, answer.path, maxBytes)
  if (body === null) return { skip: `the answer ${answer.path} could not be read` }
  return { body, author: answer.profile, automation: answer.automation }
}
