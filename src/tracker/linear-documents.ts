// Every GraphQL document the Linear tracker sends, in one place: the client sends them and
// scripts/extract-linear-graphql.ts cuts the test schema to what they use. Inputs are written
// inline with scalar variables, so the schema subset needs only the input fields named here.

export const VIEWER = `query Viewer { viewer { id name } }`

export const TEAM = `query Team($key: String!) {
  teams(filter: { key: { eq: $key } }, first: 1) {
    nodes { id key name states(first: 100) { nodes { id name type position } } }
  }
}`

export const ISSUE = `query Issue($id: String!) {
  issue(id: $id) {
    id identifier title description url branchName createdAt updatedAt
    state { id name type }
    labels(first: 100) { nodes { id name } }
    team { id key }
  }
}`

/** A team's issues in any of the given states, a page at a time (the reconcile's listing). */
export const ISSUES = `query Issues($team: ID!, $states: [ID!]!, $after: String) {
  issues(
    filter: { team: { id: { eq: $team } }, state: { id: { in: $states } } }
    first: 50
    after: $after
  ) {
    nodes {
      id identifier title description url branchName createdAt updatedAt
      state { id name type }
      labels(first: 100) { nodes { id name } }
      team { id key }
    }
    pageInfo { hasNextPage endCursor }
  }
}`

/**
 * The issues that block this one: the relations of type `blocks` whose related issue it is
 * (`inverseRelations`; `issue` is the blocker), with each blocker's state type.
 */
export const BLOCKERS = `query Blockers($id: String!) {
  issue(id: $id) {
    inverseRelations(first: 50) { nodes { type issue { identifier state { type } } } }
  }
}`

/**
 * The issue's latest state changes (Linear lists newest first): when it entered its state, which
 * names the move (issue_moved_to_backlog runs once per move).
 */
export const STATE_HISTORY = `query StateHistory($id: String!) {
  issue(id: $id) { history(first: 50) { nodes { createdAt toState { id } } } }
}`

export const COMMENTS = `query Comments($id: String!, $after: String) {
  issue(id: $id) {
    comments(first: 100, after: $after) {
      nodes { id body createdAt user { id name } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`

export const MEMBER = `query Member($team: String!, $user: ID!) {
  team(id: $team) { members(filter: { id: { eq: $user } }, first: 1) { nodes { id } } }
}`

export const MOVE = `mutation Move($id: String!, $stateId: String!) {
  issueUpdate(id: $id, input: { stateId: $stateId }) { success issue { state { id name } } }
}`

export const COMMENT = `mutation Comment($issueId: String!, $body: String!) {
  commentCreate(input: { issueId: $issueId, body: $body }) { success comment { id url } }
}`

export const FIND_LABEL = `query FindLabel($name: String!) {
  issueLabels(filter: { name: { eqIgnoreCase: $name } }, first: 50) {
    nodes { id name team { id } }
  }
}`

export const CREATE_LABEL = `mutation CreateLabel($name: String!, $teamId: String!) {
  issueLabelCreate(input: { name: $name, teamId: $teamId }) { success issueLabel { id } }
}`

export const ADD_LABEL = `mutation AddLabel($id: String!, $labelId: String!) {
  issueAddLabel(id: $id, labelId: $labelId) { success }
}`

export const REMOVE_LABEL = `mutation RemoveLabel($id: String!, $labelId: String!) {
  issueRemoveLabel(id: $id, labelId: $labelId) { success }
}`

export const LINK_PR = `mutation LinkPr($issueId: String!, $url: String!, $title: String!) {
  attachmentLinkGitHubPR(issueId: $issueId, url: $url, title: $title, linkKind: links) { success }
}`

export const DOCUMENTS = [
  VIEWER,
  TEAM,
  ISSUE,
  ISSUES,
  BLOCKERS,
  STATE_HISTORY,
  COMMENTS,
  MEMBER,
  MOVE,
  COMMENT,
  FIND_LABEL,
  CREATE_LABEL,
  ADD_LABEL,
  REMOVE_LABEL,
  LINK_PR
]
