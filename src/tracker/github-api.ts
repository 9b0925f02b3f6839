// The GitHub API client of the tracker: issues whose states are labels, the permission of whoever
// triggered a stage, the issue's draft pull request, the living status comment, and the
// repository_dispatch that starts the next stage. Each method spends as few requests as it can.
import { sameState } from '../config/lookup.js'
import { UserError } from '../errors.js'
import type { Endpoints } from '@octokit/types'
import { createGitHubClient, type GitHubClientOptions, type Octokit } from './github-client.js'
import { GitHubCommitSigner } from './github-commits.js'
import { GitHubRefs } from './github-refs.js'
import { apiMessage, explainFailure, isHttpFailure, RedirectedError } from './github-errors.js'
import { allPages, boundedPages } from './github-pages.js'
import { labelsAfterMove, stateFromLabels, stateOfLabel } from './label-states.js'
import type { Blocker, Issue } from '../pipeline/ports.js'
import { blockerNumbers } from '../pipeline/decision/blocker-phrases.js'

// How many of an issue's newest pages of events are searched for who added a state label.
const LABEL_EVENT_PAGES = 3

// What an issue's read and the issue listing both answer (their types come from two versions of
// @octokit/types, which differ in fields this file does not read).
type IssueData = Pick<
  Endpoints['GET /repos/{owner}/{repo}/issues/{issue_number}']['response']['data'],
  | 'number'
  | 'repository_url'
  | 'title'
  | 'body'
  | 'labels'
  | 'html_url'
  | 'pull_request'
  | 'state'
  | 'created_at'
  | 'updated_at'
>

export type Permission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none'

const PERMISSIONS: readonly Permission[] = ['admin', 'maintain', 'write', 'triage', 'read', 'none']

export interface GitHubApiOptions extends GitHubClientOptions {
  owner: string
  repo: string
  /**
   * Every state WORKFLOW.md knows; a label that matches one (in any case) is that state. A
   * tracker made before WORKFLOW.md is read is told them by `useStates` before it reads an issue.
   */
  states?: string[]
}

export interface PullInfo {
  number: number
  headRef: string
  /** `owner/name` of the head's repository; null when that fork was deleted. */
  headRepoFullName: string | null
  baseRef: string
  /** The repository's default branch, as the pull request's base repository names it. */
  defaultBranch: string
  draft: boolean
  state: string
  merged: boolean
  /** The GraphQL node id. */
  nodeId: string
}

export interface LivingComment {
  id: number
  url: string
  body: string
}

export interface MarkedComment extends LivingComment {
  marker: string
  author: string
  bot: boolean
}

export interface MoveResult {
  /** True when this call changed the labels. */
  moved: boolean
  /** The issue's state afterwards. */
  current: string | null
}

/** Status comments carry `<!-- marker -->` as their first line; markers are plain words. */
const MARKER = /^[A-Za-z0-9][A-Za-z0-9:._-]*$/
const MARKED = /^<!-- ([A-Za-z0-9][A-Za-z0-9:._-]*) -->$/

const DISPATCH_MAX_KEYS = 10

export interface PullRef {
  number: number
  url: string
  nodeId: string
  created: boolean
}

const READY_MUTATION = `mutation ($id: ID!, $body: String!) {
  updatePullRequest(input: { pullRequestId: $id, body: $body }) { pullRequest { number } }
  markPullRequestReadyForReview(input: { pullRequestId: $id }) { pullRequest { isDraft } }
}`

export class GitHubApi {
  private readonly octokit: Octokit
  private readonly countRequests: () => number
  private readonly owner: string
  private readonly repo: string
  private states: string[] | undefined
  private whoAmI: Promise<{ login: string; databaseId: number }> | undefined

  constructor(opts: GitHubApiOptions) {
    const client = createGitHubClient(opts)
    this.octokit = client.octokit
    this.countRequests = client.requests
    this.owner = opts.owner
    this.repo = opts.repo
    this.states = opts.states
  }

  /** The states of WORKFLOW.md, for a tracker made before it was read. */
  useStates(states: string[]): void {
    this.states = states
  }

  /** HTTP requests sent so far, retries included. */
  get requestCount(): number {
    return this.countRequests()
  }

  /** Has GitHub create (and sign) stage commits, through this client's requests. */
  commitSigner(): GitHubCommitSigner {
    return new GitHubCommitSigner(this.octokit, this.where)
  }

  /** Whether a workflow run has ended: completed, or unknown to GitHub (deleted). */
  async workflowRunEnded(runId: string): Promise<boolean> {
    try {
      const { data } = await this.octokit.request(
        'GET /repos/{owner}/{repo}/actions/runs/{run_id}',
        {
          ...this.where,
          run_id: Number(runId)
        }
      )
      return data.status === 'completed'
    } catch (e) {
      if (isHttpFailure(e) && e.status === 404) return true
      throw explainFailure(e, `read workflow run ${runId}`, 'actions: read')
    }
  }

  /** Records kept as refs in the repository, through this client's requests. */
  refs(): GitHubRefs {
    return new GitHubRefs(this.octokit, this.where)
  }

  private get where(): { owner: string; repo: string } {
    return { owner: this.owner, repo: this.repo }
  }

  /** Runs one API call; a failure becomes an error that says what to change. */
  private async call<T>(doing: string, permission: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (e) {
      throw explainFailure(e, doing, permission)
    }
  }

  /** `42` or `#42`. */
  async getIssue(id: string): Promise<Issue> {
    const number = parseIssueNumber(id)
    return this.issueFrom(await this.readIssue(number))
  }

  private readIssue(number: number): Promise<IssueData> {
    const moved = () =>
      new UserError(
        `issue #${number} has moved out of ${this.owner}/${this.repo} (GitHub redirects it, as it does for an issue transferred to another repository); nothing was done: start the stage where the issue is now`
      )
    return this.call(`read issue #${number}`, 'issues: read', async () => {
      let data: IssueData
      try {
        data = (
          await this.octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', {
            ...this.where,
            issue_number: number
          })
        ).data
      } catch (e) {
        if (e instanceof RedirectedError) throw moved()
        if (isHttpFailure(e) && (e.status === 404 || e.status === 410)) {
          throw new UserError(`issue #${number} does not exist in ${this.owner}/${this.repo}`)
        }
        throw e
      }
      // An answer about another issue is never taken for this one, however it came.
      const home = `/repos/${this.owner}/${this.repo}`.toLowerCase()
      if (data.number !== number || !data.repository_url.toLowerCase().endsWith(home)) {
        throw moved()
      }
      return data
    })
  }

  /**
   * The open issues and pull requests carrying `label`, 100 to a request. (GitHub matches
   * label names in any case, as states are matched.)
   */
  async openIssuesLabelled(
    label: string
  ): Promise<Array<Issue | { number: number; problem: string }>> {
    const list = await this.call(`list the issues labelled "${label}"`, 'issues: read', () =>
      allPages(
        this.octokit.paginate.iterator('GET /repos/{owner}/{repo}/issues', {
          ...this.where,
          state: 'open',
          labels: label,
          per_page: 100
        }),
        `the issues labelled "${label}"`
      )
    )
    return list.map((data) => this.issueOrProblem(data))
  }

  private issueOrProblem(data: IssueData): Issue | { number: number; problem: string } {
    try {
      return this.issueFrom(data)
    } catch (e) {
      // One issue's labels (two states, say) are that issue's problem, not the listing's.
      if (e instanceof UserError) return { number: data.number, problem: e.message }
      throw e
    }
  }

  /**
   * The issues that block `issue`: GitHub's issue dependencies (one request per 100) and the
   * body's "blocked by #N" phrases (one request for each issue only the body names). An issue
   * is done once closed; one that does not exist (or moved away) blocks nothing.
   */
  async blockersOf(issue: Issue): Promise<Blocker[]> {
    const number = parseIssueNumber(issue.id)
    const linked = await this.dependencies(number, 'blocked_by')
    const out: Blocker[] = linked.map((d) => ({ identifier: `#${d.number}`, done: d.closed }))
    for (const n of blockerNumbers(issue.description)) {
      if (n === number || linked.some((d) => d.number === n)) continue
      try {
        const data = await this.readIssue(n)
        out.push({ identifier: `#${n}`, done: data.state === 'closed' })
      } catch (e) {
        if (!(e instanceof UserError)) throw e
      }
    }
    return out
  }

  /** The issues GitHub's issue dependencies say `issue` blocks (or is blocked by). */
  async dependencies(
    issue: number,
    way: 'blocked_by' | 'blocking'
  ): Promise<Array<{ number: number; closed: boolean }>> {
    const route = `GET /repos/{owner}/{repo}/issues/{issue_number}/dependencies/${way}` as const
    const list = await this.call(
      `list the issues ${way.replace('_', ' ')} #${issue}`,
      'issues: read',
      async () => {
        try {
          return await allPages(
            this.octokit.paginate.iterator(route, {
              ...this.where,
              issue_number: issue,
              per_page: 100
            }),
            `the issues ${way.replace('_', ' ')} #${issue}`
          )
        } catch (e) {
          // A server without issue dependencies (an older GitHub Enterprise Server) has none.
          if (isHttpFailure(e) && e.status === 404) return []
          throw e
        }
      }
    )
    const home = `/repos/${this.owner}/${this.repo}`.toLowerCase()
    return list
      .filter((d) => d.repository_url.toLowerCase().endsWith(home))
      .map((d) => ({ number: d.number, closed: d.state === 'closed' }))
  }

  /** Every open issue and pull request, 100 to a request. */
  async openIssues(): Promise<Array<Issue | { number: number; problem: string }>> {
    const list = await this.call('list the open issues', 'issues: read', () =>
      allPages(
        this.octokit.paginate.iterator('GET /repos/{owner}/{repo}/issues', {
          ...this.where,
          state: 'open',
          per_page: 100
        }),
        'the open issues'
      )
    )
    return list.map((data) => this.issueOrProblem(data))
  }

  /**
   * Who last added `label` to the issue (its newest `labeled` event), or took it off (`unlabeled`),
   * or null when none of its newest events says so. A label proves nothing by itself: triage
   * users and issue forms add labels too. GitHub lists events oldest first, so the newest pages
   * are read, at most LABEL_EVENT_PAGES of them after the first: the cost stays bounded on a
   * long-lived issue.
   */
  async labelledBy(
    issue: number,
    label: string,
    event: 'labeled' | 'unlabeled' = 'labeled'
  ): Promise<{ login: string; type: string } | null> {
    const want = label.toLowerCase()
    return this.lastEventBy(issue, (e) => {
      const named = 'label' in e ? (e.label as { name?: string } | undefined)?.name : undefined
      return e.event === event && named?.toLowerCase() === want
    })
  }

  /** Who last reopened the issue or pull request, if its events say. */
  reopenedBy(issue: number): Promise<{ login: string; type: string } | null> {
    return this.lastEventBy(issue, (e) => e.event === 'reopened')
  }

  private async lastEventBy(
    issue: number,
    match: (e: { event: string }) => boolean
  ): Promise<{ login: string; type: string } | null> {
    const read = (page: number) =>
      this.call(`read the events of #${issue}`, 'issues: read', () =>
        this.octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}/events', {
          ...this.where,
          issue_number: issue,
          per_page: 100,
          page
        })
      )
    const first = await read(1)
    const last = Number(/[?&]page=(\d+)>; rel="last"/.exec(first.headers.link ?? '')?.[1] ?? 1)
    for (let page = last, n = 0; page >= 1 && n < LABEL_EVENT_PAGES; page--, n++) {
      const events = page === 1 ? first.data : (await read(page)).data
      for (const e of [...events].reverse()) {
        if (match(e) && e.actor) return { login: e.actor.login, type: e.actor.type ?? 'User' }
      }
    }
    return null
  }

  private issueFrom(data: IssueData): Issue {
    if (!this.states) throw new Error('the tracker reads an issue before it knows the states')
    const labels = data.labels.map((l) => (typeof l === 'string' ? l : (l.name ?? '')))
    return {
      id: String(data.number),
      number: data.number,
      identifier: `#${data.number}`,
      title: data.title,
      description: data.body ?? '',
      state: stateFromLabels(labels, this.states, `#${data.number}`),
      labels,
      url: data.html_url,
      isPullRequest: data.pull_request !== undefined,
      closed: data.state === 'closed',
      createdAt: data.created_at,
      updatedAt: data.updated_at
    }
  }

  /** The user's effective role on the repository; `none` for a non-collaborator. */
  permissionOf(login: string): Promise<Permission> {
    return this.call(`read the permission of ${login}`, 'metadata: read', async () => {
      try {
        const { data } = await this.octokit.request(
          'GET /repos/{owner}/{repo}/collaborators/{username}/permission',
          {
            ...this.where,
            username: login
          }
        )
        // role_name tells maintain and triage apart; custom roles fall back to the base level.
        const role = PERMISSIONS.find((p) => p === data.role_name)
        return role ?? PERMISSIONS.find((p) => p === data.permission) ?? 'none'
      } catch (e) {
        if (isHttpFailure(e) && e.status === 404) return 'none'
        throw e
      }
    })
  }

  async getRepo(): Promise<{ defaultBranch: string; fork: boolean }> {
    const { data } = await this.call('read the repository', 'contents: read', () =>
      this.octokit.request('GET /repos/{owner}/{repo}', this.where)
    )
    return { defaultBranch: data.default_branch, fork: data.fork }
  }

  /** The commit the branch points at (one request). */
  async branchHead(branch: string): Promise<string> {
    const { data } = await this.call(`read the head of ${branch}`, 'contents: read', () =>
      this.octokit.request('GET /repos/{owner}/{repo}/git/matching-refs/{ref}', {
        ...this.where,
        ref: `heads/${branch}`
      })
    )
    const head = data.find((r) => r.ref === `refs/heads/${branch}`)
    if (!head) throw new UserError(`branch ${branch} does not exist in ${this.owner}/${this.repo}`)
    return head.object.sha
  }

  async getPull(number: number): Promise<PullInfo> {
    const data = await this.call(
      `read pull request #${number}`,
      'pull-requests: read',
      async () => {
        try {
          return (
            await this.octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', {
              ...this.where,
              pull_number: number
            })
          ).data
        } catch (e) {
          if (isHttpFailure(e) && e.status === 404) {
            throw new UserError(
              `pull request #${number} does not exist in ${this.owner}/${this.repo}`
            )
          }
          throw e
        }
      }
    )
    return {
      number: data.number,
      headRef: data.head.ref,
      headRepoFullName: data.head.repo?.full_name ?? null,
      baseRef: data.base.ref,
      defaultBranch: data.base.repo.default_branch,
      draft: data.draft ?? false,
      state: data.state,
      merged: data.merged,
      nodeId: data.node_id
    }
  }

  /**
   * The open pull request from `head` into `base`, created as a draft when there is none,
   * otherwise given the new body (left alone when the body is already that). With
   * `branchIsNew` (this run just pushed the branch, so no pull request can be open for it yet)
   * it creates without listing first; a concurrent run's pull request is still found and updated.
   */
  async upsertDraftPr(o: {
    head: string
    base: string
    title: string
    body: string
    branchIsNew?: boolean
  }): Promise<PullRef> {
    if (!o.branchIsNew) {
      const existing = await this.findOpenPull(o.head, o.base)
      if (existing) return this.updatePullBody(existing, o.body)
    }
    try {
      return await this.createPull(o, true)
    } catch (e) {
      if (!isHttpFailure(e) || e.status !== 422) throw explainCreate(e, o.head)
      const message = apiMessage(e)
      if (/draft pull requests are not supported/i.test(message)) {
        return this.createPull(o, false).catch((e2: unknown) => {
          throw explainCreate(e2, o.head)
        })
      }
      // Another run created it between our list and our create.
      if (/already exists/i.test(message)) {
        const raced = await this.findOpenPull(o.head, o.base)
        if (raced) return this.updatePullBody(raced, o.body)
      }
      throw explainCreate(e, o.head)
    }
  }

  private async findOpenPull(
    head: string,
    base: string
  ): Promise<(PullRef & { body: string | null }) | undefined> {
    const { data } = await this.call(`list pull requests from ${head}`, 'pull-requests: read', () =>
      this.octokit.request('GET /repos/{owner}/{repo}/pulls', {
        ...this.where,
        state: 'open',
        head: `${this.owner}:${head}`,
        base
      })
    )
    const pr = data.find((p) => p.head.ref === head && p.base.ref === base)
    return pr
      ? { number: pr.number, url: pr.html_url, nodeId: pr.node_id, body: pr.body, created: false }
      : undefined
  }

  private async createPull(
    o: { head: string; base: string; title: string; body: string },
    draft: boolean
  ): Promise<PullRef> {
    // Safe to send again: a second create is refused as "already exists", handled above.
    const { data } = await this.octokit.request('POST /repos/{owner}/{repo}/pulls', {
      request: { idempotent: true },
      ...this.where,
      head: o.head,
      base: o.base,
      title: o.title,
      body: o.body,
      ...(draft ? { draft: true } : {})
    })
    return { number: data.number, url: data.html_url, nodeId: data.node_id, created: true }
  }

  private async updatePullBody(
    pr: PullRef & { body: string | null },
    body: string
  ): Promise<PullRef> {
    if (pr.body !== body) {
      await this.call(`update pull request #${pr.number}`, 'pull-requests: write', () =>
        this.octokit.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', {
          ...this.where,
          pull_number: pr.number,
          body
        })
      )
    }
    return { number: pr.number, url: pr.url, nodeId: pr.nodeId, created: false }
  }

  /**
   * Gives the pull request `body` and takes it out of draft, in one GraphQL request (REST
   * cannot change `draft`). A pull request that is no longer a draft is left as it is.
   */
  async readyPull(nodeId: string, body: string): Promise<void> {
    await this.call('mark the pull request ready for review', 'pull-requests: write', () =>
      this.octokit.graphql(READY_MUTATION, {
        id: nodeId,
        body,
        // Both fields set a value, so sending them again changes nothing.
        request: { idempotent: true }
      })
    )
  }

  /**
   * Moves an issue from one state label to another in one write: its labels become every
   * non-state label plus `to` (GitHub creates a label that does not exist yet). The labels are
   * re-read first, so a label added meanwhile is kept and a move someone else made is not
   * undone: when the issue is no longer in `from` (and not already in `to`), nothing changes;
   * when someone added another state label beside `from`, that is their move: only `from` is
   * taken off. `from` null means: move whatever state the issue is in.
   */
  async moveState(
    issue: number,
    from: string | null,
    to: string,
    allStates: string[]
  ): Promise<MoveResult> {
    const labels = await this.issueLabels(issue)
    const present = labels.filter((l) => stateOfLabel(l, allStates) !== undefined)
    const only = present.length === 1 ? present[0] : undefined
    if (only !== undefined && sameState(only, to)) return { moved: false, current: to }
    if (from !== null && !present.some((l) => sameState(l, from))) {
      const current = only === undefined ? null : (stateOfLabel(only, allStates) ?? null)
      return { moved: false, current }
    }
    const theirs =
      from === null ? [] : present.filter((l) => !sameState(l, from) && !sameState(l, to))
    const next =
      theirs.length > 0 && from !== null
        ? labels.filter((l) => !sameState(l, from))
        : labelsAfterMove(labels, allStates, to)
    await this.call(`set the labels of #${issue}`, 'issues: write', () =>
      this.octokit.request('PUT /repos/{owner}/{repo}/issues/{issue_number}/labels', {
        ...this.where,
        issue_number: issue,
        labels: next
      })
    )
    if (theirs.length === 0) return { moved: true, current: to }
    const [one] = theirs
    return {
      moved: true,
      current: theirs.length === 1 && one ? (stateOfLabel(one, allStates) ?? null) : null
    }
  }

  /** The labels on an issue, all of them (an issue rarely has more than one page). */
  private async issueLabels(issue: number): Promise<string[]> {
    const labels = await this.call(`read the labels of #${issue}`, 'issues: read', () =>
      allPages(
        this.octokit.paginate.iterator('GET /repos/{owner}/{repo}/issues/{issue_number}/labels', {
          ...this.where,
          issue_number: issue,
          per_page: 100
        }),
        `the labels of #${issue}`
      )
    )
    return labels.map((l) => l.name)
  }

  /** Adds labels; returns every label the issue has afterwards. */
  async addLabels(issue: number, labels: string[]): Promise<string[]> {
    const { data } = await this.call(`add labels to #${issue}`, 'issues: write', () =>
      this.octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', {
        // Adding a label twice is the same as once.
        request: { idempotent: true },
        ...this.where,
        issue_number: issue,
        labels
      })
    )
    return data.map((l) => l.name)
  }

  /** Removes a label; a label the issue does not carry is not an error. */
  async removeLabel(issue: number, name: string): Promise<void> {
    await this.call(`remove a label from #${issue}`, 'issues: write', async () => {
      try {
        await this.octokit.request(
          'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}',
          { ...this.where, issue_number: issue, name }
        )
      } catch (e) {
        if (!isHttpFailure(e) || e.status !== 404) throw e
      }
    })
  }

  async comment(issue: number, body: string): Promise<{ id: number; url: string }> {
    const { data } = await this.call(`comment on #${issue}`, 'issues: write', () =>
      this.octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        ...this.where,
        issue_number: issue,
        body
      })
    )
    // Ids past 2^53 would be parsed as bigint; comment ids are far below that.
    return { id: Number(data.id), url: data.html_url }
  }

  /**
   * The living comment for `marker`: the first comment a bot wrote whose first line is
   * `<!-- marker -->` (anyone can type the marker into a comment of their own, so people's
   * comments never count). Null when there is none yet.
   */
  async findComment(issue: number, marker: string): Promise<LivingComment | null> {
    const head = markerLine(marker)
    return this.call(`read the comments of #${issue}`, 'issues: read', async () => {
      const pages = this.octokit.paginate.iterator(
        'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
        {
          ...this.where,
          issue_number: issue,
          per_page: 100
        }
      )
      for await (const { data } of boundedPages(pages, `the comments of #${issue}`)) {
        const mine = data.find(
          (c) => c.user?.type === 'Bot' && (c.body ?? '').split('\n', 1)[0]?.trim() === head
        )
        if (mine) return { id: mine.id, url: mine.html_url, body: mine.body ?? '' }
      }
      return null
    })
  }

  /**
   * Every comment on the issue whose first line is a `<!-- marker -->` line, with its author:
   * one listing serves the status record and every keyed comment of a job.
   */
  markedComments(issue: number): Promise<MarkedComment[]> {
    return this.call(`read the comments of #${issue}`, 'issues: read', async () => {
      const all = await allPages(
        this.octokit.paginate.iterator('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
          ...this.where,
          issue_number: issue,
          per_page: 100
        }),
        `the comments of #${issue}`
      )
      const out: MarkedComment[] = []
      for (const c of all) {
        const m = MARKED.exec((c.body ?? '').split('\n', 1)[0]?.trim() ?? '')
        if (!m?.[1] || !c.user) continue
        out.push({
          id: c.id,
          url: c.html_url,
          body: c.body ?? '',
          marker: m[1],
          author: c.user.login,
          bot: c.user.type === 'Bot'
        })
      }
      return out
    })
  }

  /** The login this token acts as (an installation token's bot, e.g. `my-app[bot]`). */
  async viewerLogin(): Promise<string> {
    return (await this.viewer()).login
  }

  /** Who the token acts as: an App's bot (`my-app[bot]`), a user, or github-actions[bot]. */
  async viewer(): Promise<{ login: string; databaseId: number }> {
    this.whoAmI ??= this.call('read who the token acts as', 'metadata: read', () =>
      this.octokit.graphql<{ viewer: { login: string; databaseId: number } }>(
        'query { viewer { login databaseId } }',
        // A query changes nothing.
        { request: { idempotent: true } }
      )
    ).then((data) => data.viewer)
    return this.whoAmI
  }

  /**
   * Edits the living comment for `marker` in place, or creates it. Pass what `findComment`
   * returned to save reading the comments again; an unchanged body costs no write.
   */
  async upsertComment(
    issue: number,
    marker: string,
    body: string,
    known?: LivingComment | null
  ): Promise<{ id: number; url: string }> {
    const full = `${markerLine(marker)}\n${body}`
    const found = known === undefined ? await this.findComment(issue, marker) : known
    if (!found) return this.comment(issue, full)
    if (found.body !== full) {
      await this.call(`update comment ${found.id}`, 'issues: write', () =>
        this.octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', {
          ...this.where,
          comment_id: found.id,
          body: full
        })
      )
    }
    return { id: found.id, url: found.url }
  }

  /** Sends a repository_dispatch (unlike a label change, it starts workflows with GITHUB_TOKEN). */
  async dispatch(eventType: string, payload: Record<string, unknown>): Promise<void> {
    if (Object.keys(payload).length > DISPATCH_MAX_KEYS) {
      throw new Error(`a repository_dispatch payload holds at most ${DISPATCH_MAX_KEYS} keys`)
    }
    await this.call(`send the ${eventType} repository_dispatch`, 'contents: write', () =>
      this.octokit.request('POST /repos/{owner}/{repo}/dispatches', {
        // A wake-up sent twice is harmless (the second finds its step already run); one never
        // sent would stop the pipeline.
        request: { idempotent: true },
        ...this.where,
        event_type: eventType,
        client_payload: payload
      })
    )
  }
}

function markerLine(marker: string): string {
  if (!MARKER.test(marker)) {
    throw new Error(`status comment marker ${JSON.stringify(marker)} is not a plain word`)
  }
  return `<!-- ${marker} -->`
}

function explainCreate(e: unknown, head: string): Error {
  return explainFailure(e, `create a pull request for ${head}`, 'pull-requests: write')
}

function parseIssueNumber(id: string): number {
  const m = /^#?([1-9][0-9]{0,9})$/.exec(id.trim())
  if (!m)
    throw new UserError(`${JSON.stringify(id)} is not a GitHub issue number; give it as 42 or #42`)
  return Number(m[1])
}
