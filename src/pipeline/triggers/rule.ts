import type { AutomationConfig, WorkflowConfig } from '../../config/types.js'
import type { Issue } from '../ports.js'
import type { IssueRecord } from '../record/record.js'
import type { AutomationEvent } from '../ports.js'

/** What an event is, for one issue: where its run belongs and what names it. */
export interface Occasion {
  /** The state the run is in (the issue's, or the failed stage's). */
  state: string
  /** The entry into `state` it belongs to. */
  entry: number
  /** Names the event in the run's claim, trailer and record: one run per event. */
  key: string
  /** What the agent is told about the event (untrusted parts are fenced by the caller). */
  about: string
  /** Untrusted text of the event (a comment), shown fenced. */
  text?: { author: string; body: string }
  /** When the event happened, for filters that look at its age. */
  at?: string
}

export interface RuleContext {
  config: WorkflowConfig
  issue: Issue
  record: IssueRecord
  now: Date
}

/**
 * One trigger type: how its event becomes an occasion (or why it starts nothing) and the
 * filter conditions only it has. Adding a trigger is one of these and its tests.
 */
export interface TriggerRule<E extends AutomationEvent = AutomationEvent> {
  type: E['type']
  /** A closed issue's event still runs (a merge closes the issue it names). */
  onClosed?: boolean
  occasion(e: E, c: RuleContext): Occasion | { skip: string }
  /** The trigger's own filter conditions that the automation sets, each true or false. */
  conditions?(a: AutomationConfig, e: E, o: Occasion, c: RuleContext): boolean[]
}

/** The issue's state, or the one the record last saw it enter; undefined when neither. */
export function currentPlace(c: RuleContext): { state: string; entry: number } | undefined {
  const state = c.issue.state ?? c.record.state
  return state ? { state, entry: c.record.entry } : undefined
}
