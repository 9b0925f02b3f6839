// The scheduled reconcile for GitHub issues: every open issue in a state that starts an
// automation is read once (its status comment's record), and what its record says it is owed
// (stage-owed.ts) is started by the same repository_dispatch the pipeline's own wake-up sends,
// once per owed step even when two reconciles overlap: a claim is taken before the dispatch.
import { knownStates, sameState } from '../config/lookup.js'
import type { WorkflowConfig } from '../config/types.js'
import { messageOf } from '../errors.js'
import { stageJobMinutes } from '../pipeline/job-timeout.js'
import { owedWake } from '../pipeline/stage-owed.js'
import { oneLine } from '../pipeline/untrusted-text.js'
import { refClaims } from './dispatch-claims.js'
import { GitHubTracker } from './github.js'
import type { GitHubClientOptions } from './github-client.js'
import { GitHubPort } from './github-port.js'

/** Who has sent which wake-up: one claim per issue and wake-up key. */
export interface DispatchClaims {
  /** The claims held now (one request for all of them). */
  held(): Promise<Array<{ issue: number; key: string }>>
  /** True when this caller now holds the claim (taken fresh, or over from a stale holder). */
  take(issue: number, key: string): Promise<boolean>
  /** Drops a claim whose wake-up has been served. */
  drop(issue: number, key: string): Promise<void>
}

interface ReconcileInput {
  api: GitHubTracker
  /** Reads each issue's record and sends its wake-up, as a stage's job does. */
  port: GitHubPort
  config: WorkflowConfig
  claims: DispatchClaims
  /** Print what would be started; take, send and drop nothing. */
  dryRun: boolean
  log: (line: string) => void
}

export interface ReconcileSummary {
  /** Open issues in a state that starts an automation. */
  issues: number
  /** Stages started (or, in a dry run, that would be). */
  started: number
  /** Issues that could not be judged or started; the log says why. */
  failed: number
  /** HTTP requests sent, retries included. */
  requests: number
}

async function reconcileIssues(o: ReconcileInput): Promise<ReconcileSummary> {
  const { api, log } = o
  const first = api.requestCount
  const held = o.dryRun ? [] : await o.claims.held()
  /** Per issue looked at: the key of the wake-up it is owed (null: none); absent when it failed. */
  const owed = new Map<number, string | null>()
  const failedIssues = new Set<number>()
  let started = 0

  for (const state of startStates(o.config)) {
    if (state.includes(',')) {
      // GitHub's label filter splits its value at commas.
      log(`"${state}": not looked at: a state label with a comma cannot be listed; rename it`)
      continue
    }
    for (const found of await api.openIssuesLabelled(state)) {
      const n = 'problem' in found ? found.number : Number(found.id)
      if (owed.has(n) || failedIssues.has(n)) continue
      const before = api.requestCount
      const cost = () => `${api.requestCount - before} requests`
      if ('problem' in found) {
        // Nothing of this issue is started until a person makes its state clear.
        owed.set(n, null)
        log(`#${n}: not started: ${oneLine(found.problem)}`)
        continue
      }
      const at = `#${n} ${found.state ?? state}`
      try {
        const record = await o.port.loadRecord(found)
        const need = owedWake({
          config: o.config,
          state: found.state,
          record,
          labels: found.labels
        })
        if ('skip' in need) {
          owed.set(n, null)
          log(`${at}: nothing to start (${need.skip}); ${cost()}`)
          continue
        }
        owed.set(n, need.key)
        const what = `${need.wake.state}, entry ${need.wake.entry}${need.wake.step ? `, step ${need.wake.step}` : ''}`
        if (o.dryRun) {
          started++
          log(`${at}: would start ${what} (${need.why})`)
          continue
        }
        if (!(await o.claims.take(n, need.key))) {
          log(`${at}: another reconcile started ${what}; ${cost()}`)
          continue
        }
        await o.port.wake(found, need.wake)
        started++
        log(`${at}: started ${what} (${need.why}); ${cost()}`)
      } catch (err) {
        failedIssues.add(n)
        owed.delete(n)
        log(`${at}: failed: ${oneLine(messageOf(err))}; ${cost()}`)
      }
    }
  }

  // A claim whose issue is now owed something else (or nothing, or is no longer open in a
  // state that starts a stage) was served: the next need has another key.
  for (const c of held) {
    if (failedIssues.has(c.issue) || owed.get(c.issue) === c.key) continue
    try {
      await o.claims.drop(c.issue, c.key)
    } catch (err) {
      log(`#${c.issue}: the claim ${c.key} stays: ${oneLine(messageOf(err))}`)
    }
  }
  return {
    issues: owed.size + failedIssues.size,
    started,
    failed: failedIssues.size,
    requests: api.requestCount - first
  }
}

export interface RepositoryReconcile {
  config: WorkflowConfig
  client: GitHubClientOptions
  owner: string
  repo: string
  serverUrl: string
  /** Who claims wake-ups: the run's id, or `cli`. */
  by: string
  /** A tree the repository has (the default branch head's); asked of the API when absent. */
  tree?: string
  dryRun: boolean
  /** The stop switch for the whole repository (the action's `paused` input): nothing starts. */
  paused?: boolean
  log: (line: string) => void
  /** Default: the stage job's timeout, as init writes it. */
  staleAfterMs?: number
  now?: () => Date
}

/** The reconcile for one repository, with the GitHub client, port and claims it needs. */
export async function reconcileRepository(o: RepositoryReconcile): Promise<ReconcileSummary> {
  if (o.paused) {
    // Held stages stay owed in their records: the first reconcile after the switch is off starts them.
    o.log('reconcile: the repository is paused (ITERVOX_PAUSED); nothing started')
    return { issues: 0, started: 0, failed: 0, requests: 0 }
  }
  const api = new GitHubTracker({
    ...o.client,
    owner: o.owner,
    repo: o.repo,
    states: knownStates(o.config)
  })
  const port = new GitHubPort({
    api,
    config: o.config,
    owner: o.owner,
    repo: o.repo,
    serverUrl: o.serverUrl,
    runId: o.by,
    runUrl: o.serverUrl,
    chain: 'dispatch'
  })
  const refs = api.refs()
  const claims = refClaims({
    refs,
    tree: async () =>
      o.tree ?? refs.treeOf(await api.branchHead((await api.getRepo()).defaultBranch)),
    by: o.by,
    staleAfterMs: o.staleAfterMs ?? stageJobMinutes(o.config).job * 60_000,
    ...(o.now ? { now: o.now } : {})
  })
  return reconcileIssues({ api, port, config: o.config, claims, dryRun: o.dryRun, log: o.log })
}

/** The summary line both the action and the CLI end with. */
export function summaryLine(s: ReconcileSummary, dryRun: boolean): string {
  const started = dryRun ? `${s.started} would start` : `${s.started} stages started`
  const failed = s.failed > 0 ? `, ${s.failed} failed` : ''
  return `reconcile: ${s.issues} issues looked at, ${started}${failed}, ${s.requests} requests`
}

/** Every state an enabled automation starts in, once each, as WORKFLOW.md spells it. */
function startStates(config: WorkflowConfig): string[] {
  return config.automations
    .filter((a) => a.enabled)
    .flatMap((a) => a.states)
    .filter((s, i, all) => all.findIndex((t) => sameState(t, s)) === i)
}
