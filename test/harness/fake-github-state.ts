// The fake GitHub's repository: collaborators, labels, issues, pull requests and comments, with
// the rules GitHub applies to them (shared issue/PR numbering, case-insensitive labels that are
// created when first applied). Tests set it up and read it back through these methods.
import type {
  CommentRecord,
  IssueRecord,
  LabelRecord,
  PullRecord,
  RepoRecord,
  Role,
  UserRecord
} from './github-objects.js'
import type { RunRecord } from './fake-github-git.js'

export interface RepoOptions {
  /** Repository owner login; default `octo-org`. */
  owner?: string
  /** Repository name; default `demo`. */
  repo?: string
  ownerType?: 'User' | 'Organization'
  defaultBranch?: string
  fork?: boolean
  private?: boolean
  /** The login the API token acts as (authors comments and pull requests); default `github-actions[bot]`. */
  tokenLogin?: string
}

export interface IssueView {
  number: number
  title: string
  body: string | null
  state: 'open' | 'closed'
  labels: string[]
  pullRequest: boolean
  author: string
}

export interface CommentView {
  id: number
  body: string
  author: string
  authorType: UserRecord['type']
}

export interface PullView {
  number: number
  title: string
  body: string | null
  state: 'open' | 'closed'
  draft: boolean
  head: string
  headRepo: string
  base: string
}

/** A `repository_dispatch` the fake received; `toDispatchEvent` in events.ts makes it an event. */
export interface Dispatch {
  eventType: string
  clientPayload: Record<string, unknown>
}

export interface NewIssue {
  title: string
  body?: string | null
  labels?: string[]
  author?: string
  /** Who added `labels` (the issue's `labeled` events); default the author. */
  labeller?: string
  state?: 'open' | 'closed'
}

export interface NewPull extends NewIssue {
  head: string
  base?: string
  draft?: boolean
  /** `owner/name` when the head branch lives in a fork. */
  headRepo?: string
  headSha?: string
}

/** GitHub's default label colour. */
export const DEFAULT_LABEL_COLOR = 'ededed'

const GITHUB_ACTIONS_BOT_ID = 41898282

export const now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')

/** A made-up but stable 40-hex commit id for a ref when no git repository backs the fake. */
export function fakeSha(seed: string): string {
  let h = 2166136261
  let out = ''
  for (let round = 0; out.length < 40; round++) {
    for (const ch of `${round}:${seed}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0
    out += h.toString(16).padStart(8, '0')
  }
  return out.slice(0, 40)
}

/** Settings → Actions → General, as a new repository has them; tests change them directly. */
export interface ActionsSettings {
  enabled: boolean
  allowedActions: 'all' | 'local_only' | 'selected'
  shaPinningRequired: boolean
  defaultWorkflowPermissions: 'read' | 'write'
  /** "Allow GitHub Actions to create and approve pull requests". */
  canApprovePullRequestReviews: boolean
}

export class GitHubState {
  readonly repoRecord: RepoRecord
  readonly tokenUser: UserRecord
  readonly dispatches: Dispatch[] = []
  /** Workflow runs by id, for `GET /actions/runs/{run_id}`; tests add them with `setRun`. */
  readonly runs = new Map<number, RunRecord>()
  readonly actionsSettings: ActionsSettings = {
    enabled: true,
    allowedActions: 'all',
    shaPinningRequired: false,
    defaultWorkflowPermissions: 'read',
    canApprovePullRequestReviews: false
  }
  private nextId = 1000
  private nextNumber = 1
  private readonly users = new Map<string, UserRecord>()
  private readonly collaborators = new Map<string, Role>()
  private readonly labelsByKey = new Map<string, LabelRecord>()
  private readonly issues = new Map<number, IssueRecord>()
  private readonly commentList: CommentRecord[] = []
  /** GitHub's issue dependencies: [blocked, blocker] issue numbers. */
  private readonly dependencies: Array<[number, number]> = []
  /** Issues transferred away, by their old number: the issue as it is now, and where. */
  private readonly transfers = new Map<number, { issue: IssueRecord; repo: RepoRecord }>()

  constructor(opts: RepoOptions = {}) {
    const owner = this.user(opts.owner ?? 'octo-org', opts.ownerType ?? 'Organization')
    this.repoRecord = {
      owner,
      name: opts.repo ?? 'demo',
      id: this.id(),
      private: opts.private ?? false,
      fork: opts.fork ?? false,
      defaultBranch: opts.defaultBranch ?? 'main',
      createdAt: now()
    }
    const tokenLogin = opts.tokenLogin ?? 'github-actions[bot]'
    this.tokenUser = this.user(tokenLogin, tokenLogin.endsWith('[bot]') ? 'Bot' : 'User')
    if (tokenLogin === 'github-actions[bot]') this.tokenUser.id = GITHUB_ACTIONS_BOT_ID
  }

  get owner(): string {
    return this.repoRecord.owner.login
  }

  get repo(): string {
    return this.repoRecord.name
  }

  get fullName(): string {
    return `${this.owner}/${this.repo}`
  }

  private id(): number {
    return ++this.nextId
  }

  /** The user with that login, made on first mention. */
  user(login: string, type?: UserRecord['type']): UserRecord {
    const key = login.toLowerCase()
    let u = this.users.get(key)
    if (!u) {
      u = { login, id: this.id(), type: type ?? (login.endsWith('[bot]') ? 'Bot' : 'User') }
      this.users.set(key, u)
    }
    return u
  }

  // ---- setup -------------------------------------------------------------------------------

  addCollaborator(login: string, role: Role, type?: UserRecord['type']): void {
    this.user(login, type)
    this.collaborators.set(login.toLowerCase(), role)
  }

  addLabel(
    name: string,
    color = DEFAULT_LABEL_COLOR,
    description: string | null = null
  ): LabelRecord {
    const existing = this.findLabel(name)
    if (existing) return existing
    const label = { id: this.id(), name, color, description, default: false }
    this.labelsByKey.set(name.toLowerCase(), label)
    return label
  }

  addIssue(n: NewIssue): number {
    const t = now()
    const issue: IssueRecord = {
      number: this.nextNumber++,
      id: this.id(),
      title: n.title,
      body: n.body ?? null,
      state: n.state ?? 'open',
      labels: [],
      user: this.user(n.author ?? 'octocat'),
      createdAt: t,
      updatedAt: t,
      closedAt: n.state === 'closed' ? t : null,
      events: []
    }
    this.issues.set(issue.number, issue)
    this.setIssueLabels(issue.number, n.labels ?? [], this.user(n.labeller ?? issue.user.login))
    return issue.number
  }

  addPull(n: NewPull): number {
    const number = this.addIssue(n)
    const base = n.base ?? this.repoRecord.defaultBranch
    this.issues.get(number)!.pull = {
      head: n.head,
      headRepo: n.headRepo ?? this.fullName,
      headSha: n.headSha ?? fakeSha(`${n.headRepo ?? this.fullName}:${n.head}`),
      base,
      baseSha: fakeSha(`${this.fullName}:${base}`),
      draft: n.draft ?? false,
      merged: false,
      maintainerCanModify: false
    }
    return number
  }

  addComment(issue: number, body: string, author?: string, type?: UserRecord['type']): number {
    this.mustIssue(issue)
    const t = now()
    const c: CommentRecord = {
      id: this.id(),
      issue,
      body,
      user: author ? this.user(author, type) : this.tokenUser,
      createdAt: t,
      updatedAt: t
    }
    this.commentList.push(c)
    return c.id
  }

  /** A person deletes a comment (anyone with write access may). */
  deleteComment(id: number): void {
    const at = this.commentList.findIndex((c) => c.id === id)
    if (at < 0) throw new Error(`no comment ${id}`)
    this.commentList.splice(at, 1)
  }

  /** A person edits a comment, as GitHub lets anyone with write access do. */
  editComment(id: number, body: string): void {
    const c = this.findComment(id)
    if (!c) throw new Error(`no comment ${id}`)
    c.body = body
    c.updatedAt = now()
  }

  /** GitHub's issue dependencies: `blocker` blocks `blocked`. */
  addDependency(blocked: number, blocker: number): void {
    this.mustIssue(blocked)
    this.mustIssue(blocker)
    this.dependencies.push([blocked, blocker])
  }

  /** The issues `n` is blocked by (`blocked_by`) or blocks (`blocking`). */
  dependenciesOf(n: number, way: 'blocked_by' | 'blocking'): IssueRecord[] {
    return this.dependencies
      .filter(([blocked, blocker]) => (way === 'blocked_by' ? blocked : blocker) === n)
      .map(([blocked, blocker]) => this.mustIssue(way === 'blocked_by' ? blocker : blocked))
  }

  /** A person (`by`, as a login) closes an issue. */
  closeIssue(n: number, by: string): void {
    const i = this.mustIssue(n)
    if (i.state === 'closed') return
    i.events.push({ id: this.id(), event: 'closed', actor: this.user(by), createdAt: now() })
    i.state = 'closed'
    i.closedAt = now()
    i.updatedAt = now()
  }

  /** A person (`by`, as a login) closes a pull request, merged or not, or reopens it. */
  setPullState(n: number, state: 'open' | 'closed', merged = false, by?: string): void {
    const i = this.mustIssue(n)
    if (!i.pull) throw new Error(`#${n} is not a pull request`)
    if (i.state !== state) {
      const actor = by ? this.user(by) : this.tokenUser
      const event = state === 'open' ? 'reopened' : 'closed'
      i.events.push({ id: this.id(), event, actor, createdAt: now() })
    }
    i.state = state
    i.pull.merged = state === 'closed' && merged
    i.closedAt = state === 'closed' ? now() : null
    i.updatedAt = now()
  }

  // ---- reading back ------------------------------------------------------------------------

  issue(n: number): IssueView | undefined {
    const i = this.issues.get(n)
    if (!i) return undefined
    return {
      number: i.number,
      title: i.title,
      body: i.body,
      state: i.state,
      labels: this.labels(n),
      pullRequest: i.pull !== undefined,
      author: i.user.login
    }
  }

  /** The label names on an issue or pull request, as the repository spells them. */
  labels(n: number): string[] {
    return this.issueLabels(this.mustIssue(n)).map((l) => l.name)
  }

  comments(n: number): CommentView[] {
    return this.commentsOf(n).map((c) => ({
      id: c.id,
      body: c.body,
      author: c.user.login,
      authorType: c.user.type
    }))
  }

  pulls(): PullView[] {
    return this.pullRecords().map((i) => ({
      number: i.number,
      title: i.title,
      body: i.body,
      state: i.state,
      draft: i.pull.draft,
      head: i.pull.head,
      headRepo: i.pull.headRepo,
      base: i.pull.base
    }))
  }

  repoLabels(): LabelRecord[] {
    return [...this.labelsByKey.values()]
  }

  /** Adds or changes a workflow run (the run of a stage, as GitHub reports it). */
  setRun(id: number, status: RunRecord['status'], conclusion: string | null = null): void {
    this.runs.set(id, { id, status, conclusion })
  }

  // ---- what the routes use -----------------------------------------------------------------

  recordDispatch(eventType: string, clientPayload: Record<string, unknown>): void {
    this.dispatches.push({ eventType, clientPayload })
  }

  roleOf(login: string): Role | undefined {
    return this.collaborators.get(login.toLowerCase())
  }

  findLabel(name: string): LabelRecord | undefined {
    return this.labelsByKey.get(name.toLowerCase())
  }

  findIssue(n: number): IssueRecord | undefined {
    return this.issues.get(n)
  }

  mustIssue(n: number): IssueRecord {
    const i = this.issues.get(n)
    if (!i) throw new Error(`the fake has no issue #${n}`)
    return i
  }

  issueLabels(i: IssueRecord): LabelRecord[] {
    return i.labels.map((key) => this.labelsByKey.get(key)).filter((l) => l !== undefined)
  }

  /** Applies labels by name; like GitHub, a name that no label has yet creates that label. */
  addIssueLabels(
    n: number,
    names: string[],
    by: UserRecord = this.tokenUser,
    had: readonly string[] = [...this.mustIssue(n).labels]
  ): void {
    const i = this.mustIssue(n)
    for (const name of names) {
      const label = this.addLabel(name)
      const key = label.name.toLowerCase()
      if (i.labels.includes(key)) continue
      i.labels.push(key)
      // Like GitHub, setting labels an issue already had records no new event for them.
      if (!had.includes(key)) {
        i.events.push({
          id: this.id(),
          event: 'labeled',
          label: label.name,
          actor: by,
          createdAt: now()
        })
      }
    }
    i.updatedAt = now()
  }

  setIssueLabels(n: number, names: string[], by: UserRecord = this.tokenUser): void {
    const i = this.mustIssue(n)
    const had = i.labels
    i.labels = []
    this.addIssueLabels(n, names, by, had)
  }

  /** Removes one label (`by` someone); false when the issue does not carry it. */
  removeIssueLabel(n: number, name: string, by: UserRecord = this.tokenUser): boolean {
    const i = this.mustIssue(n)
    const key = name.toLowerCase()
    if (!i.labels.includes(key)) return false
    i.labels = i.labels.filter((k) => k !== key)
    const label = this.labelsByKey.get(key)?.name ?? name
    i.events.push({ id: this.id(), event: 'unlabeled', label, actor: by, createdAt: now() })
    i.updatedAt = now()
    return true
  }

  commentsOf(n: number): CommentRecord[] {
    return this.commentList.filter((c) => c.issue === n)
  }

  findComment(id: number): CommentRecord | undefined {
    return this.commentList.find((c) => c.id === id)
  }

  /** Every issue and pull request, newest first (GitHub's default order for a listing). */
  issueRecords(): IssueRecord[] {
    return [...this.issues.values()].sort((a, b) => b.number - a.number)
  }

  pullRecords(): Array<IssueRecord & { pull: PullRecord }> {
    return [...this.issues.values()].filter(
      (i): i is IssueRecord & { pull: PullRecord } => i.pull !== undefined
    )
  }

  openIssueCount(): number {
    return [...this.issues.values()].filter((i) => i.state === 'open').length
  }

  /**
   * Moves issue `n` to the repository `fullName`, where it is issue `number`: as on GitHub, this
   * repository then answers its old number with a redirect to the issue's new place.
   */
  transferIssue(n: number, fullName: string, number: number): void {
    const issue = this.mustIssue(n)
    this.issues.delete(n)
    this.transfers.set(n, { issue: { ...issue, number }, repo: this.headRepoRecord(fullName) })
  }

  /** Where the issue that had number `n` here was transferred to, if it was. */
  transferOf(n: number): { issue: IssueRecord; repo: RepoRecord } | undefined {
    return this.transfers.get(n)
  }

  /** A transferred issue by its new repository's id and its number there. */
  transferredTo(
    repoId: number,
    number: number
  ): { issue: IssueRecord; repo: RepoRecord } | undefined {
    return [...this.transfers.values()].find(
      (t) => t.repo.id === repoId && t.issue.number === number
    )
  }

  /** The repository record for a pull request's head: this one, or a fork of it. */
  headRepoRecord(fullName: string): RepoRecord {
    if (fullName === this.fullName) return this.repoRecord
    const [owner = '', name = ''] = fullName.split('/')
    const forkOwner = this.user(owner)
    return {
      owner: forkOwner,
      name,
      id: forkOwner.id * 1000 + this.repoRecord.id,
      private: this.repoRecord.private,
      fork: true,
      defaultBranch: this.repoRecord.defaultBranch,
      createdAt: this.repoRecord.createdAt
    }
  }
}
