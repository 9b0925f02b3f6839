// Local issue files behind the pipeline's Tracker port: the state is the file's front matter,
// comments are entries of its `## Comments` section, and the record sits beside it in
// `.itervox/runs/`. Nothing is woken: the CLI's own loop runs the next stage.
import { readFileSync } from 'node:fs'
import { didYouMean } from '../config/did-you-mean.js'
import { knownStates } from '../config/load.js'
import { sameState } from '../config/lookup.js'
import type { WorkflowConfig } from '../config/types.js'
import { UserError } from '../errors.js'
import type { Tracker } from '../pipeline/ports.js'
import type { IssueRecord } from '../pipeline/record/record.js'
import {
  appendLocalComment,
  localIssuePath,
  readLocalIssue,
  setLocalIssueState,
  type LocalIssue
} from './local.js'
import { readLocalRecord, writeLocalRecord } from './local-record.js'

/** Who the local runner signs its own comments on the issue file as. */
const RUNNER_AUTHOR = 'itervox-handoff'

export class LocalPort implements Tracker {
  readonly wakes = 'none' as const

  constructor(
    private readonly root: string,
    private readonly config: WorkflowConfig
  ) {}

  async authorize() {
    // Whoever runs the CLI owns the checkout.
    return { allowed: true } as const
  }

  async getIssue(id: string): Promise<LocalIssue & { state: string }> {
    const issue = readLocalIssue(this.root, id)
    return { ...issue, state: checkedState(this.config, id, issue.state) }
  }

  async branchFor(issue: { id: string }) {
    return { branch: `itervox/${issue.id}` }
  }

  async loadRecord(issue: { id: string }): Promise<IssueRecord> {
    return readLocalRecord(this.root, issue.id)
  }

  async saveRecord(issue: { id: string }, record: IssueRecord): Promise<void> {
    writeLocalRecord(this.root, issue.id, record)
  }

  async moveState(issue: { id: string }, from: string, to: string) {
    const now = readLocalIssue(this.root, issue.id).state
    if (now === null || !sameState(now, from)) return { current: now }
    setLocalIssueState(this.root, issue.id, to)
    return { current: to }
  }

  async comment(issue: { id: string }, c: { key: string; body: string; agent?: string }) {
    // The key rides along as an HTML comment, which the prompt's sanitizer drops.
    const mark = `<!-- ${c.key} -->`
    if (readFileSync(localIssuePath(this.root, issue.id), 'utf8').includes(mark)) return
    appendLocalComment(this.root, issue.id, {
      author: c.agent ? `${c.agent} (agent)` : RUNNER_AUTHOR,
      body: `${mark}\n${c.body}`
    })
  }

  async setFlag() {
    // A local issue has no labels to flag with: its state and the CLI's output say it all.
  }

  async wake() {
    // Never asked for: `wakes` is none, and the CLI follows the record itself.
  }

  async publish() {
    return {}
  }

  async readyForReview() {
    // A local issue has no pull request: the branch is the user's to merge.
  }

  runLine(branch: string | null): string {
    return branch ? `The stages' commits are on branch ${branch}.` : ''
  }

  replyHint(issue: { id: string }): string {
    return `Answer with: itervox-handoff run --issue ${issue.id} --reply "..."`
  }

  blobUrl(): undefined {
    return undefined
  }
}

/** The issue's state as WORKFLOW.md spells it; a missing or unknown one is the user's to fix. */
function checkedState(config: WorkflowConfig, id: string, state: string | null): string {
  const states = knownStates(config)
  if (!state) {
    throw new UserError(
      `${id} has no state; add "state: ${states[0] ?? 'Todo'}" to the front matter of its issue file`
    )
  }
  const known = states.find((s) => sameState(s, state))
  if (!known) {
    const hint = didYouMean(state, states) || `; the states are ${states.join(', ')}`
    throw new UserError(`${id} is in "${state}", which is not a state of ${config.file}${hint}`)
  }
  return known
}
