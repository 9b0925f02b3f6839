// What the fake GitHub does for each operation it serves, keyed by `METHOD /template` as in the
// OpenAPI subset. Requests reach these only after they passed the description's checks and named
// the fake's own repository.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import {
  commentJson,
  issueJson,
  labelEventJson,
  labelJson,
  permissionJson,
  pullJson,
  repoJson,
  type IssueRecord,
  type PullRecord,
  type Roots
} from './github-objects.js'
import { DEFAULT_LABEL_COLOR, fakeSha, now, type GitHubState } from './fake-github-state.js'

const exec = promisify(execFile)

interface RouteRequest {
  params: Record<string, string>
  query: Record<string, string>
  // The body already conforms to the operation's schema, so routes read it without re-checking.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any
  url: URL
}

export interface Reply {
  status: number
  body?: unknown
  headers?: Record<string, string>
}

export type Route = (req: RouteRequest) => Reply | Promise<Reply>

export interface RouteOptions {
  /** False answers a draft pull request like a plan without drafts does (422). */
  draftPullRequests: boolean
  /** A bare git repository: pull request heads must exist there and shas come from it. */
  originDir?: string
}

const DOCS = 'https://docs.github.com/rest'

export function errorReply(status: number, message: string, errors?: unknown[]): Reply {
  return {
    status,
    body: {
      message,
      ...(errors ? { errors } : {}),
      documentation_url: DOCS,
      status: String(status)
    }
  }
}

export const notFound = (): Reply => errorReply(404, 'Not Found')

const validationFailed = (...errors: unknown[]): Reply =>
  errorReply(422, 'Validation Failed', errors)

/** One page of a list, with the `Link` header GitHub sends when there are more. */
function page<T>(items: T[], req: RouteRequest, toJson: (item: T) => unknown): Reply {
  const perPage = Math.min(Math.max(Number(req.query.per_page ?? 30), 1), 100)
  const pageNo = Math.max(Number(req.query.page ?? 1), 1)
  const last = Math.max(Math.ceil(items.length / perPage), 1)
  const slice = items.slice((pageNo - 1) * perPage, pageNo * perPage)
  const links: string[] = []
  const link = (n: number, rel: string): void => {
    const u = new URL(req.url)
    u.searchParams.set('per_page', String(perPage))
    u.searchParams.set('page', String(n))
    links.push(`<${u.toString()}>; rel="${rel}"`)
  }
  if (pageNo < last) {
    link(pageNo + 1, 'next')
    link(last, 'last')
  }
  if (pageNo > 1) {
    link(1, 'first')
    link(pageNo - 1, 'prev')
  }
  return {
    status: 200,
    body: slice.map(toJson),
    headers: links.length ? { link: links.join(', ') } : undefined
  }
}

/** Label names from any of the body forms the label operations accept. */
function labelNames(body: unknown): string[] {
  const list = Array.isArray(body) ? body : ((body as { labels?: unknown[] })?.labels ?? [])
  return list.map((l) => (typeof l === 'string' ? l : (l as { name: string }).name))
}

export function routes(
  state: GitHubState,
  roots: Roots,
  opts: RouteOptions
): Record<string, Route> {
  const repo = state.repoRecord
  const labelsOf = (i: IssueRecord) => state.issueLabels(i).map((l) => labelJson(roots, repo, l))
  const issueOut = (i: IssueRecord) =>
    issueJson(roots, repo, i, state.issueLabels(i), state.commentsOf(i.number).length)
  const pullOut = (i: IssueRecord & { pull: PullRecord }, full: boolean) =>
    pullJson(roots, repo, state.headRepoRecord(i.pull.headRepo), i, state.issueLabels(i), full)
  const issueParam = (req: RouteRequest) => state.findIssue(Number(req.params.issue_number))
  const pullParam = (req: RouteRequest) => {
    const i = state.findIssue(Number(req.params.pull_number))
    return i?.pull ? (i as IssueRecord & { pull: PullRecord }) : undefined
  }

  async function shaOf(branch: string): Promise<string | undefined> {
    if (!opts.originDir) return fakeSha(`${state.fullName}:${branch}`)
    try {
      const { stdout } = await exec('git', [
        '--git-dir',
        opts.originDir,
        'rev-parse',
        '--verify',
        '--quiet',
        `refs/heads/${branch}^{commit}`
      ])
      return stdout.trim()
    } catch {
      return undefined
    }
  }

  async function createPull(req: RouteRequest): Promise<Reply> {
    const b = req.body as {
      title?: string
      head: string
      head_repo?: string
      base: string
      body?: string
      draft?: boolean
      maintainer_can_modify?: boolean
    }
    const [headOwner, headBranch] = b.head.includes(':')
      ? [b.head.slice(0, b.head.indexOf(':')), b.head.slice(b.head.indexOf(':') + 1)]
      : [state.owner, b.head]
    const headRepo =
      b.head_repo ??
      (headOwner.toLowerCase() === state.owner.toLowerCase()
        ? state.fullName
        : `${headOwner}/${state.repo}`)
    if (b.title === undefined) {
      return validationFailed({ resource: 'PullRequest', field: 'title', code: 'missing_field' })
    }
    if (b.draft && !opts.draftPullRequests) {
      return validationFailed({
        resource: 'PullRequest',
        code: 'custom',
        message: 'Draft pull requests are not supported in this repository.'
      })
    }
    const baseSha = await shaOf(b.base)
    if (!baseSha)
      return validationFailed({ resource: 'PullRequest', field: 'base', code: 'invalid' })
    const headSha =
      headRepo === state.fullName ? await shaOf(headBranch) : fakeSha(`${headRepo}:${headBranch}`)
    if (!headSha)
      return validationFailed({ resource: 'PullRequest', field: 'head', code: 'invalid' })
    if (headSha === baseSha) {
      return validationFailed({
        resource: 'PullRequest',
        code: 'custom',
        message: `No commits between ${b.base} and ${headBranch}`
      })
    }
    const duplicate = state
      .pullRecords()
      .some(
        (i) =>
          i.state === 'open' &&
          i.pull.headRepo === headRepo &&
          i.pull.head === headBranch &&
          i.pull.base === b.base
      )
    if (duplicate) {
      return validationFailed({
        resource: 'PullRequest',
        code: 'custom',
        message: `A pull request already exists for ${headOwner}:${headBranch}.`
      })
    }
    const number = state.addPull({
      title: b.title,
      body: b.body ?? null,
      author: state.tokenUser.login,
      head: headBranch,
      headRepo,
      headSha,
      base: b.base,
      draft: b.draft ?? false
    })
    const created = pullParam({ ...req, params: { pull_number: String(number) } })!
    created.pull.baseSha = baseSha
    created.pull.maintainerCanModify = b.maintainer_can_modify ?? false
    return { status: 201, body: pullOut(created, true) }
  }

  return {
    'GET /repos/{owner}/{repo}': () => ({
      status: 200,
      body: repoJson(roots, repo, state.openIssueCount())
    }),

    'GET /repos/{owner}/{repo}/actions/permissions': () => {
      const a = state.actionsSettings
      const body = a.enabled
        ? {
            enabled: true,
            allowed_actions: a.allowedActions,
            ...(a.allowedActions === 'selected'
              ? {
                  selected_actions_url: `${roots.api}/repos/${state.fullName}/actions/permissions/selected-actions`
                }
              : {}),
            sha_pinning_required: a.shaPinningRequired
          }
        : { enabled: false }
      return { status: 200, body }
    },

    'GET /repos/{owner}/{repo}/actions/permissions/workflow': () => ({
      status: 200,
      body: {
        default_workflow_permissions: state.actionsSettings.defaultWorkflowPermissions,
        can_approve_pull_request_reviews: state.actionsSettings.canApprovePullRequestReviews
      }
    }),

    'GET /repos/{owner}/{repo}/collaborators/{username}/permission': (req) => {
      const username = req.params.username ?? ''
      const role = state.roleOf(username)
      if (!role) return notFound()
      return { status: 200, body: permissionJson(roots, state.user(username), role) }
    },

    'GET /repos/{owner}/{repo}/issues': (req) => {
      // Open issues by default; `labels` is a comma-separated list the issue must carry all of,
      // matched as GitHub matches label names, in any case.
      const wanted = (req.query.labels ?? '')
        .split(',')
        .map((l) => l.trim().toLowerCase())
        .filter((l) => l !== '')
      const which = req.query.state ?? 'open'
      const list = state
        .issueRecords()
        .filter((i) => which === 'all' || i.state === which)
        .filter((i) => wanted.every((l) => i.labels.includes(l)))
      return page(list, req, issueOut)
    },

    'GET /repos/{owner}/{repo}/issues/{issue_number}': (req) => {
      const i = issueParam(req)
      return i ? { status: 200, body: issueOut(i) } : notFound()
    },

    'GET /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by': (req) => {
      const i = issueParam(req)
      return i ? page(state.dependenciesOf(i.number, 'blocked_by'), req, issueOut) : notFound()
    },

    'GET /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocking': (req) => {
      const i = issueParam(req)
      return i ? page(state.dependenciesOf(i.number, 'blocking'), req, issueOut) : notFound()
    },

    'GET /repos/{owner}/{repo}/issues/{issue_number}/labels': (req) => {
      const i = issueParam(req)
      return i ? page(state.issueLabels(i), req, (l) => labelJson(roots, repo, l)) : notFound()
    },

    'POST /repos/{owner}/{repo}/issues/{issue_number}/labels': (req) => {
      const i = issueParam(req)
      if (!i) return notFound()
      state.addIssueLabels(i.number, labelNames(req.body))
      return { status: 200, body: labelsOf(i) }
    },

    'PUT /repos/{owner}/{repo}/issues/{issue_number}/labels': (req) => {
      const i = issueParam(req)
      if (!i) return notFound()
      state.setIssueLabels(i.number, labelNames(req.body))
      return { status: 200, body: labelsOf(i) }
    },

    'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}': (req) => {
      const i = issueParam(req)
      if (!i) return notFound()
      if (!state.removeIssueLabel(i.number, req.params.name ?? '')) {
        return errorReply(404, 'Label does not exist')
      }
      return { status: 200, body: labelsOf(i) }
    },

    'GET /repos/{owner}/{repo}/issues/{issue_number}/comments': (req) => {
      const i = issueParam(req)
      if (!i) return notFound()
      const since = req.query.since
      const list = state.commentsOf(i.number).filter((c) => !since || c.updatedAt >= since)
      return page(list, req, (c) => commentJson(roots, repo, c))
    },

    'GET /repos/{owner}/{repo}/issues/{issue_number}/events': (req) => {
      const i = issueParam(req)
      if (!i) return notFound()
      return page(i.events, req, (e) => labelEventJson(roots, repo, e))
    },

    'POST /repos/{owner}/{repo}/issues/{issue_number}/comments': (req) => {
      const i = issueParam(req)
      if (!i) return notFound()
      const id = state.addComment(i.number, req.body.body)
      return { status: 201, body: commentJson(roots, repo, state.findComment(id)!) }
    },

    'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}': (req) => {
      const c = state.findComment(Number(req.params.comment_id))
      if (!c) return notFound()
      c.body = req.body.body
      c.updatedAt = now()
      return { status: 200, body: commentJson(roots, repo, c) }
    },

    'GET /repos/{owner}/{repo}/labels': (req) =>
      page(state.repoLabels(), req, (l) => labelJson(roots, repo, l)),

    'POST /repos/{owner}/{repo}/labels': (req) => {
      const b = req.body as { name: string; color?: string; description?: string }
      if (state.findLabel(b.name)) {
        return validationFailed({ resource: 'Label', code: 'already_exists', field: 'name' })
      }
      if (b.color !== undefined && !/^[0-9a-fA-F]{6}$/.test(b.color)) {
        return validationFailed({ resource: 'Label', code: 'invalid', field: 'color' })
      }
      const label = state.addLabel(b.name, b.color ?? DEFAULT_LABEL_COLOR, b.description ?? null)
      return { status: 201, body: labelJson(roots, repo, label) }
    },

    'GET /repos/{owner}/{repo}/labels/{name}': (req) => {
      const label = state.findLabel(req.params.name ?? '')
      return label ? { status: 200, body: labelJson(roots, repo, label) } : notFound()
    },

    'GET /repos/{owner}/{repo}/pulls': (req) => {
      const want = req.query.state ?? 'open'
      const head = req.query.head
      const list = state
        .pullRecords()
        .filter((i) => want === 'all' || i.state === want)
        .filter((i) => !req.query.base || i.pull.base === req.query.base)
        .filter((i) => {
          if (!head) return true
          const headOwner = (i.pull.headRepo.split('/')[0] ?? '').toLowerCase()
          if (!head.includes(':')) return headOwner === head.toLowerCase()
          const [owner, branch] = [
            head.slice(0, head.indexOf(':')),
            head.slice(head.indexOf(':') + 1)
          ]
          return headOwner === owner.toLowerCase() && i.pull.head === branch
        })
        .sort((a, b) => (req.query.direction === 'asc' ? a.number - b.number : b.number - a.number))
      return page(list, req, (i) => pullOut(i, false))
    },

    'POST /repos/{owner}/{repo}/pulls': createPull,

    'GET /repos/{owner}/{repo}/pulls/{pull_number}': (req) => {
      const i = pullParam(req)
      return i ? { status: 200, body: pullOut(i, true) } : notFound()
    },

    'PATCH /repos/{owner}/{repo}/pulls/{pull_number}': (req) => {
      const i = pullParam(req)
      if (!i) return notFound()
      const b = req.body as {
        title?: string
        body?: string
        state?: 'open' | 'closed'
        base?: string
        maintainer_can_modify?: boolean
      }
      if (b.title !== undefined) i.title = b.title
      if (b.body !== undefined) i.body = b.body
      if (b.base !== undefined) i.pull.base = b.base
      if (b.maintainer_can_modify !== undefined)
        i.pull.maintainerCanModify = b.maintainer_can_modify
      if (b.state !== undefined && b.state !== i.state) {
        i.state = b.state
        i.closedAt = b.state === 'closed' ? now() : null
      }
      i.updatedAt = now()
      return { status: 200, body: pullOut(i, true) }
    },

    'POST /repos/{owner}/{repo}/dispatches': (req) => {
      state.recordDispatch(req.body.event_type, req.body.client_payload ?? {})
      return { status: 204 }
    }
  }
}
