// Webhook payloads for tests, shaped exactly like GitHub's: a clone of one documented example
// (test/fixtures/events/, from @octokit/webhooks-examples) with the repository, issue, label and
// sender set for the test. Write one to a file and point GITHUB_EVENT_PATH at it.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Dispatch } from './fake-github-state.js'

export type EventName =
  | 'issues.labeled'
  | 'issues.unlabeled'
  | 'issues.closed'
  | 'pull_request.labeled'
  | 'pull_request.reopened'
  | 'pull_request.opened'
  | 'pull_request.closed'
  | 'workflow_dispatch'
  | 'repository_dispatch'
  | 'issue_comment.created'

/** The `GITHUB_EVENT_NAME` of each payload. */
export const EVENT_NAME: Record<EventName, string> = {
  'issues.labeled': 'issues',
  'issues.unlabeled': 'issues',
  'issues.closed': 'issues',
  'pull_request.labeled': 'pull_request',
  'pull_request.reopened': 'pull_request',
  'pull_request.opened': 'pull_request',
  'pull_request.closed': 'pull_request',
  workflow_dispatch: 'workflow_dispatch',
  repository_dispatch: 'repository_dispatch',
  'issue_comment.created': 'issue_comment'
}

export interface EventOptions {
  /** Default `octo-org`, as the fake GitHub's. */
  owner?: string
  /** Default `demo`, as the fake GitHub's. */
  repo?: string
  defaultBranch?: string
  /** The issue or pull request number. */
  issue?: number
  title?: string
  body?: string | null
  /** The label just applied (the `labeled` events) or removed (`unlabeled`). */
  label?: string
  /** The labels the issue or pull request carries; default: just `label`. */
  labels?: string[]
  /** Default `octocat` (a User); for repository_dispatch `github-actions[bot]` (a Bot). */
  sender?: string
  senderType?: 'User' | 'Bot' | 'Organization'
  /** issue_comment: the comment's text, and whether the issue is a pull request. */
  comment?: string
  /** issue_comment: the comment's id (default the example's). */
  commentId?: number
  onPullRequest?: boolean
  /** pull_request closed: whether it was merged (default the example's, not merged). */
  merged?: boolean
  /** pull_request: head and base branches, and `owner/name` when the head is in a fork. */
  head?: string
  base?: string
  headRepo?: string
  draft?: boolean
  /** repository_dispatch: the event type and client payload. */
  eventType?: string
  clientPayload?: Record<string, unknown>
  /** When the issue or pull request changed (`updated_at`): default now, as a new event's. */
  updatedAt?: string
  /** workflow_dispatch: inputs and ref. */
  inputs?: Record<string, string>
  ref?: string
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Payload = Record<string, any>

const FIXTURES = new URL('../fixtures/events/', import.meta.url)

const GITHUB_ACTIONS_BOT = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' as const }

function load(name: EventName): Payload {
  return JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8')) as Payload
}

/** Moves every URL and name of the example's repository to `owner/repo`. */
function rehome(p: Payload, owner: string, repo: string): Payload {
  const from = p.repository.full_name as string
  const text = JSON.stringify(p).split(from).join(`${owner}/${repo}`)
  const out = JSON.parse(text) as Payload
  const fix = (r: Payload | undefined | null): void => {
    if (!r) return
    r.name = repo
    r.full_name = `${owner}/${repo}`
    if (r.owner) r.owner.login = owner
  }
  fix(out.repository)
  fix(out.pull_request?.base?.repo)
  fix(out.pull_request?.head?.repo)
  if (out.organization) out.organization.login = owner
  return out
}

function user(login: string, id: number, type: string): Payload {
  return {
    login,
    id,
    node_id: Buffer.from(`User:${id}`).toString('base64'),
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url: `https://api.github.com/users/${encodeURIComponent(login)}`,
    html_url: `https://github.com/${login}`,
    type,
    site_admin: false
  }
}

function labelObject(owner: string, repo: string, name: string, i: number): Payload {
  return {
    id: 1000 + i,
    node_id: Buffer.from(`Label:${name}`).toString('base64'),
    url: `https://api.github.com/repos/${owner}/${repo}/labels/${encodeURIComponent(name)}`,
    name,
    color: 'ededed',
    default: false,
    description: null
  }
}

function stableId(login: string): number {
  let h = 7
  for (const ch of login) h = (h * 31 + ch.charCodeAt(0)) % 90_000_000
  return 10_000_000 + h
}

/** A webhook payload of that kind, set up for the test. */
export function makeEvent(name: EventName, o: EventOptions = {}): Payload {
  const owner = o.owner ?? 'octo-org'
  const repo = o.repo ?? 'demo'
  const p = rehome(load(name), owner, repo)
  const branch = o.defaultBranch ?? 'main'
  p.repository.default_branch = branch
  if ('master_branch' in p.repository) p.repository.master_branch = branch

  const bot = name === 'repository_dispatch' && o.sender === undefined
  const login = bot ? GITHUB_ACTIONS_BOT.login : (o.sender ?? 'octocat')
  const type = o.senderType ?? (bot || login.endsWith('[bot]') ? 'Bot' : 'User')
  p.sender = user(login, bot ? GITHUB_ACTIONS_BOT.id : stableId(login), type)

  const labelNames = o.labels ?? (o.label !== undefined ? [o.label] : [])
  const labels = labelNames.map((l, i) => labelObject(owner, repo, l, i))
  if (o.label !== undefined && 'label' in p) {
    p.label = labelObject(owner, repo, o.label, labelNames.indexOf(o.label))
  }

  if (p.issue) {
    const n = o.issue ?? p.issue.number
    const kind = o.onPullRequest ? 'pull' : 'issues'
    Object.assign(p.issue, {
      number: n,
      url: `https://api.github.com/repos/${owner}/${repo}/issues/${n}`,
      html_url: `https://github.com/${owner}/${repo}/${kind}/${n}`,
      comments_url: `https://api.github.com/repos/${owner}/${repo}/issues/${n}/comments`,
      title: o.title ?? p.issue.title,
      body: o.body !== undefined ? o.body : p.issue.body,
      labels,
      updated_at: o.updatedAt ?? new Date().toISOString()
    })
    if (o.onPullRequest) {
      p.issue.pull_request = {
        url: `https://api.github.com/repos/${owner}/${repo}/pulls/${n}`,
        html_url: `https://github.com/${owner}/${repo}/pull/${n}`,
        diff_url: `https://github.com/${owner}/${repo}/pull/${n}.diff`,
        patch_url: `https://github.com/${owner}/${repo}/pull/${n}.patch`,
        merged_at: null
      }
    } else {
      delete p.issue.pull_request
    }
  }
  if (p.comment) {
    p.comment.body = o.comment ?? p.comment.body
    p.comment.user = p.sender
    p.comment.issue_url = p.issue?.url
    if (o.commentId !== undefined) p.comment.id = o.commentId
  }

  if (p.pull_request) {
    const n = o.issue ?? p.pull_request.number
    const pr = p.pull_request
    const head = o.head ?? `itervox/${n}`
    const headRepo = o.headRepo ?? `${owner}/${repo}`
    const [headOwner, headName] = headRepo.split('/')
    p.number = n
    Object.assign(pr, {
      updated_at: o.updatedAt ?? new Date().toISOString(),
      number: n,
      url: `https://api.github.com/repos/${owner}/${repo}/pulls/${n}`,
      html_url: `https://github.com/${owner}/${repo}/pull/${n}`,
      issue_url: `https://api.github.com/repos/${owner}/${repo}/issues/${n}`,
      title: o.title ?? pr.title,
      body: o.body !== undefined ? o.body : pr.body,
      draft: o.draft ?? pr.draft,
      labels
    })
    pr.base.ref = o.base ?? branch
    pr.base.label = `${owner}:${pr.base.ref}`
    pr.head.ref = head
    pr.head.label = `${headOwner}:${head}`
    pr.head.repo.full_name = headRepo
    pr.head.repo.name = headName
    pr.head.repo.owner.login = headOwner
    pr.head.repo.fork = headRepo !== `${owner}/${repo}`
    if (o.merged !== undefined) {
      pr.merged = o.merged
      pr.merged_at = o.merged ? pr.updated_at : null
    }
  }

  if (name === 'repository_dispatch') {
    p.action = o.eventType ?? 'itervox-handoff'
    p.client_payload = o.clientPayload ?? {}
    p.branch = branch
  }
  if (name === 'workflow_dispatch') {
    p.inputs = o.inputs ?? {}
    p.ref = o.ref ?? `refs/heads/${branch}`
  }
  return p
}

/** The repository_dispatch event GitHub would deliver for a dispatch the fake recorded. */
export function toDispatchEvent(d: Dispatch, o: EventOptions = {}): Payload {
  return makeEvent('repository_dispatch', {
    ...o,
    eventType: d.eventType,
    clientPayload: d.clientPayload
  })
}

/** Writes the payload as `event.json` in `dir`; returns its path for GITHUB_EVENT_PATH. */
export function writeEvent(dir: string, payload: Payload): string {
  const path = join(dir, 'event.json')
  writeFileSync(path, JSON.stringify(payload, null, 2))
  return path
}
