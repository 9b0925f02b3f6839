// GitHub issues behind the pipeline's Tracker port: states are labels, the record lives in the
// repository (repo-records.ts) and the one living status comment is its view, rewritten from it
// on every save; keyed comments are found by their marker line, and the next stage is woken by
// repository_dispatch.
import { knownStates } from '../config/load.js'
import type { WorkflowConfig } from '../config/types.js'
import { messageOf } from '../errors.js'
import { DISPATCH_TYPE } from '../pipeline/names.js'
import type {
  Blocker,
  Flag,
  Issue,
  JobTrigger,
  PullRequestRef,
  Tracker
} from '../pipeline/ports.js'
import type { IssueRecord } from '../pipeline/record/record.js'
import { readRecordFromComment } from './comment-record.js'
import { renderStatusComment } from './status-comment.js'
import { authorizeActor } from './authorize.js'
import { faultKind, GitHubApiError } from './github-errors.js'
import type { GitHubApi, LivingComment, MarkedComment } from './github-api.js'
import type { IssueRecordStore } from './repo-records.js'

/** The first line of the one living status comment per issue. */
export const STATUS_MARKER = 'itervox:status'

/** The identity of the default `GITHUB_TOKEN`. */
const ACTIONS_BOT = 'github-actions[bot]'

/**
 * The pull request's body is fixed (the trail is in the status comment and the files) until the
 * pipeline completes; then it closes the issue when merged.
 */
function pullBody(issue: Issue, complete: boolean): string {
  const text = `Pipeline branch for ${issue.identifier}, run by itervox handoff-action. Each stage's deliverable is under \`.itervox/handoff/\`; the issue's status comment lists them all.\n`
  return complete ? `${text}\nCloses ${issue.identifier}\n` : text
}

export interface GitHubTrackerOptions {
  api: GitHubApi
  /** Where the records are kept: the status comment only shows them. */
  records: IssueRecordStore
  config: WorkflowConfig
  owner: string
  repo: string
  serverUrl: string
  runId: string
  runUrl: string
  chain: 'dispatch' | 'label' | 'none'
  /** Shown on the status comment for as long as it holds (isolation: none). */
  warning?: string
}

export class GitHubTracker implements Tracker {
  readonly wakes: Tracker['wakes']
  private readonly api: GitHubApi
  private readonly states: string[]
  /** Per issue: the marked comments by this token's identity, and the living status comment. */
  private readonly seen = new Map<number, { keys: Set<string>; living: LivingComment | null }>()
  /** Per issue: why this job could not open its pull request, for the status comment. */
  private readonly noPull = new Map<number, string>()

  constructor(private readonly o: GitHubTrackerOptions) {
    this.api = o.api
    this.wakes = o.chain
    this.states = knownStates(o.config)
  }

  authorize(trigger: JobTrigger) {
    return authorizeActor({
      tracker: this.api,
      actor: trigger.actor.login,
      actorType: trigger.actor.type,
      // A repository_dispatch can only be sent with write access to this repository: the
      // pipeline's own wake-ups arrive from the job token's bot.
      allowedBots: [
        ...this.o.config.tracker.allowedBots,
        ...(trigger.source === 'wake' ? [ACTIONS_BOT] : [])
      ]
    })
  }

  getIssue(id: string): Promise<Issue> {
    return this.api.getIssue(id)
  }

  async branchFor(issue: Issue): Promise<{ branch: string } | { deny: string }> {
    if (!issue.isPullRequest) return { branch: `itervox/${issue.id}` }
    const pull = await this.api.getPull(Number(issue.id))
    if (pull.headRepoFullName !== `${this.o.owner}/${this.o.repo}`) {
      return { deny: "the pull request's head is in a fork; stages never run on fork code" }
    }
    // A stage pushes its work to the head: never to the default branch or the base it merges into.
    if (pull.headRef === pull.defaultBranch || pull.headRef === pull.baseRef) {
      const which = pull.headRef === pull.defaultBranch ? 'the default branch' : 'its base'
      return {
        deny: `the pull request's head is ${pull.headRef}, ${which}; a stage never pushes to the default branch or a pull request's base, so label a pull request from another branch`
      }
    }
    return { branch: pull.headRef }
  }

  /**
   * The record from the repository. A pipeline begun before the record moved there has it only
   * in the status comment: that is read once, and the first save moves it.
   */
  async loadRecord(issue: Issue): Promise<IssueRecord | null> {
    const stored = await this.o.records.load(issue.id)
    if (stored) return stored
    const { living } = await this.ours(Number(issue.id))
    return living ? readRecordFromComment(living.body) : null
  }

  /** The record first, then its view: a status comment deleted or edited is written afresh. */
  async saveRecord(issue: Issue, record: IssueRecord): Promise<void> {
    await this.o.records.save(issue.id, record)
    const number = Number(issue.id)
    const seen = await this.ours(number)
    const status = renderStatusComment({
      config: this.o.config,
      record,
      issueRef: issue.identifier,
      marker: STATUS_MARKER,
      warnings: [
        ...(this.o.warning ? [this.o.warning] : []),
        ...(this.noPull.has(number) ? [`no pull request: ${this.noPull.get(number)}`] : [])
      ],
      blobUrl: (commit, path) => this.blobUrl(commit, path)
    })
    // The marker line is added by the API wrapper.
    const body = status.split('\n').slice(1).join('\n')
    const write = (known: LivingComment | null) =>
      this.orCheck(number, STATUS_MARKER, () =>
        this.api.upsertComment(number, STATUS_MARKER, body, known)
      )
    let written: { id: number; url: string }
    try {
      written = await write(seen.living)
    } catch (err) {
      // Deleted since it was read: the view is posted again.
      if (!(seen.living && err instanceof GitHubApiError && err.status === 404)) throw err
      written = await write(null)
    }
    seen.keys.add(STATUS_MARKER)
    seen.living = { id: written.id, url: written.url, body: status }
  }

  async moveState(issue: Issue, from: string, to: string): Promise<{ current: string | null }> {
    const moved = await this.api.moveState(Number(issue.id), from, to, this.states)
    return { current: moved.current }
  }

  async comment(
    issue: Issue,
    c: { key: string; body: string; agent?: string; pullRequest?: number }
  ): Promise<void> {
    const target = c.pullRequest ?? Number(issue.id)
    const keys =
      c.pullRequest === undefined
        ? (await this.ours(target)).keys
        : new Set(
            (await this.byOurIdentity(await this.api.markedComments(target))).map((m) => m.marker)
          )
    if (keys.has(c.key)) return
    const who = c.agent ? `**${c.agent} (agent):**\n\n` : ''
    await this.orCheck(target, c.key, () =>
      this.api.upsertComment(target, c.key, who + c.body, null)
    )
    keys.add(c.key)
  }

  /**
   * The issue's marked comments by this token's identity, read once per job. Anyone can type a
   * marker, and any other bot (renovate[bot], say) can post one: those are ignored.
   */
  private async ours(number: number): Promise<{ keys: Set<string>; living: LivingComment | null }> {
    let seen = this.seen.get(number)
    if (!seen) {
      const mine = await this.byOurIdentity(await this.api.markedComments(number))
      seen = {
        keys: new Set(mine.map((c) => c.marker)),
        living: mine.find((c) => c.marker === STATUS_MARKER) ?? null
      }
      this.seen.set(number, seen)
    }
    return seen
  }

  /**
   * Runs a comment write; when its answer was lost, looks for the comment by its key and sends
   * it again only when it is not there, so a lost answer never posts twice.
   */
  private async orCheck<T>(
    target: number,
    key: string,
    write: () => Promise<T>
  ): Promise<T | MarkedComment> {
    try {
      return await write()
    } catch (err) {
      if (faultKind(err) !== 'answer-lost') throw err
      const mine = await this.byOurIdentity(await this.api.markedComments(target))
      const found = mine.find((m) => m.marker === key)
      return found ?? write()
    }
  }

  async setFlag(issue: Issue, flag: Flag, on: boolean): Promise<void> {
    if (on) await this.api.addLabels(Number(issue.id), [flag])
    else await this.api.removeLabel(Number(issue.id), flag)
  }

  async wake(issue: Issue, w: { state: string; entry: number; step?: string }): Promise<void> {
    await sendWake(this.api, issue.id, w)
  }

  async publish(
    issue: Issue,
    o: { branch: string; baseBranch: string; commit: string; created: boolean; known?: number }
  ): Promise<{ pullRequest?: PullRequestRef; problem?: string }> {
    // The body is static (the trail is in the status comment and the files), so a pull request
    // the record already knows needs nothing.
    if (o.known !== undefined && !o.created) {
      return { pullRequest: { number: o.known, url: this.pullUrl(o.known) } }
    }
    try {
      const pr = await this.api.upsertDraftPr({
        head: o.branch,
        base: o.baseBranch,
        title: `itervox: ${issue.identifier} ${issue.title}`.slice(0, 250),
        body: pullBody(issue, false),
        branchIsNew: o.created
      })
      return { pullRequest: { number: pr.number, url: pr.url, node: pr.nodeId } }
    } catch (err) {
      // The pipeline goes on without its pull request (e.g. when the repository forbids
      // Actions to open one); the status comment, the log and the job summary say why.
      const problem = messageOf(err)
      this.noPull.set(Number(issue.id), problem)
      return { problem }
    }
  }

  /** Why this job could not open the issue's pull request, if it tried and could not. */
  pullRequestProblem(issue: number): string | undefined {
    return this.noPull.get(issue)
  }

  blockers(issue: Issue): Promise<Blocker[]> {
    return this.api.blockersOf(issue)
  }

  async pullState(pr: number): Promise<'open' | 'closed' | 'merged'> {
    const pull = await this.api.getPull(pr)
    return pull.merged ? 'merged' : pull.state === 'closed' ? 'closed' : 'open'
  }

  /** A pull request a person closed or merged meanwhile is theirs: it is left as it is. */
  async readyForReview(issue: Issue, pr: { number: number; node?: string }): Promise<void> {
    const pull = await this.api.getPull(pr.number)
    if (pull.state === 'closed') {
      const how = pull.merged ? 'merged' : 'closed'
      await this.comment(issue, {
        key: `itervox:not-ready:${pr.number}`,
        body: `The pipeline is complete, but pull request #${pr.number} was ${how} meanwhile, so it was not marked ready for review.`
      })
      return
    }
    await this.api.readyPull(pr.node ?? pull.nodeId, pullBody(issue, true))
  }

  runLine(): string {
    return `[Run ${this.o.runId}](${this.o.runUrl})`
  }

  replyHint(): string {
    return 'Reply in a comment (people with write access only); the stage resumes with your answer.'
  }

  blobUrl(commit: string, path: string): string {
    return `${this.o.serverUrl}/${this.o.owner}/${this.o.repo}/blob/${commit}/${path}`
  }

  private pullUrl(number: number): string {
    return `${this.o.serverUrl}/${this.o.owner}/${this.o.repo}/pull/${number}`
  }

  /**
   * Marked comments by this token's identity. The default token is `github-actions[bot]`; only
   * when some other bot wrote a marker is the API asked who this token is (an App's bot).
   */
  private async byOurIdentity(marked: MarkedComment[]): Promise<MarkedComment[]> {
    const bots = marked.filter((c) => c.bot)
    if (bots.every((c) => c.author === ACTIONS_BOT)) return bots
    // The tracker asks once and keeps the answer.
    const me = (await this.api.viewerLogin()).toLowerCase()
    return bots.filter((c) => c.author.toLowerCase() === me)
  }
}

/** The pipeline's wake-up of an issue's stage: a repository_dispatch naming its entry. */
export async function sendWake(
  api: GitHubApi,
  issue: string,
  w: { state: string; entry: number; step?: string }
): Promise<void> {
  await api.dispatch(DISPATCH_TYPE, {
    issue,
    state: w.state,
    entry: w.entry,
    ...(w.step ? { step: w.step } : {})
  })
}
