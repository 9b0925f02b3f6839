import { mkdirSync, writeFileSync } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { setUpModelAccess } from '../../agent/model-access.js'
import { isAgentConfig } from '../../agent/config-paths.js'
import { presetFor } from '../../agent/presets.js'
import { priceRun, type PricedRun } from '../../agent/prices.js'
import { runAgent } from '../../agent/run.js'
import type { AgentActivity, AgentRunResult } from '../../agent/types.js'
import type { WorkflowConfig } from '../../config/types.js'
import { commitAllowed, type CommitResult, type Identity } from '../../git/commit.js'
import { restoreGitDir, snapshotGitDir, type GitDirReport } from '../../git/guard.js'
import { stageTrailers, type StageKey } from '../../git/trailers.js'
import { checkDeliverable, HANDOFF_DIR, markPartial } from '../../handoff/index.js'
import { settleInPlace } from '../../isolation/in-place.js'
import { openSandbox, type Isolation, type OpenSandbox } from '../../isolation/sandbox.js'
import { commitScreen } from '../../secrets/commit-screen.js'
import type { SecretScanner } from '../../secrets/scanner.js'
import { prepareAgentTree, restoreBranchConfig } from './agent-workspace.js'
import { isUnfinished, type StageOutcome } from '../record/outcome.js'
import type { VerifyEvidence } from '../record/record.js'
import {
  contextHandoffPath,
  saveStageContext,
  stageContext,
  type StageContext
} from './stage-context.js'
import type { StageRun } from '../stage-run.js'
import {
  snapshotTrackerFiles,
  TRACKER_DIRS,
  withoutUntouchedTrackerFiles
} from './tracker-files.js'
import { promptForStage, type PromptFigures } from './stage-prompt.js'
import { encodeProvenance, type Provenance } from '../record/provenance.js'
import { runVerify, verifyReason } from './verify.js'
import { stageSections } from './sections.js'

/** What of the job a stage reads; the stage itself is its StageRun. */
export interface StageJob {
  config: WorkflowConfig
  /** The commit WORKFLOW.md was read from (the default branch): its agent configuration is the agent's. */
  trustedCommit: string
  /** Repo-relative WORKFLOW.md, never committed by a stage. */
  workflowPath: string
  /** A private folder outside the worktree: prompt file, agent log, stage context. */
  workDir: string
  parentEnv: Record<string, string | undefined>
  /** The job's secrets: nothing the stage commits holds one. */
  secrets: SecretScanner
  /** Run the agent as a second Unix user (isolation: user); called once an agent will run. */
  isolate?: () => Promise<Isolation>
  signal?: AbortSignal
  killGraceMs?: number
  onActivity?: (e: AgentActivity) => void
  /** Stop once the prompt is built. */
  dryRun?: boolean
  /** Who the stage's commit is by, and who made it. */
  author?: Identity
  committer?: Identity
}

export interface StageEnd {
  outcome: StageOutcome
  reason: string
  agent?: AgentRunResult
}

export interface FinalisedStage extends StageEnd {
  /** The committed deliverable or partial, repo-relative; null when there is none. */
  handoffPath: string | null
  commit: CommitResult
  /** What the agent changed under `.git`, put back before committing. */
  gitDir: GitDirReport | null
  /** Secrets kept out of the commit: which file, which kind, one line each. */
  withheld: string[]
  warnings: string[]
  /** What the profile's verify commands showed, when it has any and they ran. */
  verify?: VerifyEvidence
  /** What the run cost, as its provenance records it; absent when nobody knows. */
  cost?: PricedRun
}

export type StageResult =
  | ({
      dryRun: false
      prompt: string
      figures: PromptFigures
      contextPath: string
    } & FinalisedStage)
  | {
      dryRun: true
      prompt: string
      figures: PromptFigures
      handoffPath: string
      warnings: string[]
    }

/** Where an isolated agent's prompt file is, in its HOME. */
const PROMPT_IN_HOME = '.itervox/prompt.md'

export function contextPathOf(workDir: string): string {
  return join(workDir, 'stage.json')
}

/** Prepare the prompt, run the agent, then finalise: the middle of DESIGN.md's story. */
export async function runStage(job: StageJob, run: StageRun): Promise<StageResult> {
  const { branch, profile } = run
  const { config } = job
  const prepared = await promptForStage({
    repo: branch.repo,
    commit: branch.baseSha,
    since: branch.forkSha,
    config,
    profile,
    automation: run.automation,
    issue: run.issue,
    attempt: run.plan.attempt > 0 ? run.plan.attempt : null,
    timestamp: run.timestamp,
    sections: stageSections(config, run)
  })
  if (job.dryRun) {
    return { dryRun: true, ...prepared }
  }

  mkdirSync(job.workDir, { recursive: true, mode: 0o700 })
  const contextPath = contextPathOf(job.workDir)
  const ctx = stageContext(job, run)
  const tree = { repo: branch.repo, trustedCommit: job.trustedCommit, baseSha: branch.baseSha }
  // Isolation first: a runner that cannot isolate (no sudo) stops before a model proxy
  // listens, which nothing would close and which would keep the step alive.
  const isolated = job.isolate
    ? await openIsolated(await job.isolate(), job, run, prepared.prompt)
    : undefined
  const treeWarnings = isolated?.warnings ?? []
  if (isolated) ctx.sandbox = isolated.handedOver
  else {
    ctx.snapshot = await snapshotGitDir(branch.repo)
    ctx.trackerFiles = snapshotTrackerFiles(branch.repo)
    treeWarnings.push(...(await prepareAgentTree({ ...tree, tree: branch.repo })))
  }
  saveStageContext(contextPath, ctx)

  const cwd = isolated?.handedOver.tree ?? branch.repo
  const contract = {
    handoffPath: prepared.handoffPath,
    runTimestamp: run.timestamp,
    profile: profile.name,
    issue: run.issue.identifier
  }
  let end: StageEnd
  try {
    const agent = await runAgent({
      argv: profile.argv,
      cwd,
      sandbox: isolated?.sandbox,
      prompt: prepared.prompt,
      contract: {
        ...contract,
        promptFile: isolated
          ? join(isolated.sandbox.home, PROMPT_IN_HOME)
          : join(job.workDir, 'prompt.md')
      },
      parentEnv: job.parentEnv,
      declaredEnv: profile.env,
      logPath: join(job.workDir, 'agent.log'),
      stallTimeoutMs: config.agent.stallTimeoutMs,
      deadlineMs: config.agent.turnTimeoutMs,
      maxTurns: config.agent.maxTurns,
      maxBudgetUsd: run.maxBudgetUsd,
      signal: job.signal,
      killGraceMs: job.killGraceMs,
      onActivity: job.onActivity,
      onStart: ({ pid }) => saveStageContext(contextPath, { ...ctx, agentPgid: pid })
    })
    end = { outcome: agent.outcome, reason: agent.reason, agent }
  } catch (err) {
    end = { outcome: 'failed', reason: `the agent could not run: ${(err as Error).message}` }
  }
  let verify: VerifyEvidence | undefined
  if (end.outcome === 'succeeded' && profile.verify.length > 0) {
    // In the agent's tree, before it is taken back: what is checked is what gets committed.
    verify = await runVerify({
      ...{ profile, cwd, sandbox: isolated?.sandbox, parentEnv: job.parentEnv, contract },
      ...{ workDir: job.workDir, secrets: job.secrets, signal: job.signal },
      killGraceMs: job.killGraceMs
    })
    if (!verify.passed) end = { ...end, outcome: 'failed', reason: verifyReason(verify) }
  }
  ctx.ended = { outcome: end.outcome, reason: end.reason }
  saveStageContext(contextPath, ctx)
  if (isolated) {
    ctx.tree = (await isolated.close(job.killGraceMs ?? 5000)).tree
    saveStageContext(contextPath, ctx)
  }
  const finalised = await finaliseStage(ctx, end, job.secrets)
  saveStageContext(contextPath, {
    ...ctx,
    phase: 'committed',
    committed: {
      sha: finalised.commit.sha,
      outcome: finalised.outcome,
      reason: finalised.reason,
      handoffPath: finalised.handoffPath
    }
  })
  return {
    dryRun: false,
    prompt: prepared.prompt,
    figures: prepared.figures,
    contextPath,
    ...finalised,
    verify,
    warnings: [...prepared.warnings, ...treeWarnings, ...finalised.warnings]
  }
}

/**
 * For isolation: user, the agent user with its own clone and HOME (the prompt file and the
 * CLI's settings in it) and the model proxy in front of its key. `close` ends every process of
 * the agent user, takes its tree back, then stops the proxy.
 */
async function openIsolated(
  isolation: Isolation,
  job: StageJob,
  run: StageRun,
  prompt: string
): Promise<OpenSandbox & { warnings: string[] }> {
  const { branch, profile } = run
  // The action keeps its own copy of what the agent was given; the agent's goes with it.
  writeFileSync(join(job.workDir, 'prompt.md'), prompt, { mode: 0o600 })
  const preset = presetFor(profile.argv, { maxTurns: 0, isRoot: false }).name
  const found = await setUpModelAccess(preset, job.parentEnv)
  const access = found && !('missing' in found) ? found : undefined
  const warnings =
    found && 'missing' in found
      ? [`profile ${profile.name}: ${found.missing}, so its agent has no model key`]
      : []
  const open = await openSandbox(isolation, {
    repo: branch.repo,
    branch: branch.branch,
    baseSha: branch.baseSha,
    workDir: job.workDir,
    prepareTree: async (tree) => {
      const at = { repo: branch.repo, trustedCommit: job.trustedCommit, baseSha: branch.baseSha }
      warnings.push(...(await prepareAgentTree({ ...at, tree })))
    },
    homeFiles: [{ path: PROMPT_IN_HOME, content: prompt }, ...(access?.files ?? [])],
    model: { set: access?.env ?? {}, unset: access?.hidden ?? [] }
  }).catch(async (err: unknown) => {
    await access?.proxy.close()
    throw err
  })
  if (open.handedOver.cloned) {
    warnings.push(
      `the agent got a clone of the branch, not the checkout's own files: ${open.handedOver.cloned}`
    )
  }
  return {
    ...open,
    warnings,
    close: async (graceMs) => {
      const back = await open.close(graceMs)
      await access?.proxy.close()
      if (back.warning) warnings.push(back.warning)
      return back
    }
  }
}

/**
 * After the agent (and every process of its group) is gone: put `.git` back, check the
 * deliverable, turn a failed run's file into its partial, and commit what the profile may
 * write. Runs in the main step, or in the `post:` step when the main step was cancelled.
 */
export async function finaliseStage(
  ctx: StageContext,
  end: StageEnd,
  secrets: SecretScanner
): Promise<FinalisedStage> {
  const { stage, job } = ctx
  const { repo, branch, baseSha } = stage.branch
  const { profile } = stage
  const { maxFileBytes } = job.config.handoff
  const handoffPath = contextHandoffPath(ctx)
  const warnings: string[] = []
  const withheld: string[] = []
  const gitDir = ctx.snapshot ? await restoreGitDir(ctx.snapshot) : null
  // An isolated agent's files are read from its tree, taken back once it was gone; one that
  // left no tree (it moved its own away) leaves only what the stage writes for it.
  const files = ctx.sandbox ? (ctx.tree ?? (await emptyTree(ctx))) : repo

  let { outcome } = end
  // The reason may quote the agent (its last error line); it goes into the commit message.
  let reason = secrets.redact(end.reason).text
  let path: string | null = handoffPath
  if (outcome === 'succeeded') {
    const check = await checkDeliverable(files, handoffPath, {
      maxBytes: maxFileBytes,
      requiredSections: profile.requiredSections
    })
    if (!check.ok) {
      outcome = 'failed'
      reason = `the deliverable is not acceptable: ${check.problem}`
    }
  }
  if (isUnfinished(outcome)) {
    const partial = await markPartial(
      files,
      handoffPath,
      { profile: profile.name, outcome, detail: reason, at: new Date() },
      { maxBytes: maxFileBytes }
    )
    warnings.push(...partial.warnings)
    path = partial.path
  } else if (outcome === 'input_required') {
    // The paused agent's file stays as it is, to be extended on resume; kept only if sound.
    const check = await checkDeliverable(files, handoffPath, { maxBytes: maxFileBytes })
    if (!check.ok) path = null
  }

  const cost = end.agent ? priceRun(end.agent.preset, end.agent.stats, job.config.agent.prices) : {}
  const own = handoffPath.slice(HANDOFF_DIR.length + 1).replace(/\.md$/, '')
  // However the commit ends (made or thrown), the checkout is settled after it.
  const committed = await commitAllowed({
    repo,
    workTree: files !== repo ? files : undefined,
    branch,
    baseSha,
    deliverablePaths: path ? [path] : [],
    // Without its tree, nothing the agent had may be taken for deleted.
    allowGlobs: ctx.sandbox && !ctx.tree ? [] : profile.commitPaths,
    // Earlier handoffs are immutable: every other file in the handoff folder is refused.
    forbiddenGlobs: [
      `${HANDOFF_DIR}/!(${own}.md|${own}.partial.md)`,
      `${HANDOFF_DIR}/*/**`,
      ...TRACKER_DIRS.map((dir) => `${dir}/**`),
      job.workflowPath
    ],
    configGivenAt: job.trustedCommit,
    author: job.author,
    committer: job.committer,
    screen: commitScreen(secrets, path ? [path] : [], withheld),
    message: `itervox(${profile.name}): ${outcome} stage for ${stage.issue.id}`,
    trailers: stageTrailers({
      profile: profile.name,
      run: stage.run,
      outcome,
      key: stage.key,
      handoff: path ?? undefined,
      reason,
      provenance: stage.key
        ? encodeProvenance(stageProvenance(stage, stage.key, outcome, end.agent, cost))
        : undefined
    })
  }).finally(async () => {
    if (!ctx.sandbox?.inPlace) return
    // The checkout's own files were the agent's: what it left there goes, the runner's come back.
    for (const kept of await settleInPlace(ctx.sandbox.inPlace)) {
      warnings.push(
        `an untracked file of the checkout stays in ${kept}: the agent put a symlink in its way`
      )
    }
  })
  const commit = ctx.trackerFiles
    ? {
        ...committed,
        dropped: withoutUntouchedTrackerFiles(repo, ctx.trackerFiles, committed.dropped)
      }
    : committed
  if (!ctx.sandbox && job.trustedCommit) {
    await restoreBranchConfig({
      repo,
      head: commit.sha ?? baseSha,
      trustedCommit: job.trustedCommit,
      refused: commit.dropped.map((d) => d.path).filter(isAgentConfig)
    })
  }
  const committedPath = path && commit.committed.includes(path) ? path : null
  const refused = commit.dropped.find((d) => d.path === path)
  if (refused) warnings.push(`${path} was not committed: ${refused.reason}`)
  return {
    outcome,
    reason,
    agent: end.agent,
    cost: cost.costUsd !== undefined ? cost : undefined,
    handoffPath: committedPath,
    commit,
    gitDir,
    withheld,
    warnings
  }
}

function stageProvenance(
  stage: StageContext['stage'],
  key: StageKey,
  outcome: StageOutcome,
  agent: AgentRunResult | undefined,
  priced: PricedRun
): Provenance {
  const stats = agent?.stats ?? {}
  return {
    v: 1,
    profile: stage.profile.name,
    state: key.state,
    kind: key.kind,
    reason: stage.handoffReason,
    outcome,
    attempt: key.attempt,
    run: stage.run,
    runUrl: stage.runUrl,
    startedAt: stage.startedAt.toISOString(),
    endedAt: new Date().toISOString(),
    turns: stats.turns,
    inputTokens: stats.inputTokens,
    outputTokens: stats.outputTokens,
    ...priced
  }
}

/** A stand-in for a tree the agent did not leave: empty, so only the partial is in it. */
async function emptyTree(ctx: StageContext): Promise<string> {
  const dir = join(dirname(ctx.sandbox?.returnTo ?? ctx.stage.branch.repo), 'no-agent-tree')
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true, mode: 0o700 })
  return dir
}
