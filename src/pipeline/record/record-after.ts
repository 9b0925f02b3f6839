import { sameState } from '../../config/lookup.js'
import type { Continuation, IssueRecord, WaitingInput } from './record.js'
import type { StageKind } from '../../stage-kind.js'
import type { Next } from './next.js'

/** The stage that just ran, in the terms its continuation needs. */
export interface CurrentStage {
  kind: StageKind
  profile: string
  reviewed?: string
  round: number
  /** The deciding run: names the continuation's wake-up. */
  run?: string
}

/**
 * The record after the pipeline acts on `next`. A move starts a new entry into the target
 * state; the stage that the entry starts finds it there. A same-state step (retry, review,
 * rework) is written as the record's continuation, which the next wake-up runs.
 */
export function recordAfter(
  record: IssueRecord,
  next: Next,
  waiting: Omit<WaitingInput, 'question'>,
  current: CurrentStage
): IssueRecord {
  const out: IssueRecord = { ...record }
  delete out.continuation
  const enter = (state: string) => {
    out.state = state
    out.entry = record.entry + 1
    out.transitions = record.transitions + 1
    out.visited = visit(record.visited ?? [], state)
    delete out.sentBack
    delete out.pendingMove
    delete out.waiting
  }
  switch (next.kind) {
    case 'move':
      enter(next.to)
      if (next.round !== undefined) {
        out.round = next.round
        out.sentBack = { entry: out.entry, by: current.profile }
      }
      delete out.halted
      delete out.haltedOn
      break
    case 'review':
      if (next.pendingMove) out.pendingMove = next.pendingMove
      else delete out.pendingMove
      break
    case 'rework':
      out.round = next.round
      out.sentBack = { entry: record.entry, by: current.profile }
      break
    case 'wait':
      out.waiting = { ...waiting, question: next.question }
      break
    case 'escalate':
      if (next.to) enter(next.to)
      out.halted = next.why
      delete out.haltedOn
      break
    case 'retry':
    case 'stop':
      break
  }
  const step = continuationFor(next, out, current)
  if (step) out.continuation = step
  return out
}

function visit(visited: string[], state: string): string[] {
  return visited.some((s) => sameState(s, state)) ? visited : [...visited, state].slice(-100)
}

/** The same-state step `next` asks for, in `record`'s terms; none for moves and ends. */
export function continuationFor(
  next: Next,
  record: IssueRecord,
  current: CurrentStage
): Continuation | undefined {
  const here = {
    state: record.state ?? '',
    entry: record.entry,
    step: current.run ? current.run.replace(/[^A-Za-z0-9._-]/g, '.') : undefined
  }
  switch (next.kind) {
    case 'review':
      return {
        ...here,
        kind: 'review',
        profile: next.reviewer,
        attempt: 0,
        round: record.round,
        // The next reviewer of a chain looks at the same work as the one before it.
        reviewed:
          current.kind === 'review' ? (current.reviewed ?? current.profile) : current.profile
      }
    case 'rework':
      return { ...here, kind: 'work', profile: next.profile, attempt: 0, round: next.round }
    case 'retry':
      return {
        ...here,
        kind: current.kind,
        profile: next.profile ?? current.profile,
        attempt: next.attempt,
        round: current.round,
        recheck: next.recheck ? next.recheck.slice(0, 500) : undefined,
        reviewed: current.reviewed || undefined,
        recovery: next.recovery
      }
    case 'move':
    case 'stop':
    case 'wait':
    case 'escalate':
      return undefined
  }
}
