// Linear issues behind the pipeline's Tracker port. States are the team's workflow states,
// matched to WORKFLOW.md's by name when the tracker is made; keyed comments carry their key as
// a first `<!-- key -->` line and count only when the API key's own user wrote them; flags are
// Linear labels. The record is not kept in Linear (anyone on the team can edit a comment, and it
// must be readable while Linear is down): a record store is given. Everything on GitHub's side
// (the draft pull request, the wake-up, who may start a stage from GitHub) is the GitHub adapter's.
import { didYouMean } from '../config/did-you-mean.js'
import { knownStates } from '../config/load.js'
import { sameState } from '../config/lookup.js'
import type { WorkflowConfig } from '../config/types.js'
import { messageOf, UserError } from '../errors.js'
import type {
  Blocker,
  Flag,
  Issue,
  JobTrigger,
  PullRequestRef,
  Tracker
} from '../pipeline/ports.js'
import type { IssueRecord } from '../pipeline/record/record.js'
import { oneLine } from '../pipeline/untrusted-text.js'
import { sendWake, type GitHubTracker } from './github-tracker.js'
import type { GitHubApi } from './github-api.js'
import type { LinearApi, LinearIssue } from './linear-api.js'
import type { IssueRecordStore } from './repo-records.js'

export interface LinearTrackerOptions {
  api: LinearApi
  config: WorkflowConfig
  records: IssueRecordStore
  /** The GitHub side: the port for wake-ups, pull request comments and GitHub-side actors. */
  github: { port: GitHubTracker; api: GitHubApi }
}

/** Authors of later comments asked about, at most, when looking for a reply. */
const MAX_REPLY_AUTHORS = 5

/** The pull request's body: the Linear issue links to it (see README, "Linear"). */
const PULL_BODY =
  "Pipeline branch for a Linear issue, run by itervox handoff-action. Each stage's deliverable is under `.itervox/handoff/`; the Linear issue links to this pull request.\n"

export class LinearTracker implements Tracker {
  readonly wakes = 'dispatch' as const
  /** Label ids by flag, once found or made. */
  private readonly labelIds = new Map<Flag, string>()

  private constructor(
    private readonly o: LinearTrackerOptions,
    private readonly team: { id: string; key: string },
    /** WORKFLOW.md's spelling of each state → the team's state id. */
    private readonly stateIds: Map<string, string>,
    private readonly viewerId: string
  ) {}

  /**
   * Reads the team named by `tracker.project_slug` and matches every state WORKFLOW.md names to
   * one of its workflow states; a state the team does not have is the user's to fix, now.
   */
  static async create(o: LinearTrackerOptions): Promise<LinearTracker> {
    const key = o.config.tracker.projectSlug
    if (!key) {
      throw new UserError(
        'tracker kind linear needs the team key; add project_slug: ENG (the prefix of its issue keys)',
        { file: o.config.file }
      )
    }
    const [team, viewer] = await Promise.all([o.api.team(key), o.api.viewer()])
    if (!team) {
      throw new UserError(
        `Linear has no team with key ${JSON.stringify(key)} that LINEAR_API_KEY can see; set tracker.project_slug to the prefix of the team's issue keys (ENG for ENG-123)`,
        { file: o.config.file }
      )
    }
    const names = team.states.nodes.map((s) => s.name)
    const ids = new Map<string, string>()
    const t = o.config.tracker
    // terminal_states has defaults (Closed, Cancelled, ...) no one team has all of: a terminal
    // state the team lacks is one no issue can be in, so only the states stages move to must exist.
    const optional = (state: string) =>
      t.terminalStates.some((x) => sameState(x, state)) &&
      ![t.completionState, t.failedState].some((x) => x !== undefined && sameState(x, state))
    // Backlog states start no stage: a team may lack them unless an automation runs there.
    const backlogRuns = o.config.automations.some(
      (a) => a.enabled && a.trigger.type === 'issue_moved_to_backlog'
    )
    const backlog = t.backlogStates.filter(
      (s) => !knownStates(o.config).some((k) => sameState(k, s))
    )
    for (const state of [...knownStates(o.config), ...backlog]) {
      const match = team.states.nodes.find((s) => sameState(s.name, state))
      if (!match && (optional(state) || (!backlogRuns && backlog.includes(state)))) continue
      if (!match) {
        const hint = didYouMean(state, names) || `; its states are ${names.join(', ')}`
        throw new UserError(
          `state ${JSON.stringify(state)} is not a workflow state of Linear team ${team.key}${hint}`,
          { file: o.config.file }
        )
      }
      ids.set(state, match.id)
    }
    return new LinearTracker(o, { id: team.id, key: team.key }, ids, viewer.id)
  }

  /** Linear's and GitHub's requests so far. */
  get requestCount(): number {
    return this.o.api.requestCount + this.o.github.api.requestCount
  }

  /**
   * A reply on the Linear issue counts only when a member of the team wrote it: the comment is
   * found again on the issue by its text, and its author is what Linear says, never what the
   * payload says. Other triggers come from GitHub and are GitHub's to authorise.
   */
  async authorize(trigger: JobTrigger) {
    if (trigger.source !== 'comment') return this.o.github.port.authorize(trigger)
    const body = trigger.reply?.body.trim()
    if (!body) return { allowed: false as const, reason: 'the reply names no comment' }
    const issue = await this.read(trigger.issue)
    const comments = await this.o.api.comments(issue.id)
    const authors = new Set(
      comments
        .filter((c) => c.body.trim() === body && c.user && c.user.id !== this.viewerId)
        .map((c) => c.user!.id)
    )
    for (const author of authors) {
      if (await this.o.api.isMember(this.team.id, author)) return { allowed: true as const }
    }
    return {
      allowed: false as const,
      reason:
        authors.size === 0
          ? `no comment on ${issue.identifier} has the reply's text`
          : `the reply on ${issue.identifier} is not by a member of team ${this.team.key}`
    }
  }

  async getIssue(id: string): Promise<Issue> {
    return this.withEntry(await this.read(id))
  }

  /**
   * The team's issues in any of `states` (WORKFLOW.md's spellings), in one paginated listing;
   * `truncated` when the listing stopped at its bound.
   */
  async issuesIn(states: string[]): Promise<{ issues: Issue[]; truncated: boolean }> {
    const ids = states.flatMap((s) => {
      const id = this.stateIds.get(this.known(s))
      return id ? [id] : []
    })
    if (ids.length === 0) return { issues: [], truncated: false }
    const found = await this.o.api.issuesIn(this.team.id, ids)
    // One after another: a backlog costs a history request per issue, not a burst of them.
    const issues: Issue[] = []
    for (const i of found.issues) issues.push(await this.withEntry(i))
    return { issues, truncated: found.truncated }
  }

  /** The issue, with when it entered its state when that is a backlog state (one request). */
  private async withEntry(linear: LinearIssue): Promise<Issue> {
    const issue = this.issueOf(linear)
    const state = issue.state
    if (!state || !this.o.config.tracker.backlogStates.some((s) => sameState(s, state))) {
      return issue
    }
    const at = await this.o.api.enteredAt(linear.id, linear.state.id)
    return at ? { ...issue, enteredAt: at } : issue
  }

  private issueOf(issue: LinearIssue): Issue {
    return {
      id: issue.id,
      identifier: issue.identifier,
      title: issue.title,
      description: issue.description ?? '',
      state: this.workflowState(issue.state.name),
      labels: issue.labels.nodes.map((l) => l.name),
      url: issue.url,
      isPullRequest: false,
      createdAt: issue.createdAt,
      updatedAt: issue.updatedAt
    }
  }

  /**
   * `itervox/eng/123` for ENG-123: Linear's GitHub integration links a branch whose name holds
   * the issue key (`eng-123`, in any case) and can move the issue on its pull request's events,
   * behind the pipeline's back; this name holds the key's parts but not the key.
   */
  async branchFor(issue: Issue): Promise<{ branch: string }> {
    const m = /^([A-Za-z0-9]+)-([0-9]+)$/.exec(issue.identifier)
    if (!m) throw new Error(`${JSON.stringify(issue.identifier)} is not a Linear issue key`)
    return { branch: `itervox/${m[1]!.toLowerCase()}/${m[2]}` }
  }

  loadRecord(issue: Issue): Promise<IssueRecord | null> {
    return this.o.records.load(issue.identifier)
  }

  saveRecord(issue: Issue, record: IssueRecord): Promise<void> {
    return this.o.records.save(issue.identifier, record)
  }

  /**
   * Compare-and-set as close as Linear allows: the issue is read again and moved only while it
   * is still in `from` (Linear has no conditional update, so a move in the moment between the
   * read and the write is the one thing not seen).
   */
  async moveState(issue: Issue, from: string, to: string): Promise<{ current: string | null }> {
    const now = await this.read(issue.id)
    const current = this.workflowState(now.state.name)
    if (current !== null && sameState(current, to)) return { current }
    if (current === null || !sameState(current, from)) return { current }
    const stateId = this.stateIds.get(this.known(to))
    if (!stateId) throw new Error(`state ${to} was not matched to team ${this.team.key}`)
    const after = await this.o.api.moveIssue(now.id, stateId)
    return { current: after === null ? to : (this.workflowState(after) ?? after) }
  }

  async comment(
    issue: Issue,
    c: { key: string; body: string; agent?: string; pullRequest?: number }
  ): Promise<void> {
    // Comments meant for the pull request are GitHub's.
    if (c.pullRequest !== undefined) return this.o.github.port.comment(issue, c)
    const mark = `<!-- ${c.key} -->`
    const mine = (await this.o.api.comments(issue.id)).filter(
      (x) => x.user?.id === this.viewerId && x.body.split('\n', 1)[0]?.trim() === mark
    )
    if (mine.length) return
    const who = c.agent ? `**${c.agent} (agent):**\n\n` : ''
    await this.o.api.createComment(issue.id, `${mark}\n${who}${c.body}`)
  }

  /** Flags are labels of the flag's name: the workspace's or the team's, made when missing. */
  async setFlag(issue: Issue, flag: Flag, on: boolean): Promise<void> {
    let id = this.labelIds.get(flag)
    if (!id) {
      const found = (await this.o.api.labelsNamed(flag)).find(
        (l) => l.team === null || l.team.id === this.team.id
      )
      if (!found && !on) return
      id = found?.id ?? (await this.o.api.createLabel(flag, this.team.id))
      this.labelIds.set(flag, id)
    }
    await this.o.api.setLabel(issue.id, id, on)
  }

  /** The wake-up names the issue by its key, as the relay's and a person's dispatch do. */
  /** Linear's blocking relations; a blocker is done in a completed or canceled state. */
  async blockers(issue: Issue): Promise<Blocker[]> {
    const found = await this.o.api.blockers(issue.id)
    return found.map((b) => ({
      identifier: b.identifier,
      done: b.stateType === 'completed' || b.stateType === 'canceled'
    }))
  }

  wake(issue: Issue, w: { state: string; entry: number; step?: string }): Promise<void> {
    return sendWake(this.o.github.api, issue.identifier, w)
  }

  /**
   * Linear sends GitHub no event for a comment, so the answer to a waiting stage is looked for
   * here: the first comment after the question (the one this key wrote for `entry`) by a member
   * of the team. Its author is what Linear says.
   */
  async findReply(
    issue: Issue,
    waiting: { entry: number }
  ): Promise<{ id: string; body: string; author: string } | null> {
    const comments = await this.o.api.comments(issue.id)
    const mark = `<!-- itervox:question:${waiting.entry}:`
    let asked = -1
    comments.forEach((c, i) => {
      if (c.user?.id === this.viewerId && c.body.startsWith(mark)) asked = i
    })
    if (asked < 0) return null
    const checked = new Map<string, boolean>()
    for (const c of comments.slice(asked + 1)) {
      if (!c.user || c.user.id === this.viewerId || !c.body.trim()) continue
      let member = checked.get(c.user.id)
      // Bounded: each author is asked about once, and only until a member's reply is found.
      if (member === undefined && checked.size < MAX_REPLY_AUTHORS) {
        member = await this.o.api.isMember(this.team.id, c.user.id)
        checked.set(c.user.id, member)
      }
      if (member) return { id: c.id, body: c.body, author: c.user.name }
    }
    return null
  }

  /**
   * The draft pull request on GitHub, titled without the issue key (see branchFor), and linked
   * on the Linear issue as a plain link, which moves no state.
   */
  async publish(
    issue: Issue,
    o: { branch: string; baseBranch: string; commit: string; created: boolean; known?: number }
  ): Promise<{ pullRequest?: PullRequestRef; problem?: string }> {
    // A pull request the record already knows needs nothing (its body is static).
    if (o.known !== undefined && !o.created) return this.o.github.port.publish(issue, o)
    try {
      const pr = await this.o.github.api.upsertDraftPr({
        head: o.branch,
        base: o.baseBranch,
        title: `itervox: ${oneLine(issue.title)}`.slice(0, 250),
        body: PULL_BODY,
        branchIsNew: o.created
      })
      await this.o.api.linkPullRequest(issue.id, pr.url, `itervox pipeline #${pr.number}`)
      return { pullRequest: { number: pr.number, url: pr.url, node: pr.nodeId } }
    } catch (err) {
      return { problem: messageOf(err) }
    }
  }

  async readyForReview(_issue: Issue, pr: { number: number; node?: string }): Promise<void> {
    const node = pr.node ?? (await this.o.github.api.getPull(pr.number)).nodeId
    await this.o.github.api.readyPull(node, PULL_BODY)
  }

  runLine(): string {
    return this.o.github.port.runLine()
  }

  replyHint(): string {
    return `Reply in a comment on the Linear issue (members of team ${this.team.key} only); the stage resumes with your answer.`
  }

  blobUrl(commit: string, path: string): string {
    return this.o.github.port.blobUrl(commit, path)
  }

  private async read(id: string): Promise<LinearIssue> {
    const issue = await this.o.api.issue(id)
    if (!issue) {
      throw new UserError(
        `${oneLine(id)} is not a Linear issue LINEAR_API_KEY can see; give its key, such as ${this.team.key}-123`
      )
    }
    if (issue.team.id !== this.team.id) {
      throw new UserError(
        `${issue.identifier} is in Linear team ${issue.team.key}, not ${this.team.key} (tracker.project_slug)`
      )
    }
    return issue
  }

  /** WORKFLOW.md's spelling of a Linear state, or null for a state WORKFLOW.md does not name. */
  private workflowState(name: string): string | null {
    return [...this.stateIds.keys()].find((s) => sameState(s, name)) ?? null
  }

  private known(state: string): string {
    return this.workflowState(state) ?? state
  }
}
