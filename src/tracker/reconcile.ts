// The scheduled reconcile, for any tracker whose stages are woken by repository_dispatch: every
// issue in a state that starts an automation is read once (its record), and what its record says
// it is owed (stage-owed.ts) is started by the pipeline's own wake-up, once per owed step even
// when two reconciles overlap: a claim is taken before the dispatch.
import { sameState } from '../config/lookup.js'
import type { WorkflowConfig } from '../config/types.js'
import { messageOf } from '../errors.js'
import { heldByLabel, PAUSED_LABEL } from '../pipeline/record/pause.js'
import { owedWake } from '../pipeline/record/stage-owed.js'
import { owedBacklogRun } from '../pipeline/triggers/moved-to-backlog.js'
import { oneLine } from '../pipeline/untrusted-text.js'
import { resolveBlockers } from './blockers-pass.js'
import { fireCron, type CronMarks } from './cron-fire.js'
import type { DispatchClaims, ReconcileSource } from './reconcile-source.js'

export interface ReconcileInput {
  source: ReconcileSource
  config: WorkflowConfig
  claims: DispatchClaims
  /** Issues whose stage holds an agent slot now (agent.max_concurrent_agents); asked once. */
  holdingSlots?: () => Promise<Set<string>>
  /** The slots cron automations fired (cron-fire.ts); absent: no cron pass. */
  cron?: { marks: CronMarks; now: Date }
  /** Only the dependants of this closed issue (its key): the `issues: closed` job. */
  closed?: string
  /** Print what would be started; take, send and drop nothing. */
  dryRun: boolean
  log: (line: string) => void
}

export interface ReconcileSummary {
  /** Issues in a state that starts an automation. */
  issues: number
  /** Stages started (or, in a dry run, that would be). */
  started: number
  /** Issues that could not be judged or started (or cron automations); the log says why. */
  failed: number
  /** HTTP requests sent, retries included. */
  requests: number
}

export async function reconcileIssues(o: ReconcileInput): Promise<ReconcileSummary> {
  const { source, log } = o
  const first = source.requestCount
  // Before the owed stages: an issue moved on leaves the state whose stage it was owed.
  const resolved = await resolveBlockers({ ...o, source })
  if (o.closed !== undefined) {
    return { issues: 0, ...resolved, requests: source.requestCount - first }
  }
  const held = o.dryRun ? [] : await o.claims.held()
  /** Per issue looked at: the key of the wake-up it is owed (null: none); absent when it failed. */
  const owed = new Map<string, string | null>()
  const failedIssues = new Set<string>()
  let started = 0
  let holding: Promise<Set<string>> | undefined

  started += resolved.started
  const states = startStates(o.config, source.seesBacklogMoves === true)
  for (const found of await source.list(states, log)) {
    const n = 'problem' in found ? found.key : source.keyOf(found)
    if (owed.has(n) || failedIssues.has(n)) continue
    const before = source.requestCount
    const cost = () => counted(source.requestCount - before, 'request')
    if ('problem' in found) {
      // Nothing of this issue is started until a person makes its state clear.
      owed.set(n, null)
      log(`${found.label}: not started: ${oneLine(found.problem)}`)
      continue
    }
    const at = `${found.identifier} ${found.state ?? ''}`.trim()
    try {
      const record = await source.loadRecord(found)
      // Paused by a person's closing of the pull request: it resumes once it is open again.
      const closed = record?.pausedByClosedPull
      const pull = closed === undefined ? undefined : await source.pullState?.(closed)
      if (pull === 'closed') {
        owed.set(n, null)
        log(
          `${at}: nothing to start (pull request #${closed} is closed; reopen it to resume); ${cost()}`
        )
        continue
      }
      // Reopening lifts the pause only for someone who may start stages, as its own event does.
      if (closed !== undefined && pull === 'open' && source.mayReopen) {
        const may = await source.mayReopen(closed)
        if (!may.allowed) {
          owed.set(n, null)
          log(`${at}: not resumed: ${oneLine(may.reason)}; ${cost()}`)
          continue
        }
      }
      const w = record?.waiting
      const reply =
        source.findReply && record && w && w.entry === record.entry
          ? await source.findReply(found, w)
          : null
      const need =
        owedBacklogRun(o.config, found, record) ??
        owedWake({
          config: o.config,
          state: found.state,
          record,
          labels: found.labels,
          ...(reply ? { reply } : {})
        })
      if ('skip' in need) {
        owed.set(n, null)
        log(`${at}: nothing to start (${need.skip}); ${cost()}`)
        continue
      }
      owed.set(n, need.key)
      if (record && heldByLabel(record) && source.mayResume) {
        const may = await source.mayResume(found)
        if (!may.allowed) {
          owed.set(n, null)
          if (!o.dryRun) await source.keepPaused?.(found, may.reason)
          const back = o.dryRun ? 'would put' : 'put'
          log(
            `${at}: not resumed: ${oneLine(may.reason)}; ${back} the ${PAUSED_LABEL} label back; ${cost()}`
          )
          continue
        }
      }
      const what = `${need.wake.state}, entry ${need.wake.entry}${need.wake.step ? `, step ${need.wake.step}` : ''}`
      if (need.entered && source.mayStart) {
        const may = await source.mayStart(found, need.wake.state)
        if (!may.allowed) {
          owed.set(n, null)
          log(`${at}: not started: ${oneLine(may.reason)}; ${cost()}`)
          continue
        }
      }
      // Its stage runs now, and its record shows it only at its end: a wake-up would be a
      // second job for it.
      if (o.holdingSlots && (await (holding ??= o.holdingSlots())).has(n)) {
        log(`${at}: nothing to start (its stage holds an agent slot and runs); ${cost()}`)
        continue
      }
      if (o.dryRun) {
        started++
        log(`${at}: would start ${what} (${need.why})`)
        continue
      }
      if (!(await o.claims.take(n, need.key))) {
        log(`${at}: another reconcile started ${what}; ${cost()}`)
        continue
      }
      await source.wake(found, need.wake)
      started++
      log(`${at}: started ${what} (${need.why}); ${cost()}`)
    } catch (err) {
      failedIssues.add(n)
      owed.delete(n)
      log(`${at}: failed: ${oneLine(messageOf(err))}; ${cost()}`)
    }
  }

  // A claim whose issue is now owed something else (or nothing, or is no longer in a state
  // that starts a stage) was served: the next need has another key.
  for (const c of held) {
    if (failedIssues.has(c.issue) || owed.get(c.issue) === c.key) continue
    try {
      await o.claims.drop(c.issue, c.key)
    } catch (err) {
      log(`${c.issue}: the claim ${c.key} stays: ${oneLine(messageOf(err))}`)
    }
  }
  const cron = o.cron
    ? await fireCron({ ...o.cron, source, config: o.config, dryRun: o.dryRun, log })
    : { started: 0, failed: 0 }
  return {
    issues: owed.size + failedIssues.size,
    started: started + cron.started,
    failed: failedIssues.size + cron.failed + resolved.failed,
    requests: source.requestCount - first
  }
}

/** The summary line both the action and the CLI end with. */
export function summaryLine(s: ReconcileSummary, dryRun: boolean): string {
  const started = dryRun ? `${s.started} would start` : `${counted(s.started, 'stage')} started`
  const failed = s.failed > 0 ? `, ${s.failed} failed` : ''
  return `reconcile: ${counted(s.issues, 'issue')} looked at, ${started}${failed}, ${counted(s.requests, 'request')}`
}

/** `1 request`, `2 requests`. */
function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

/**
 * Every state an enabled automation starts in, once each, as WORKFLOW.md spells it; with the
 * backlog states where an automation answers moves into them and the source sees such moves.
 */
function startStates(config: WorkflowConfig, backlog: boolean): string[] {
  const on = config.automations.filter((a) => a.enabled)
  const moves = backlog && on.some((a) => a.trigger.type === 'issue_moved_to_backlog')
  return [...on.flatMap((a) => a.states), ...(moves ? config.tracker.backlogStates : [])].filter(
    (s, i, all) => all.findIndex((t) => sameState(t, s)) === i
  )
}
