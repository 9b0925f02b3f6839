// The job loop's two ports in memory, for orchestration tests that run in milliseconds: a
// tracker holding issues, labels, comments, the record and sent wake-ups; a workspace holding
// branches of commits; and a stand-in agent that counts its runs. Any port call can be made
// to fail before it acts, to act and then lose its answer, or to kill the job (the runner
// dying at that point: nothing after it runs).
import { sameState } from '../../src/config/lookup.js'
import type { WorkflowConfig } from '../../src/config/types.js'
import type { LandedStage, StageKey } from '../../src/git/trailers.js'
import { runJob, type JobInput, type JobResult } from '../../src/pipeline/job.js'
import type {
  Flag,
  JobTrigger,
  PreparedBranch,
  PublishTarget,
  Published,
  Slots,
  StageClaims,
  Tracker,
  Workspace
} from '../../src/pipeline/ports.js'
import type { LandedProvenance, Provenance } from '../../src/pipeline/record/provenance.js'
import {
  parseRecord,
  type IssueRecord,
  type VerifyEvidence
} from '../../src/pipeline/record/record.js'
import type { StageJob, StageResult } from '../../src/pipeline/stage/stage.js'
import type { StageRun } from '../../src/pipeline/stage-run.js'
import { stageSections } from '../../src/pipeline/stage/sections.js'
import { SecretScanner } from '../../src/secrets/scanner.js'
import type { Issue } from '../../src/pipeline/ports.js'

export type FaultKind = 'fail' | 'lost' | 'kill'

/** The runner died here: the job's process is gone, nothing after this call happens. */
export class Killed extends Error {}

export interface Fault {
  kind: FaultKind
  /** Faulted calls left; Infinity while the fault lasts. */
  times: number
}

interface Commit {
  sha: string
  key: StageKey
  outcome: string
  reason: string
  run: string
  handoff: string | null
  files: Map<string, string>
  /** What the pipeline would write in the commit's provenance trailer. */
  provenance?: Provenance
}

/** What a scripted agent run does, by profile and attempt. */
export type AgentScript = (key: StageKey) => {
  outcome?: 'succeeded' | 'failed' | 'rate_limited' | 'input_required'
  /** The question of an `input_required` run. */
  question?: string
  text?: string
  reason?: string
  costUsd?: number
  /** What the profile's verify commands showed, as runStage reports it. */
  verify?: VerifyEvidence
}

export class MemoryWorld {
  readonly labels = new Map<string, string[]>()
  readonly comments: { issue: string; key: string; body: string; agent?: string }[] = []
  readonly wakeups: { issue: string; state: string; entry: number; step?: string }[] = []
  /** Pull requests marked ready for review. */
  readonly readied: { issue: string; pullRequest: number }[] = []
  readonly branches = new Map<string, string[]>()
  readonly commits = new Map<string, Commit>()
  readonly agentRuns: StageKey[] = []
  /** The budget each agent run was given (agent.max_cost_usd and the profile's). */
  readonly budgets: (number | undefined)[] = []
  /** The pipeline's prompt sections each agent run was given. */
  readonly sections: string[][] = []
  readonly calls: string[] = []
  /** The record as stored: JSON, as a comment or file would hold it. */
  stored: string | null = null
  faults = new Map<string, Fault>()
  /** The job's secrets; the stand-in agent commits what it is told, unscreened. */
  secrets = new SecretScanner([])
  private shas = 0
  private onKill: (() => void) | undefined

  constructor(
    readonly config: WorkflowConfig,
    readonly states: string[],
    readonly script: AgentScript = () => ({})
  ) {}

  /** Runs `act` unless a fault says otherwise. */
  async gate<T>(call: string, act: () => T | Promise<T>): Promise<T> {
    this.calls.push(call)
    const f = this.faults.get(call)
    if (!f || f.times <= 0) return act()
    f.times--
    // The process is gone: this call never returns, and the driver stops waiting for the job.
    if (f.kind === 'kill') {
      this.onKill?.()
      return new Promise<T>(() => undefined)
    }
    if (f.kind === 'fail') throw new Error(`GitHub is unavailable: ${call}: 502 Server Error`)
    const out = await act()
    throw Object.assign(new Error(`the answer to ${call} was lost`), { lost: out })
  }

  state(issue: string): string | null {
    const labels = this.labels.get(issue) ?? []
    return this.states.find((s) => labels.some((l) => sameState(l, s))) ?? null
  }

  /** Resolves when a job of this world is killed. */
  killed(): Promise<void> {
    return new Promise((resolve) => (this.onKill = resolve))
  }

  record(): IssueRecord | null {
    return this.stored ? parseRecord(JSON.parse(this.stored)) : null
  }

  nextSha(): string {
    this.shas++
    return this.shas.toString(16).padStart(40, '0')
  }
}

class MemoryTracker implements Tracker {
  readonly wakes = 'dispatch' as const
  constructor(private readonly w: MemoryWorld) {}

  authorize(t: JobTrigger) {
    return this.w.gate('authorize', () =>
      t.actor.login === 'mallory'
        ? { allowed: false as const, reason: 'mallory may not' }
        : { allowed: true as const }
    )
  }

  getIssue(id: string): Promise<Issue> {
    return this.w.gate('getIssue', () => ({
      id,
      identifier: `#${id}`,
      title: 'Add CSV export',
      description: 'Export the report as CSV.',
      state: this.w.state(id),
      labels: [...(this.w.labels.get(id) ?? [])],
      url: `https://example.test/${id}`,
      isPullRequest: false
    }))
  }

  async branchFor(issue: Issue) {
    return { branch: `itervox/${issue.id}` }
  }

  loadRecord(): Promise<IssueRecord | null> {
    return this.w.gate('loadRecord', () => this.w.record())
  }

  saveRecord(_issue: Issue, record: IssueRecord): Promise<void> {
    return this.w.gate('saveRecord', () => {
      this.w.stored = JSON.stringify(record)
    })
  }

  moveState(issue: Issue, from: string, to: string) {
    return this.w.gate('moveState', () => {
      const now = this.w.state(issue.id)
      if (now === null || !sameState(now, from)) return { current: now }
      const rest = (this.w.labels.get(issue.id) ?? []).filter(
        (l) => !this.w.states.some((s) => sameState(s, l))
      )
      this.w.labels.set(issue.id, [...rest, to])
      return { current: to }
    })
  }

  comment(issue: Issue, c: { key: string; body: string; agent?: string }) {
    return this.w.gate('comment', () => {
      if (this.w.comments.some((x) => x.issue === issue.id && x.key === c.key)) return
      this.w.comments.push({ issue: issue.id, ...c })
    })
  }

  setFlag(issue: Issue, flag: Flag, on: boolean) {
    return this.w.gate('setFlag', () => {
      const labels = (this.w.labels.get(issue.id) ?? []).filter((l) => l !== flag)
      this.w.labels.set(issue.id, on ? [...labels, flag] : labels)
    })
  }

  wake(issue: Issue, w: { state: string; entry: number; step?: string }) {
    return this.w.gate('wake', () => {
      this.w.wakeups.push({ issue: issue.id, ...w })
    })
  }

  publish() {
    return this.w.gate('publish', () => ({ pullRequest: { number: 100, url: 'https://pr' } }))
  }

  readyForReview(issue: Issue, pr: { number: number }) {
    return this.w.gate('readyForReview', () => {
      this.w.readied.push({ issue: issue.id, pullRequest: pr.number })
    })
  }

  runLine(): string {
    return '[Run](https://run)'
  }

  replyHint(): string {
    return 'Reply in a comment.'
  }

  blobUrl(): undefined {
    return undefined
  }
}

export class MemoryWorkspace implements Workspace {
  /** Branches that refuse pushes (a protected branch, a pre-receive hook). */
  readonly refusing = new Set<string>()
  constructor(private readonly w: MemoryWorld) {}

  prepare(branch: string): Promise<PreparedBranch> {
    return this.w.gate('prepare', () => {
      const commits = this.w.branches.get(branch)
      return {
        repo: '/memory',
        branch,
        baseBranch: 'main',
        baseSha: commits?.at(-1) ?? 'base',
        // A commit id, as the record keeps it.
        forkSha: 'b'.repeat(40),
        created: commits === undefined
      }
    })
  }

  async findLanded(prepared: PreparedBranch, key: StageKey): Promise<LandedStage | null> {
    const same = (k: StageKey) => JSON.stringify(k) === JSON.stringify(key)
    for (const sha of [...(this.w.branches.get(prepared.branch) ?? [])].reverse()) {
      const c = this.w.commits.get(sha)!
      if (same(c.key)) {
        return { sha, outcome: c.outcome, run: c.run, handoffPath: c.handoff, reason: c.reason }
      }
    }
    return null
  }

  async provenance(prepared: PreparedBranch): Promise<LandedProvenance[]> {
    return (this.w.branches.get(prepared.branch) ?? []).flatMap((sha) => {
      const c = this.w.commits.get(sha)!
      return c.provenance ? [{ ...c.provenance, sha }] : []
    })
  }

  publish(prepared: PublishTarget, commit: string, rescueRef: string): Promise<Published> {
    return this.w.gate('push', () => {
      const to = this.refusing.has(prepared.branch) ? rescueRef : prepared.branch
      this.w.branches.set(to, [...(this.w.branches.get(to) ?? []), commit])
      return to === prepared.branch
        ? { commit }
        : { commit, rescuedTo: rescueRef, refusal: 'protected branch' }
    })
  }

  async readCommitted(commit: string, path: string): Promise<string | null> {
    return this.w.commits.get(commit)?.files.get(path) ?? null
  }

  around<T>(_p: PreparedBranch, stage: () => Promise<T>): Promise<T> {
    return this.w.gate('agent', stage)
  }
}

/** The stand-in for runStage: the scripted agent, then a commit carrying the stage's key. */
export function memoryStage(w: MemoryWorld) {
  return async (job: StageJob, input: StageRun): Promise<StageResult> => {
    if (job.dryRun) {
      const handoffPath = `.itervox/handoff/${input.timestamp}_${input.profile.name}.md`
      const figures = { bytes: 0, included: [], dropped: 0, blockBytes: 0 }
      return { dryRun: true, prompt: `write ${handoffPath}`, figures, handoffPath, warnings: [] }
    }
    w.agentRuns.push(input.key)
    w.budgets.push(input.maxBudgetUsd)
    w.sections.push(stageSections(job.config, input))
    const s = w.script(input.key)
    const outcome = s.outcome ?? 'succeeded'
    const path = `.itervox/handoff/${input.timestamp}_${input.profile.name}${outcome === 'succeeded' || outcome === 'input_required' ? '' : '.partial'}.md`
    const sha = w.nextSha()
    const reason = s.reason ?? (outcome === 'succeeded' ? 'the agent finished' : 'exit code 1')
    w.commits.set(sha, {
      sha,
      key: input.key,
      outcome,
      reason,
      run: input.run,
      handoff: path,
      files: new Map([[path, s.text ?? `# ${input.profile.name}\n\nDone.\n`]]),
      ...(input.handoffReason
        ? {
            provenance: {
              v: 1,
              profile: input.key.profile,
              state: input.key.state,
              kind: input.key.kind,
              reason: input.handoffReason,
              outcome,
              attempt: input.key.attempt,
              run: input.run,
              startedAt: '2026-01-01T00:00:00.000Z',
              endedAt: '2026-01-01T00:01:00.000Z',
              ...(s.costUsd !== undefined ? { costUsd: s.costUsd } : {})
            }
          }
        : {})
    })
    return {
      dryRun: false,
      prompt: '',
      figures: { bytes: 0, included: [], dropped: 0, blockBytes: 0 },
      contextPath: `/memory/${input.run}/stage.json`,
      outcome,
      reason,
      handoffPath: path,
      commit: { sha, committed: [path], dropped: [] },
      gitDir: null,
      withheld: [],
      warnings: [],
      ...(s.verify ? { verify: s.verify } : {}),
      ...(outcome === 'input_required'
        ? {
            agent: {
              outcome,
              reason,
              exitCode: 0,
              signal: null,
              durationMs: 0,
              stats: {},
              question: s.question ?? 'Which?',
              logPath: `/memory/${input.run}/agent.log`,
              lastActivityAt: '2026-01-01T00:01:00.000Z',
              preset: 'claude' as const
            }
          }
        : {})
    }
  }
}

/** One job of the loop in this world. */
export function job(
  w: MemoryWorld,
  trigger: JobTrigger,
  run: { id: string; attempt: string },
  ws = new MemoryWorkspace(w),
  o: { dryRun?: boolean; slots?: Slots; paused?: boolean; claims?: StageClaims } = {}
): Promise<JobResult> {
  const input: JobInput = {
    trigger,
    config: w.config,
    tracker: new MemoryTracker(w),
    workspace: ws,
    run,
    workDir: '/memory',
    workflowPath: 'WORKFLOW.md',
    // The memory world's stages read no git.
    trustedCommit: 'memory',
    parentEnv: {},
    secrets: w.secrets,
    stage: memoryStage(w),
    ...(o.dryRun ? { dryRun: true } : {}),
    ...(o.slots ? { slots: o.slots } : {}),
    ...(o.claims ? { claims: o.claims } : {}),
    ...(o.paused ? { paused: true } : {})
  }
  const killed = w.killed().then(() => {
    throw new Killed('the job was killed')
  })
  return Promise.race([runJob(input), killed])
}
