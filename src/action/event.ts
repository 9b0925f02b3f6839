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
      source: 'label' | 'workflow_dispatch' | 'wake' | 'comment'
      issue: string
      /** The label that was added, for label events. */
      label?: string
      /** The state a dispatch says the issue entered; checked against the live state. */
      state?: string
      actor: Actor
      pullRequest?: { number: number; headRef: string; fork: boolean }
      defaultBranch?: string
      /** The entry a wake-up (repository_dispatch) was sent for; the record says what runs. */
      wake?: { entry: number; step?: string }
      /** A person's reply, for `comment` triggers. */
      reply?: { body: string; author: string }
    }
  | { kind: 'skip'; reason: string }
  | { kind: 'deny'; reason: string }

/**
 * All a wake-up may say: which issue, the state and entry it was sent for, and the name of the
 * owed step it wakes. What runs is read from the issue's record.
 */
const WAKE_KEYS = new Set(['issue', 'state', 'entry', 'step'])

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
      const client = payload.client_payload ?? {}
      const extra = Object.keys(client).filter((k) => !WAKE_KEYS.has(k))
      if (extra.length > 0) {
        return {
          kind: 'deny',
          reason: `the ${DISPATCH_TYPE} dispatch carries ${extra.slice(0, 3).join(', ')}; a wake-up names only issue, state, entry and step, and what runs comes from the issue's record`
        }
      }
      const issue = overrides.issue ?? text(client.issue)
      if (!issue) return { kind: 'skip', reason: `the ${DISPATCH_TYPE} dispatch carries no issue` }
      const state = overrides.state ?? text(client.state)
      const entry = client.entry
      const step =
        typeof client.step === 'string' && /^[A-Za-z0-9._-]{1,80}$/.test(client.step)
          ? client.step
          : undefined
      const wake =
        typeof entry === 'number' && Number.isInteger(entry) && entry >= 0 && entry < 1e9
          ? { entry, ...(step ? { step } : {}) }
          : undefined
      return {
        kind: 'run',
        source: 'wake',
        issue,
        state,
        actor,
        defaultBranch,
        ...(wake ? { wake } : {})
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
