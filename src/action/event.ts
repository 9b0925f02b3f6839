import { UserError } from '../errors.js'
import { actionInput } from './action-input.js'
import { readCappedText } from '../files/read-capped.js'
import { DISPATCH_TYPE } from '../pipeline/names.js'
import { issueKey } from './issue-key.js'
import { PAUSED_LABEL } from '../pipeline/record/pause.js'
import type { JobTrigger } from '../pipeline/ports.js'
import { clip, oneLine } from '../pipeline/untrusted-text.js'
import { isOwnComment } from '../pipeline/triggers/event.js'

type Actor = JobTrigger['actor']

/**
 * What started this job; everything in it is untrusted. A run is the job's trigger as the
 * pipeline takes it, with what only the action reads of the event: the default branch, and the
 * pull request a label was put on.
 */
export type Trigger =
  | ({
      kind: 'run'
      pullRequest?: { number: number; headRef: string; fork: boolean }
      defaultBranch?: string
    } & JobTrigger)
  | { kind: 'skip'; reason: string }
  | { kind: 'deny'; reason: string }

/**
 * All a wake-up may say: which issue, the state and entry it was sent for, and the name of the
 * owed step it wakes. What runs is read from the issue's record.
 */
const WAKE_KEYS = new Set(['issue', 'state', 'entry', 'step'])

/** The event payload as JSON gave it: a JSON object whose fields may be of any type. */
type Payload = Record<string, unknown>

// GitHub caps webhook payloads at 25 MB.
const EVENT_MAX_BYTES = 32 * 1024 * 1024
const FIX = 'GITHUB_EVENT_PATH must name the event file the runner wrote'

/** The event payload file: a JSON object, or a UserError naming the file. */
export function readEvent(path: string): Payload {
  let text: string
  try {
    text = readCappedText(path, EVENT_MAX_BYTES)
  } catch (err) {
    // The refusal says what the file is; what to change is always the path.
    const what = (err as UserError).message.split(';')[0]
    throw new UserError(`cannot use the event payload (${what}); ${FIX}`, { file: path })
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    // V8 quotes part of the text after the reason, or gives an offset: the reason is shown, the
    // offset becomes the line and column.
    const message = (err as Error).message
    const offset = /at position (\d+)/.exec(message)
    const reason = message.replace(/, (\.\.\.)?".*$|( in JSON)? at position \d+.*$/s, '')
    throw new UserError(
      `the event payload is not JSON (${clip(oneLine(reason), 80)}); ${FIX}`,
      offset ? { file: path, ...lineAndColumn(text, Number(offset[1])) } : { file: path }
    )
  }
  if (!isRecord(value)) {
    const what = value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`
    throw new UserError(`the event payload is ${what}, not a JSON object; ${FIX}`, { file: path })
  }
  return value
}

/**
 * The trigger of the job the runner describes (its event file, and the issue and state
 * inputs), for the main step's first line. Undefined when it cannot be read: the stage reads
 * it again and says why.
 */
export function jobTrigger(env: NodeJS.ProcessEnv): Trigger | undefined {
  const path = env.GITHUB_EVENT_PATH
  if (!path) return undefined
  const input = (name: string) => actionInput(env, name) || undefined
  try {
    return triggerFromEvent(env.GITHUB_EVENT_NAME ?? '', readEvent(path), {
      issue: input('issue'),
      state: input('state')
    })
  } catch {
    return undefined
  }
}

/**
 * The issue an `issues: closed` event closed, or undefined for any other event: its dependants'
 * blockers may all be done now (tracker/blockers-pass.ts). Read from the payload, untrusted;
 * the pass reads every issue it acts on again.
 */
export function closedIssue(eventName: string, payload: Payload): number | undefined {
  if (eventName !== 'issues' || str(payload.action) !== 'closed') return undefined
  return issueNumber(record(payload.issue).number)
}

/**
 * A person reopened the pull request of an issue's pipeline (head `itervox/<number>` in this
 * repository): the issue resumes what its record says is owed, as when `itervox-paused` is
 * taken off.
 */
function reopenedPull(payload: Payload, actor: Actor, defaultBranch: string | undefined): Trigger {
  const head = record(record(payload.pull_request).head)
  const issue = /^itervox\/([1-9][0-9]{0,9})$/.exec(str(head.ref) ?? '')?.[1]
  const own = str(record(head.repo).full_name) === str(record(payload.repository).full_name)
  if (!issue || !own) {
    return {
      kind: 'skip',
      reason:
        "the reopened pull request is no issue's pipeline (head itervox/<number> in this repository)"
    }
  }
  return { kind: 'run', source: 'label', issue, actor, defaultBranch, resume: true }
}

/**
 * The issue's pull request (head `itervox/<number>` in this repository, as the pipeline opens
 * it) opened, or closed by a merge: the event its pr_opened or pr_merged automations answer.
 */
function pullEvent(
  payload: Payload,
  action: 'opened' | 'closed',
  actor: Actor,
  defaultBranch: string | undefined
): Trigger {
  const pr = record(payload.pull_request)
  const number = issueNumber(pr.number)
  const head = record(pr.head)
  const issue = /^itervox\/([1-9][0-9]{0,9})$/.exec(str(head.ref) ?? '')?.[1]
  const own = str(record(head.repo).full_name) === str(record(payload.repository).full_name)
  if (!number || !issue || !own) {
    return {
      kind: 'skip',
      reason: `the ${action} pull request is no issue's pipeline (head itervox/<number> in this repository)`
    }
  }
  if (action === 'closed' && pr.merged !== true) {
    return {
      kind: 'skip',
      reason: 'the pull request was closed without merging; only a merge starts pr_merged'
    }
  }
  const type = action === 'opened' ? 'pr_opened' : 'pr_merged'
  return {
    kind: 'run',
    source: 'event',
    issue,
    actor,
    defaultBranch,
    event: { type, pullRequest: number }
  }
}

/**
 * Maps a GitHub event to a stage trigger. Overrides are the action's `issue` and `state`
 * inputs, which a workflow fills from `workflow_dispatch` inputs or a dispatch payload.
 * A payload field of the wrong type counts as absent.
 */
export function triggerFromEvent(
  eventName: string,
  payload: Payload,
  overrides: { issue?: string; state?: string }
): Trigger {
  const sender = record(payload.sender)
  const actor: Actor = { login: str(sender.login) ?? '', type: str(sender.type) ?? 'User' }
  const repository = record(payload.repository)
  const defaultBranch = str(repository.default_branch)
  const action = str(payload.action)
  const text = (v: unknown): string | undefined =>
    typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : undefined

  switch (eventName) {
    case 'issues':
    case 'pull_request':
    case 'pull_request_target': {
      const removed = str(record(payload.label).name)?.toLowerCase()
      const unpaused = issueNumber(record(payload.issue).number)
      if (
        eventName === 'issues' &&
        action === 'unlabeled' &&
        removed === PAUSED_LABEL &&
        unpaused
      ) {
        return {
          kind: 'run',
          source: 'label',
          issue: String(unpaused),
          actor,
          defaultBranch,
          resume: true
        }
      }
      if (eventName === 'pull_request' && action === 'reopened') {
        return reopenedPull(payload, actor, defaultBranch)
      }
      if (eventName === 'pull_request' && (action === 'opened' || action === 'closed')) {
        return pullEvent(payload, action, actor, defaultBranch)
      }
      if (action !== 'labeled') {
        return {
          kind: 'skip',
          reason: `${eventName} event ${shown(action)} does not start a stage; only "labeled" does`
        }
      }
      const label = str(record(payload.label).name)
      if (!label) return { kind: 'skip', reason: 'the labeled event carries no label' }
      // The issue or pull request the label went on, and when (its `updated_at`).
      const labelled = (number: number, on: Record<string, unknown>) => {
        const at = timeOf(on.updated_at)
        const run = { kind: 'run', source: 'label', issue: String(number), label } as const
        return { ...run, ...(at ? { at } : {}), actor, defaultBranch }
      }
      if (eventName === 'issues') {
        const number = issueNumber(record(payload.issue).number)
        if (!number) return { kind: 'skip', reason: 'the issues event carries no issue number' }
        return labelled(number, record(payload.issue))
      }
      const pr = record(payload.pull_request)
      const number = issueNumber(pr.number)
      const head = record(pr.head)
      const headRef = str(head.ref)
      if (!number || !headRef) {
        return { kind: 'skip', reason: 'the pull_request event carries no pull request' }
      }
      const headRepo = str(record(head.repo).full_name)
      return {
        ...labelled(number, pr),
        pullRequest: {
          number,
          headRef,
          fork: !headRepo || headRepo !== str(repository.full_name)
        }
      }
    }
    case 'workflow_dispatch': {
      const inputs = record(payload.inputs)
      const given = overrides.issue ?? text(inputs.issue)
      if (!given) {
        return {
          kind: 'skip',
          reason: 'workflow_dispatch without an issue: set the action input issue'
        }
      }
      const state = overrides.state ?? text(inputs.state)
      return {
        kind: 'run',
        source: 'workflow_dispatch',
        issue: issueKey(given),
        state,
        actor,
        defaultBranch
      }
    }
    case 'repository_dispatch': {
      if (action !== DISPATCH_TYPE) {
        return {
          kind: 'skip',
          reason: `repository_dispatch of type ${shown(action)} is not ${DISPATCH_TYPE}`
        }
      }
      const client = record(payload.client_payload)
      const extra = Object.keys(client).filter((k) => !WAKE_KEYS.has(k))
      if (extra.length > 0) {
        return {
          kind: 'deny',
          reason: `the ${DISPATCH_TYPE} dispatch carries ${extra
            .slice(0, 3)
            .map((k) => clip(oneLine(k), 40))
            .join(
              ', '
            )}; a wake-up names only issue, state, entry and step, and what runs comes from the issue's record`
        }
      }
      const given = overrides.issue ?? text(client.issue)
      if (!given) return { kind: 'skip', reason: `the ${DISPATCH_TYPE} dispatch carries no issue` }
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
        issue: issueKey(given),
        state,
        actor,
        defaultBranch,
        ...(wake ? { wake } : {})
      }
    }
    case 'issue_comment': {
      if (action !== 'created') {
        return { kind: 'skip', reason: `issue_comment ${shown(action)} does not answer a stage` }
      }
      const number = issueNumber(record(payload.issue).number)
      const comment = record(payload.comment)
      const body = str(comment.body)
      if (!number || !body)
        return { kind: 'skip', reason: 'the comment event carries no issue or text' }
      if (isOwnComment(body)) {
        return { kind: 'skip', reason: "the pipeline's own comment starts nothing" }
      }
      const author = str(record(comment.user).login) ?? actor.login
      const id = issueNumber(comment.id)
      return {
        kind: 'run',
        source: 'comment',
        issue: String(number),
        actor,
        defaultBranch,
        reply: { body, author },
        // A reply or an approval keeps its meaning; otherwise the comment is this event.
        ...(id ? { event: { type: 'tracker_comment_added', comment: id, body, author } } : {})
      }
    }
    default:
      return { kind: 'skip', reason: `the ${eventName} event does not start a stage` }
  }
}

function lineAndColumn(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset)
  const lineStart = before.lastIndexOf('\n') + 1
  return { line: before.split('\n').length, col: offset - lineStart + 1 }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** `v` when it is a JSON object, else an empty one: a missing or mistyped level reads as absent. */
function record(v: unknown): Record<string, unknown> {
  return isRecord(v) ? v : {}
}

/** An ISO time from the payload, as GitHub writes it; anything else is no time. */
function timeOf(v: unknown): string | undefined {
  const t = str(v)
  return t && /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(t) && !Number.isNaN(Date.parse(t)) ? t : undefined
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined
}

function issueNumber(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined
}

/** The payload's action in a skip reason: quoted, on one line, short. */
function shown(action: string | undefined): string {
  return action === undefined ? '(with no action)' : JSON.stringify(clip(oneLine(action), 60))
}
