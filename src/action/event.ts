import { readFileSync } from 'node:fs'
import { UserError } from '../errors.js'
import { DISPATCH_TYPE } from '../pipeline/names.js'

export interface Actor {
  login: string
  type: string
}

/** What started this job, reduced to what a stage needs; everything in it is untrusted. */
export type Trigger =
  | {
      kind: 'run'
      source: 'label' | 'workflow_dispatch' | 'repository_dispatch' | 'comment'
      issue: string
      /** The label that was added, for label events. */
      label?: string
      /** The state a dispatch says the issue entered; checked against the live state. */
      state?: string
      actor: Actor
      pullRequest?: { number: number; headRef: string; fork: boolean }
      defaultBranch?: string
      /** What the pipeline's own dispatch asks for (untrusted: checked against the record). */
      continuation?: Continuation
      /** A person's reply, for `comment` triggers. */
      reply?: { body: string; author: string }
    }
  | { kind: 'skip'; reason: string }

/** The pipeline's own bookkeeping carried by its repository_dispatch. */
export interface Continuation {
  entry: number
  kind: 'work' | 'review'
  profile?: string
  attempt: number
  round: number
  recheck?: string
  reviewed?: string
}

interface Payload {
  action?: string
  label?: { name?: string }
  issue?: { number?: number; pull_request?: unknown }
  pull_request?: {
    number?: number
    head?: { ref?: string; repo?: { full_name?: string } | null }
  }
  repository?: { full_name?: string; default_branch?: string }
  sender?: { login?: string; type?: string }
  comment?: { body?: string; user?: { login?: string; type?: string } }
  inputs?: Record<string, unknown>
  client_payload?: Record<string, unknown>
}

export function readEvent(path: string): Payload {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Payload
  } catch (err) {
    throw new UserError(`cannot read the event payload ${path}: ${(err as Error).message}`)
  }
}

/**
 * Maps a GitHub event to a stage trigger. Overrides are the action's `issue` and `state`
 * inputs, which a workflow fills from `workflow_dispatch` inputs or a dispatch payload.
 */
export function triggerFromEvent(
  eventName: string,
  payload: Payload,
  overrides: { issue?: string; state?: string }
): Trigger {
  const actor: Actor = { login: payload.sender?.login ?? '', type: payload.sender?.type ?? 'User' }
  const defaultBranch = payload.repository?.default_branch
  const text = (v: unknown): string | undefined =>
    typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : undefined

  switch (eventName) {
    case 'issues':
    case 'pull_request':
    case 'pull_request_target': {
      if (payload.action !== 'labeled') {
        return {
          kind: 'skip',
          reason: `${eventName} event "${payload.action}" does not start a stage; only "labeled" does`
        }
      }
      const label = payload.label?.name
      if (!label) return { kind: 'skip', reason: 'the labeled event carries no label' }
      if (eventName === 'issues') {
        const number = payload.issue?.number
        if (!number) return { kind: 'skip', reason: 'the issues event carries no issue number' }
        return { kind: 'run', source: 'label', issue: String(number), label, actor, defaultBranch }
      }
      const pr = payload.pull_request
      if (!pr?.number || !pr.head?.ref) {
        return { kind: 'skip', reason: 'the pull_request event carries no pull request' }
      }
      const headRepo = pr.head.repo?.full_name
      return {
        kind: 'run',
        source: 'label',
        issue: String(pr.number),
        label,
        actor,
        defaultBranch,
        pullRequest: {
          number: pr.number,
          headRef: pr.head.ref,
          fork: !headRepo || headRepo !== payload.repository?.full_name
        }
      }
    }
    case 'workflow_dispatch': {
      const issue = overrides.issue ?? text(payload.inputs?.issue)
      if (!issue) {
        return {
          kind: 'skip',
          reason: 'workflow_dispatch without an issue: set the action input issue'
        }
      }
      const state = overrides.state ?? text(payload.inputs?.state)
      return { kind: 'run', source: 'workflow_dispatch', issue, state, actor, defaultBranch }
    }
    case 'repository_dispatch': {
      if (payload.action !== DISPATCH_TYPE) {
        return {
          kind: 'skip',
          reason: `repository_dispatch of type "${payload.action}" is not ${DISPATCH_TYPE}`
        }
      }
      const issue = overrides.issue ?? text(payload.client_payload?.issue)
      if (!issue) return { kind: 'skip', reason: `the ${DISPATCH_TYPE} dispatch carries no issue` }
      const state = overrides.state ?? text(payload.client_payload?.state)
      return {
        kind: 'run',
        source: 'repository_dispatch',
        issue,
        state,
        actor,
        defaultBranch,
        continuation: continuationOf(payload.client_payload ?? {})
      }
    }
    case 'issue_comment': {
      if (payload.action !== 'created') {
        return { kind: 'skip', reason: `issue_comment "${payload.action}" does not answer a stage` }
      }
      const number = payload.issue?.number
      const body = payload.comment?.body
      if (!number || !body)
        return { kind: 'skip', reason: 'the comment event carries no issue or text' }
      return {
        kind: 'run',
        source: 'comment',
        issue: String(number),
        actor,
        defaultBranch,
        reply: { body, author: payload.comment?.user?.login ?? actor.login }
      }
    }
    default:
      return { kind: 'skip', reason: `the ${eventName} event does not start a stage` }
  }
}

/** Reads the pipeline's bookkeeping from a dispatch payload; anything malformed is ignored. */
function continuationOf(p: Record<string, unknown>): Continuation | undefined {
  const int = (v: unknown) =>
    typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 1e6 ? v : undefined
  const str = (v: unknown) =>
    typeof v === 'string' && v.length > 0 && v.length <= 2000 ? v : undefined
  const entry = int(p.entry)
  if (entry === undefined) return undefined
  const kind = p.kind === 'review' ? 'review' : 'work'
  return {
    entry,
    kind,
    profile: str(p.profile),
    attempt: int(p.attempt) ?? 0,
    round: int(p.round) ?? 0,
    recheck: str(p.recheck),
    reviewed: str(p.reviewed)
  }
}
