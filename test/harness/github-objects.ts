// The JSON the fake GitHub answers with, built from its small records. Every field an operation's
// response schema requires is filled with a realistic value (URLs shaped like GitHub's, node ids,
// timestamps), so a client that reads any of them sees what GitHub would send.

export type Role = 'admin' | 'maintain' | 'write' | 'triage' | 'read'

export interface UserRecord {
  login: string
  id: number
  type: 'User' | 'Bot' | 'Organization'
}

export interface LabelRecord {
  id: number
  name: string
  color: string
  description: string | null
  default: boolean
}

export interface CommentRecord {
  id: number
  issue: number
  body: string
  user: UserRecord
  createdAt: string
  updatedAt: string
}

export interface PullRecord {
  head: string
  /** `owner/name` of the repository the head branch lives in. */
  headRepo: string
  headSha: string
  base: string
  baseSha: string
  draft: boolean
  merged: boolean
  maintainerCanModify: boolean
}

export interface IssueRecord {
  number: number
  id: number
  title: string
  body: string | null
  state: 'open' | 'closed'
  /** Lower-cased names of the repository labels on the issue, in the order applied. */
  labels: string[]
  user: UserRecord
  createdAt: string
  updatedAt: string
  closedAt: string | null
  pull?: PullRecord
  /** Who added or removed which label, oldest first (the issue's `labeled` and `unlabeled` events). */
  events: LabelEventRecord[]
}

export interface LabelEventRecord {
  id: number
  event: 'labeled' | 'unlabeled' | 'closed' | 'reopened'
  /** For `labeled` and `unlabeled`. */
  label?: string
  actor: UserRecord
  createdAt: string
}

export interface RepoRecord {
  owner: UserRecord
  name: string
  id: number
  private: boolean
  fork: boolean
  defaultBranch: string
  createdAt: string
}

/** Where the objects point: the fake's own API root and GitHub's web root. */
export interface Roots {
  api: string
  html: string
}

const nodeId = (kind: string, id: number): string =>
  `${kind}_${Buffer.from(`${kind}:${id}`).toString('base64url')}`

/** A pull request's GraphQL node id, as its REST `node_id` gives it. */
export const pullNodeId = (id: number): string => nodeId('PR', id)

/** Role → the coarse `permission` GitHub reports beside `role_name`. */
const PERMISSION_OF_ROLE: Record<Role, 'admin' | 'write' | 'read'> = {
  admin: 'admin',
  maintain: 'write',
  write: 'write',
  triage: 'read',
  read: 'read'
}

function userJson(roots: Roots, u: UserRecord): Record<string, unknown> {
  const api = `${roots.api}/users/${encodeURIComponent(u.login)}`
  return {
    login: u.login,
    id: u.id,
    node_id: nodeId(u.type === 'Bot' ? 'BOT' : 'U', u.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${u.id}?v=4`,
    gravatar_id: '',
    url: api,
    html_url: `${roots.html}/${u.type === 'Bot' ? 'apps/' + u.login.replace(/\[bot\]$/, '') : u.login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: u.type,
    user_view_type: 'public',
    site_admin: false
  }
}

export function repoJson(roots: Roots, r: RepoRecord, openIssues: number): Record<string, unknown> {
  const full = `${r.owner.login}/${r.name}`
  const api = `${roots.api}/repos/${full}`
  return {
    id: r.id,
    node_id: nodeId('R', r.id),
    name: r.name,
    full_name: full,
    private: r.private,
    owner: userJson(roots, r.owner),
    html_url: `${roots.html}/${full}`,
    description: null,
    fork: r.fork,
    url: api,
    archive_url: `${api}/{archive_format}{/ref}`,
    assignees_url: `${api}/assignees{/user}`,
    blobs_url: `${api}/git/blobs{/sha}`,
    branches_url: `${api}/branches{/branch}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    comments_url: `${api}/comments{/number}`,
    commits_url: `${api}/commits{/sha}`,
    compare_url: `${api}/compare/{base}...{head}`,
    contents_url: `${api}/contents/{+path}`,
    contributors_url: `${api}/contributors`,
    deployments_url: `${api}/deployments`,
    downloads_url: `${api}/downloads`,
    events_url: `${api}/events`,
    forks_url: `${api}/forks`,
    git_commits_url: `${api}/git/commits{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    git_url: `git://github.com/${full}.git`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    issue_events_url: `${api}/issues/events{/number}`,
    issues_url: `${api}/issues{/number}`,
    keys_url: `${api}/keys{/key_id}`,
    labels_url: `${api}/labels{/name}`,
    languages_url: `${api}/languages`,
    merges_url: `${api}/merges`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    pulls_url: `${api}/pulls{/number}`,
    releases_url: `${api}/releases{/id}`,
    ssh_url: `git@github.com:${full}.git`,
    stargazers_url: `${api}/stargazers`,
    statuses_url: `${api}/statuses/{sha}`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    tags_url: `${api}/tags`,
    teams_url: `${api}/teams`,
    trees_url: `${api}/git/trees{/sha}`,
    hooks_url: `${api}/hooks`,
    clone_url: `${roots.html}/${full}.git`,
    mirror_url: null,
    svn_url: `${roots.html}/${full}`,
    homepage: null,
    language: null,
    forks_count: 0,
    forks: 0,
    stargazers_count: 0,
    watchers_count: 0,
    watchers: 0,
    size: 0,
    default_branch: r.defaultBranch,
    open_issues_count: openIssues,
    open_issues: openIssues,
    is_template: false,
    topics: [],
    has_issues: true,
    has_projects: true,
    has_wiki: true,
    has_pages: false,
    has_downloads: true,
    has_discussions: false,
    archived: false,
    disabled: false,
    visibility: r.private ? 'private' : 'public',
    license: null,
    allow_forking: true,
    web_commit_signoff_required: false,
    pushed_at: r.createdAt,
    created_at: r.createdAt,
    updated_at: r.createdAt,
    network_count: 0,
    subscribers_count: 0
  }
}

export function labelJson(roots: Roots, repo: RepoRecord, l: LabelRecord): Record<string, unknown> {
  return {
    id: l.id,
    node_id: nodeId('LA', l.id),
    url: `${roots.api}/repos/${repo.owner.login}/${repo.name}/labels/${encodeURIComponent(l.name)}`,
    name: l.name,
    description: l.description,
    color: l.color,
    default: l.default
  }
}

export function commentJson(
  roots: Roots,
  repo: RepoRecord,
  c: CommentRecord
): Record<string, unknown> {
  const full = `${repo.owner.login}/${repo.name}`
  return {
    id: c.id,
    node_id: nodeId('IC', c.id),
    url: `${roots.api}/repos/${full}/issues/comments/${c.id}`,
    html_url: `${roots.html}/${full}/issues/${c.issue}#issuecomment-${c.id}`,
    issue_url: `${roots.api}/repos/${full}/issues/${c.issue}`,
    body: c.body,
    user: userJson(roots, c.user),
    author_association: c.user.type === 'Bot' ? 'NONE' : 'MEMBER',
    created_at: c.createdAt,
    updated_at: c.updatedAt
  }
}

export function issueJson(
  roots: Roots,
  repo: RepoRecord,
  i: IssueRecord,
  labels: LabelRecord[],
  comments: number
): Record<string, unknown> {
  const full = `${repo.owner.login}/${repo.name}`
  const api = `${roots.api}/repos/${full}/issues/${i.number}`
  const kind = i.pull ? 'pull' : 'issues'
  const out: Record<string, unknown> = {
    id: i.id,
    node_id: nodeId(i.pull ? 'PR' : 'I', i.id),
    url: api,
    repository_url: `${roots.api}/repos/${full}`,
    labels_url: `${api}/labels{/name}`,
    comments_url: `${api}/comments`,
    events_url: `${api}/events`,
    html_url: `${roots.html}/${full}/${kind}/${i.number}`,
    number: i.number,
    state: i.state,
    title: i.title,
    body: i.body,
    user: userJson(roots, i.user),
    labels: labels.map((l) => labelJson(roots, repo, l)),
    assignee: null,
    assignees: [],
    milestone: null,
    locked: false,
    active_lock_reason: null,
    comments,
    closed_at: i.closedAt,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    author_association: 'MEMBER'
  }
  if (i.pull) {
    out.pull_request = {
      url: `${roots.api}/repos/${full}/pulls/${i.number}`,
      html_url: `${roots.html}/${full}/pull/${i.number}`,
      diff_url: `${roots.html}/${full}/pull/${i.number}.diff`,
      patch_url: `${roots.html}/${full}/pull/${i.number}.patch`,
      merged_at: i.pull.merged ? i.updatedAt : null
    }
    out.draft = i.pull.draft
  }
  return out
}

function branchJson(
  roots: Roots,
  repo: RepoRecord,
  ref: string,
  sha: string
): Record<string, unknown> {
  return {
    label: `${repo.owner.login}:${ref}`,
    ref,
    sha,
    user: userJson(roots, repo.owner),
    repo: repoJson(roots, repo, 0)
  }
}

/**
 * A pull request: the short form of `GET /pulls` (pull-request-simple), or with `full` the form
 * of get/create/update (pull-request), which adds counts and merge fields.
 */
export function pullJson(
  roots: Roots,
  repo: RepoRecord,
  headRepo: RepoRecord,
  i: IssueRecord & { pull: PullRecord },
  labels: LabelRecord[],
  full: boolean
): Record<string, unknown> {
  const p = i.pull
  const fullName = `${repo.owner.login}/${repo.name}`
  const api = `${roots.api}/repos/${fullName}/pulls/${i.number}`
  const html = `${roots.html}/${fullName}/pull/${i.number}`
  const issueApi = `${roots.api}/repos/${fullName}/issues/${i.number}`
  const out: Record<string, unknown> = {
    url: api,
    id: i.id,
    node_id: pullNodeId(i.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issueApi,
    commits_url: `${api}/commits`,
    review_comments_url: `${api}/comments`,
    review_comment_url: `${roots.api}/repos/${fullName}/pulls/comments{/number}`,
    comments_url: `${issueApi}/comments`,
    statuses_url: `${roots.api}/repos/${fullName}/statuses/${p.headSha}`,
    number: i.number,
    state: i.state,
    locked: false,
    title: i.title,
    user: userJson(roots, i.user),
    body: i.body,
    // The pull request schemas type a label's description as a plain string.
    labels: labels.map((l) => labelJson(roots, repo, { ...l, description: l.description ?? '' })),
    milestone: null,
    active_lock_reason: null,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    closed_at: i.closedAt,
    merged_at: p.merged ? i.updatedAt : null,
    merge_commit_sha: null,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    head: branchJson(roots, headRepo, p.head, p.headSha),
    base: branchJson(roots, repo, p.base, p.baseSha),
    _links: {
      self: { href: api },
      html: { href: html },
      issue: { href: issueApi },
      comments: { href: `${issueApi}/comments` },
      review_comments: { href: `${api}/comments` },
      review_comment: { href: `${roots.api}/repos/${fullName}/pulls/comments{/number}` },
      commits: { href: `${api}/commits` },
      statuses: { href: `${roots.api}/repos/${fullName}/statuses/${p.headSha}` }
    },
    author_association: 'MEMBER',
    auto_merge: null,
    draft: p.draft
  }
  if (full) {
    Object.assign(out, {
      merged: p.merged,
      mergeable: null,
      rebaseable: null,
      mergeable_state: 'unknown',
      merged_by: null,
      comments: 0,
      review_comments: 0,
      maintainer_can_modify: p.maintainerCanModify,
      commits: 1,
      additions: 0,
      deletions: 0,
      changed_files: 0
    })
  }
  return out
}

export function permissionJson(roots: Roots, u: UserRecord, role: Role): Record<string, unknown> {
  return {
    permission: PERMISSION_OF_ROLE[role],
    role_name: role,
    user: {
      ...userJson(roots, u),
      permissions: {
        admin: role === 'admin',
        maintain: role === 'admin' || role === 'maintain',
        push: PERMISSION_OF_ROLE[role] !== 'read',
        triage: role !== 'read',
        pull: true
      },
      role_name: role
    }
  }
}

/** A `labeled` issue event, as GET /issues/{n}/events lists it. */
export function labelEventJson(
  roots: Roots,
  repo: RepoRecord,
  e: LabelEventRecord
): Record<string, unknown> {
  return {
    id: e.id,
    node_id: nodeId('LE', e.id),
    url: `${roots.api}/repos/${repo.owner.login}/${repo.name}/issues/events/${e.id}`,
    actor: userJson(roots, e.actor),
    event: e.event,
    commit_id: null,
    commit_url: null,
    created_at: e.createdAt,
    performed_via_github_app: null,
    ...(e.label === undefined ? {} : { label: { name: e.label, color: 'ededed' } })
  }
}
