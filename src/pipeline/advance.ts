import type { IssueRecord, WaitingInput } from './record.js'
import type { Next } from './transitions.js'

/**
 * The record after the pipeline acts on `next`. A move starts a new entry into the target
 * state; the stage that the entry starts finds it there.
 */
export function recordAfter(
  record: IssueRecord,
  next: Next,
  waiting: Omit<WaitingInput, 'question'>
): IssueRecord {
  const out: IssueRecord = { ...record }
  const enter = (state: string) => {
    out.state = state
    out.entry = record.entry + 1
    out.transitions = record.transitions + 1
    out.round = 0
    delete out.pendingMove
    delete out.waiting
  }
  switch (next.kind) {
    case 'move':
      enter(next.to)
      delete out.halted
      break
    case 'review':
      if (next.pendingMove) out.pendingMove = next.pendingMove
      else delete out.pendingMove
      break
    case 'rework':
      out.round = next.round
      break
    case 'wait':
      out.waiting = { ...waiting, question: next.question }
      break
    case 'escalate':
      if (next.to) enter(next.to)
      out.halted = next.why
      break
    case 'retry':
    case 'stop':
      break
  }
  return out
}

/** The dispatch payload that starts the stage `next` asks for, in `record`'s terms. */
export function continuationFor(
  next: Next,
  record: IssueRecord,
  current: { kind: 'work' | 'review'; profile: string; reviewed?: string; round: number }
): Record<string, string | number> | null {
  switch (next.kind) {
    case 'move':
      return { state: next.to, entry: record.entry }
    case 'review':
      return {
        state: record.state ?? '',
        entry: record.entry,
        kind: 'review',
        attempt: 0,
        round: record.round,
        reviewed: current.profile
      }
    case 'rework':
      return {
        state: record.state ?? '',
        entry: record.entry,
        kind: 'work',
        profile: next.profile,
        attempt: 0,
        round: next.round
      }
    case 'retry': {
      const payload: Record<string, string | number> = {
        state: record.state ?? '',
        entry: record.entry,
        kind: current.kind,
        profile: current.profile,
        attempt: next.attempt,
        round: current.round
      }
      if (next.recheck) payload.recheck = next.recheck.slice(0, 500)
      if (current.reviewed) payload.reviewed = current.reviewed
      return payload
    }
    default:
      return null
  }
}
