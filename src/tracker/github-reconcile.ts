// The scheduled reconcile of one repository (reconcile.ts does the judging): for GitHub issues,
// every open issue labelled with a state that starts an automation; for Linear issues
// (tracker.kind linear), the team's issues in those states. Their records are read from the
// repository (repo-records.ts: one listing of every record, then one read per issue). Claims and
// wake-ups are GitHub's.
import { knownStates } from '../config/lookup.js'
import type { WorkflowConfig } from '../config/types.js'
import { stageJobMinutes } from '../pipeline/stage/job-timeout.js'
import { NEEDS_ATTENTION_LABEL } from '../pipeline/names.js'
import {
  escalateVanished,
  vanishedState,
  vanishedWhy
} from '../pipeline/decision/vanished-state.js'
import { PAUSED_LABEL } from '../pipeline/record/pause.js'
import { cellText, oneLine } from '../pipeline/untrusted-text.js'
import { messageOf } from '../errors.js'
import { authorizeActor } from './authorize.js'
import { refCronMarks } from './cron-marks.js'
import { refClaims } from './dispatch-claims.js'
import { GitHubApi } from './github-api.js'
import type { GitHubClientOptions } from './github-client.js'
import { GitHubTracker } from './github-tracker.js'
import { issuesHoldingSlots } from './github-slots.js'
import { linearSource } from './linear-reconcile.js'
import { reconcileIssues, type ReconcileSummary } from './reconcile.js'
import type { ReconcileSource } from './reconcile-source.js'
import { RepoRecordStore } from './repo-records.js'

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
  /** For tracker.kind linear: the endpoint (LINEAR_API_URL or Linear's own). */
  linearUrl?: string
  dryRun: boolean
  /** The issue that closed, for the `issues: closed` job: only its dependants are looked at. */
  closed?: string
  /** The stop switch for the whole repository (the action's `paused` input): nothing starts. */
  paused?: boolean
  log: (line: string) => void
  /** Default: the stage job's timeout, as init writes it. */
  staleAfterMs?: number
  now?: () => Date
}

/** The reconcile for one repository, with the clients, source and claims it needs. */
export async function reconcileRepository(o: RepositoryReconcile): Promise<ReconcileSummary> {
  if (o.paused) {
    // Held stages stay owed in their records: the first reconcile after the switch is off starts them.
    o.log('reconcile: the repository is paused (ITERVOX_PAUSED); nothing started')
    return { issues: 0, started: 0, failed: 0, requests: 0 }
  }
  const api = new GitHubApi({
    ...o.client,
    owner: o.owner,
    repo: o.repo,
    states: knownStates(o.config)
  })
  const refs = api.refs()
  let tree: Promise<string> | undefined
  const treeOf = () =>
    (tree ??= o.tree
      ? Promise.resolve(o.tree)
      : api
          .getRepo()
          .then((r) => api.branchHead(r.defaultBranch))
          .then((head) => refs.treeOf(head)))
  const records = new RepoRecordStore({ refs, tree: treeOf })
  const port = new GitHubTracker({
    api,
    records,
    config: o.config,
    owner: o.owner,
    repo: o.repo,
    serverUrl: o.serverUrl,
    runId: o.by,
    runUrl: o.serverUrl,
    chain: 'dispatch'
  })
  const claims = refClaims({
    refs,
    tree: treeOf,
    by: o.by,
    staleAfterMs: o.staleAfterMs ?? stageJobMinutes(o.config).job * 60_000,
    ...(o.now ? { now: o.now } : {})
  })
  const source =
    o.config.tracker.kind === 'linear'
      ? await linearSource({
          config: o.config,
          github: { api, port },
          url: o.linearUrl,
          records
        })
      : githubSource(api, port, records, o.config, o.dryRun)
  const cron = o.config.automations.some((a) => a.enabled && a.trigger.type === 'cron')
  return reconcileIssues({
    source,
    config: o.config,
    claims,
    ...(cron
      ? {
          cron: {
            marks: refCronMarks({ refs, tree: treeOf, by: o.by, ...(o.now ? { now: o.now } : {}) }),
            now: o.now?.() ?? new Date()
          }
        }
      : {}),
    ...(o.config.agent.maxConcurrentAgents !== undefined
      ? { holdingSlots: () => issuesHoldingSlots(refs, (id) => api.workflowRunEnded(id)) }
      : {}),
    ...(o.closed !== undefined ? { closed: o.closed } : {}),
    dryRun: o.dryRun,
    log: o.log
  })
}

/**
 * Open issues whose label is a state WORKFLOW.md no longer has: the state listings cannot find
 * them. Only an open issue with a record and no known state is read (one listing of the open
 * issues, then its record); each is escalated on the issue (not in a dry run) and reported as
 * a problem.
 */
async function vanished(
  api: GitHubApi,
  port: GitHubTracker,
  records: RepoRecordStore,
  config: WorkflowConfig,
  dryRun: boolean
): Promise<Array<{ key: string; label: string; problem: string }>> {
  const recorded = new Set(records.listedKeys())
  if (recorded.size === 0) return []
  const out: Array<{ key: string; label: string; problem: string }> = []
  for (const found of await api.openIssues()) {
    if ('problem' in found || found.state !== null || !recorded.has(found.id)) continue
    const record = await port.loadRecord(found)
    const gone = vanishedState(config, found, record)
    if (gone === undefined || !record) continue
    if (!dryRun) await escalateVanished(port, found, record, gone, config)
    const said = dryRun ? 'would escalate' : 'escalated'
    out.push({
      key: found.id,
      label: found.identifier,
      problem: `${vanishedWhy(gone)}; ${said} (${NEEDS_ATTENTION_LABEL})`
    })
  }
  return out
}

/** Open GitHub issues by state label, one listing per state. */
function githubSource(
  api: GitHubApi,
  port: GitHubTracker,
  records: RepoRecordStore,
  config: WorkflowConfig,
  dryRun: boolean
): ReconcileSource {
  return {
    async list(states, log) {
      await records.preload()
      const out: Awaited<ReturnType<ReconcileSource['list']>> = []
      for (const state of states) {
        if (state.includes(',')) {
          // GitHub's label filter splits its value at commas.
          log(`"${state}": not looked at: a state label with a comma cannot be listed; rename it`)
          continue
        }
        for (const found of await api.openIssuesLabelled(state)) {
          out.push(
            'problem' in found
              ? { key: String(found.number), label: `#${found.number}`, problem: found.problem }
              : found
          )
        }
      }
      // A listing of every open issue: one that fails is said, and the states' own go on.
      try {
        out.push(...(await vanished(api, port, records, config, dryRun)))
      } catch (err) {
        log(`issues whose state left WORKFLOW.md: not looked for: ${oneLine(messageOf(err))}`)
      }
      return out
    },
    keyOf: (issue) => issue.id,
    // A lost label event is repaired only for a person who could have started the stage
    // themselves: the job the event would have started authorises them, and so does this.
    async mayStart(issue, state) {
      const by = await api.labelledBy(Number(issue.id), state)
      if (!by) return { allowed: false, reason: `no event says who labelled it "${state}"` }
      return authorizeActor({
        tracker: api,
        actor: by.login,
        actorType: by.type,
        allowedBots: config.tracker.allowedBots
      })
    },
    // The stop switch is lifted only by someone who may start stages, whatever the route: the
    // `unlabeled` event's job authorises its sender, and this asks who sent it.
    async mayResume(issue) {
      const by = await api.labelledBy(Number(issue.id), PAUSED_LABEL, 'unlabeled')
      if (!by) return { allowed: false, reason: `no event says who took ${PAUSED_LABEL} off` }
      const may = await authorizeActor({
        tracker: api,
        actor: by.login,
        actorType: by.type,
        allowedBots: config.tracker.allowedBots
      })
      if (may.allowed) return may
      return { allowed: false, reason: `${PAUSED_LABEL} was taken off, but ${may.reason}` }
    },
    async keepPaused(issue, why) {
      await api.addLabels(Number(issue.id), [PAUSED_LABEL])
      await api.comment(
        Number(issue.id),
        `**Still paused:** ${cellText(why, 300)}. The label is back; someone with write access may take it off to resume the pipeline.`
      )
    },
    async mayReopen(pr) {
      const by = await api.reopenedBy(pr)
      if (!by) return { allowed: false, reason: `no event says who reopened pull request #${pr}` }
      const may = await authorizeActor({
        tracker: api,
        actor: by.login,
        actorType: by.type,
        allowedBots: config.tracker.allowedBots
      })
      if (may.allowed) return may
      return { allowed: false, reason: `pull request #${pr} was reopened, but ${may.reason}` }
    },
    loadRecord: (issue) => port.loadRecord(issue),
    pullState: (pr) => port.pullState(pr),
    blockers: (issue) => port.blockers(issue),
    blocking: async (key) =>
      (await api.dependencies(Number(key), 'blocking')).map((d) => String(d.number)),
    moveState: (issue, from, to) => port.moveState(issue, from, to),
    wake: (issue, w) => port.wake(issue, w),
    get requestCount() {
      return api.requestCount
    }
  }
}
