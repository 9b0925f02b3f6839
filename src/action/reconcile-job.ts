import * as core from '@actions/core'
import { UserError } from '../errors.js'
import { fetchHeads } from '../git/branch.js'
import { minimumVersion } from '../git/git.js'
import { closeSharedObjects, sharedObjects } from '../git/objects.js'
import { reconcileRepository } from '../tracker/github-reconcile.js'
import { linearEndpoint } from '../tracker/linear-api.js'
import { summaryLine } from '../tracker/reconcile.js'
import { readEvent } from './event.js'
import type { Settings } from './inputs.js'
import { writeJobSummary } from './job-summary.js'
import { loadWorkflowAt } from './workflow-source.js'

/**
 * `mode: reconcile`, and the `issues: closed` event (only the closed issue's dependants:
 * tracker/blockers-pass.ts): no agent and no checkout, for GitHub or Linear issues. WORKFLOW.md comes from the default branch's head
 * (fetched, as a stage's job fetches it), and every stage the issues' records owe is started by
 * the pipeline's own repository_dispatch. The job fails when an issue could not be judged.
 */
export async function runReconcileJob(s: Settings, closed?: number): Promise<void> {
  try {
    const git = await minimumVersion()
    if (git.warning) core.warning(git.warning)
    const branch = defaultBranchOf(s)
    const fetched = await fetchHeads({
      repo: s.workspace,
      branches: [branch],
      remoteUrl: `${s.serverUrl}/${s.repository.owner}/${s.repository.repo}.git`,
      auth: { serverUrl: s.serverUrl, token: s.token }
    })
    const head = fetched.heads.get(branch)
    if (!head)
      throw new UserError(`the default branch "${branch}" does not exist on ${fetched.remote}`)
    const { config, warnings } = await loadWorkflowAt(
      s.workspace,
      head,
      s.workflowFile,
      process.env
    )
    for (const w of warnings) core.warning(`${w.location.file}:${w.location.line}: ${w.message}`)
    if (config.tracker.kind === 'local') {
      throw new UserError(
        `${s.workflowFile}: tracker.kind is "local"; the action works on GitHub or Linear issues, so set it to github or linear`
      )
    }
    if (config.tracker.apiKey) core.setSecret(config.tracker.apiKey)
    // Claim commits carry no files: the head's tree is one GitHub has.
    const tree = await sharedObjects(s.workspace).resolve(`${head}^{tree}`)
    const summary = await reconcileRepository({
      config,
      client: { token: s.token, apiUrl: s.apiUrl, log: (l) => core.info(l) },
      owner: s.repository.owner,
      repo: s.repository.repo,
      serverUrl: s.serverUrl,
      by: `${s.runId}/${s.runAttempt}`,
      ...(tree ? { tree } : {}),
      linearUrl: linearEndpoint(process.env),
      dryRun: s.dryRun,
      ...(closed !== undefined ? { closed: String(closed) } : {}),
      paused: s.paused,
      log: (l) => core.info(l)
    })
    const line = summaryLine(summary, s.dryRun)
    core.info(line)
    await writeJobSummary(`${line}\n`)
    if (summary.failed > 0) core.setFailed(`${line}; the log says what failed`)
  } finally {
    await closeSharedObjects()
  }
}

/** A scheduled run's event names no repository; its GITHUB_REF is the default branch. */
function defaultBranchOf(s: Settings): string {
  const event = readEvent(s.eventPath)
  const repository = event.repository
  const named =
    typeof repository === 'object' && repository !== null
      ? (repository as Record<string, unknown>).default_branch
      : undefined
  if (typeof named === 'string' && named) return named
  if (s.eventName === 'schedule' && s.ref.startsWith('refs/heads/')) {
    return s.ref.slice('refs/heads/'.length)
  }
  throw new UserError(
    `the ${s.eventName} event names no default branch; run mode: reconcile on schedule, workflow_dispatch or repository_dispatch`
  )
}
