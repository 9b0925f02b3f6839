// agent.max_concurrent_agents on GitHub: slots `refs/itervox/slots/<k>` (k = 1..max) whose head
// commit says who holds it, and a queue `refs/itervox/queue/<issue>` of stages waiting for one.
// agent.max_concurrent_agents_by_state is a pool of its own per state, `refs/itervox/
// state-slots/<state in hex>/<k>`, sharing the queue; its release wakes a stage of that state.
// A claim creates a missing slot (create-only) or fast-forwards a free one, or one whose holder's
// run has completed; a release fast-forwards the slot to a free child, never a blind delete, so
// a slot taken over meanwhile stays with its new holder. See github-refs.ts for why that is a
// compare-and-swap.
import { sameState } from '../config/lookup.js'
import * as z from '../zod.js'
import type { Issue, QueuedStage, Slots } from '../pipeline/ports.js'
import type { GitHubRefs, RecordCommit } from './github-refs.js'

const text = (max: number) => z.string().check(z.maxLength(max))

const holderSchema = z.object({
  state: z.enum(['held', 'free']),
  run: text(40),
  attempt: text(10),
  issue: text(40),
  at: text(40)
})
type Holder = z.infer<typeof holderSchema>

const queuedSchema = z.object({
  // A GitHub issue's number or a Linear issue's key: what the stage's wake-up names.
  issue: z.string().check(z.regex(/^(?:[1-9]\d{0,9}|[A-Za-z0-9]{1,20}-[0-9]{1,10})$/)),
  state: text(200),
  entry: z.int().check(z.minimum(0)),
  step: z.optional(text(200)),
  at: text(40),
  /** A release has sent its wake-up; the next one looks further. */
  woken: z.boolean()
})
type Queued = z.infer<typeof queuedSchema>

/** Where a pool's slots live, and what a person reads about it. */
export interface SlotPool {
  /** The refs' prefix under refs/itervox/, ending in `/`. */
  prefix: string
  /** The WORKFLOW.md key that sets it. */
  key: string
  /** A state's pool serves only stages of that state. */
  state?: string
}

/** Every pool's refs start with one of these (for the post step and the reconcile). */
const POOL_ROOTS = ['slots/', 'state-slots/']

const AGENTS_POOL: SlotPool = { prefix: 'slots/', key: 'agent.max_concurrent_agents' }

/** The pool of agent.max_concurrent_agents_by_state for `state` (any spelling of it). */
export function statePool(state: string): SlotPool {
  const hex = Buffer.from(state.toLowerCase()).toString('hex').slice(0, 180)
  return {
    prefix: `state-slots/${hex}/`,
    key: `agent.max_concurrent_agents_by_state "${state}"`,
    state
  }
}

export interface GitHubSlotsOptions {
  refs: GitHubRefs
  max: number
  /** Default: agent.max_concurrent_agents's. */
  pool?: SlotPool
  /** This job's run; `id` is GitHub's run id. */
  run: { id: string; attempt: string }
  /** A commit on GitHub whose tree the first commit of a new slot reuses. */
  baseCommit: string
  /** Whether a run has ended (completed, or GitHub no longer knows it). */
  runEnded: (runId: string) => Promise<boolean>
  /** Starts a queued stage (the pipeline's own repository_dispatch). */
  wake: (issue: string, stage: QueuedStage) => Promise<void>
  log: (line: string) => void
  now?: () => Date
}

export class GitHubSlots implements Slots {
  readonly max: number
  private held: { ref: string; sha: string; tree: string; issue: string } | undefined
  private tree: string | undefined
  /** Runs seen still running: asked once per job. */
  private readonly alive = new Set<string>()
  /** Holder commits read, by sha: a commit never changes, so the look after queueing is free. */
  private readonly holders = new Map<string, Promise<RecordCommit<Holder>>>()

  constructor(private readonly o: GitHubSlotsOptions) {
    this.max = o.max
    this.pool = o.pool ?? AGENTS_POOL
  }

  readonly pool: SlotPool

  describe(): string {
    return `all ${this.max} agent slot(s) of ${this.pool.key} are taken`
  }

  async claim(found: Issue, stage: QueuedStage, wasQueued: boolean): Promise<boolean> {
    // What the stage's wake-up names: a GitHub issue's number, a Linear issue's key.
    const issue = {
      id: /^[A-Za-z0-9]{1,20}-[0-9]{1,10}$/.test(found.identifier) ? found.identifier : found.id
    }
    if (await this.take(issue.id)) {
      if (wasQueued) await this.dequeue(issue.id)
      return true
    }
    await this.enqueue(issue.id, stage)
    // A slot freed between the look and the enqueue: its release may not have seen this entry.
    if (await this.take(issue.id)) {
      await this.dequeue(issue.id)
      return true
    }
    return false
  }

  async release(o: { wake?: boolean } = {}): Promise<void> {
    const h = this.held
    if (!h) return
    this.held = undefined
    const moved = await this.o.refs.advance(
      h.ref,
      h.sha,
      this.doc('free', h.issue),
      this.write(h.tree)
    )
    if (!moved) this.o.log(`agent slot ${h.ref} was taken over meanwhile; left it to its holder`)
    if (o.wake !== false) await wakeOldest(this.o, this.pool.state)
  }

  private async take(issue: string): Promise<boolean> {
    const prefix = this.pool.prefix
    const heads = new Map((await this.o.refs.list(prefix)).map((h) => [h.ref, h.sha]))
    const busy: { ref: string; sha: string; tree: string; holder: Holder }[] = []
    for (let k = 1; k <= this.max; k++) {
      const ref = `${prefix}${k}`
      const head = heads.get(ref)
      if (!head) {
        const tree = (this.tree ??= await this.o.refs.treeOf(this.o.baseCommit))
        const sha = await this.o.refs.create(ref, this.doc('held', issue), this.write(tree))
        if (sha) return this.took(ref, sha, tree, issue)
        continue
      }
      let read = this.holders.get(head)
      if (!read) this.holders.set(head, (read = this.o.refs.read(head, holderSchema)))
      const c = await read
      this.tree ??= c.tree
      const h = c.data
      const mine = h?.run === this.o.run.id
      if (mine && h.attempt === this.o.run.attempt && h.issue === issue && h.state === 'held') {
        // This job's own claim, whose answer was lost.
        return this.took(ref, head, c.tree, issue)
      }
      // A document that is not a holder's, or an earlier attempt of this run (GitHub re-runs a
      // job only once it ended), holds nothing.
      if (!h || h.state === 'free' || mine) {
        if (await this.advanceTo(ref, head, c.tree, issue)) return true
        continue
      }
      busy.push({ ref, sha: head, tree: c.tree, holder: h })
    }
    for (const b of busy) {
      if (this.alive.has(b.holder.run)) continue
      if (!(await this.o.runEnded(b.holder.run))) {
        this.alive.add(b.holder.run)
        continue
      }
      this.o.log(
        `agent slot ${b.ref}: run ${b.holder.run} has ended without giving it back; taking it`
      )
      if (await this.advanceTo(b.ref, b.sha, b.tree, issue)) return true
    }
    return false
  }

  private async advanceTo(
    ref: string,
    from: string,
    tree: string,
    issue: string
  ): Promise<boolean> {
    const sha = await this.o.refs.advance(ref, from, this.doc('held', issue), this.write(tree))
    return sha ? this.took(ref, sha, tree, issue) : false
  }

  private took(ref: string, sha: string, tree: string, issue: string): true {
    this.held = { ref, sha, tree, issue }
    this.o.log(`holds agent slot ${ref} of ${this.max}`)
    return true
  }

  private async enqueue(issue: string, stage: QueuedStage): Promise<void> {
    const tree = (this.tree ??= await this.o.refs.treeOf(this.o.baseCommit))
    const doc: Queued = { issue, ...stage, at: this.now(), woken: false }
    const ref = `queue/${issue}`
    if (await this.o.refs.create(ref, doc, this.write(tree))) return
    // Queued before (and woken, or this is a re-run): back to waiting, keeping its place.
    const head = (await this.o.refs.list(ref)).find((h) => h.ref === ref)
    if (!head) return this.enqueue(issue, stage)
    const was = (await this.o.refs.read(head.sha, queuedSchema)).data
    const again = { ...doc, at: was?.at ?? doc.at }
    await this.o.refs.advance(ref, head.sha, again, this.write(tree))
  }

  private async dequeue(issue: string): Promise<void> {
    // Only this issue's jobs (one at a time) create or remove its entry.
    await this.o.refs.remove(`queue/${issue}`)
  }

  private doc(state: Holder['state'], issue: string): Holder {
    return { state, run: this.o.run.id, attempt: this.o.run.attempt, issue, at: this.now() }
  }

  private write(tree: string) {
    return { tree, at: this.now() }
  }

  private now(): string {
    return (this.o.now?.() ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z')
  }
}

/**
 * Gives back the slot a run holds (the post step of a cancelled or killed stage), then wakes the
 * oldest queued stage. Returns whether it held one.
 */
export async function releaseRunSlot(
  o: Pick<GitHubSlotsOptions, 'refs' | 'run' | 'wake' | 'log'>
): Promise<boolean> {
  let released = false
  const heads = (await Promise.all(POOL_ROOTS.map((root) => o.refs.list(root)))).flat()
  for (const head of heads) {
    const c = await o.refs.read(head.sha, holderSchema)
    const h = c.data
    if (h?.state !== 'held' || h.run !== o.run.id || h.attempt !== o.run.attempt) continue
    const at = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
    await o.refs.advance(head.ref, head.sha, { ...h, state: 'free', at }, { tree: c.tree, at })
    o.log(`gave back agent slot ${head.ref}`)
    released = true
  }
  if (released) await wakeOldest(o)
  return released
}

/**
 * Wakes the queued stage waiting longest (of `state`, for a state's pool), marking its entry so
 * no other release wakes it.
 */
async function wakeOldest(
  o: Pick<GitHubSlotsOptions, 'refs' | 'wake' | 'log'>,
  state?: string
): Promise<void> {
  const entries = await o.refs.list('queue/')
  const read = await Promise.all(
    entries.map(async (e) => ({ ...e, c: await o.refs.read(e.sha, queuedSchema) }))
  )
  const waiting = read
    .filter((e) => e.c.data && !e.c.data.woken && e.ref === `queue/${e.c.data.issue}`)
    .filter((e) => state === undefined || sameState(e.c.data!.state, state))
    .sort((a, b) => (a.c.data!.at < b.c.data!.at ? -1 : a.c.data!.at > b.c.data!.at ? 1 : 0))
  for (const e of waiting) {
    const q = e.c.data!
    const at = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
    // Another release may have woken it first: the one whose update lands sends the wake-up.
    if (!(await o.refs.advance(e.ref, e.sha, { ...q, woken: true }, { tree: e.c.tree, at }))) {
      continue
    }
    o.log(`woke the queued stage of issue #${q.issue}`)
    await o.wake(q.issue, {
      state: q.state,
      entry: q.entry,
      ...(q.step !== undefined ? { step: q.step } : {})
    })
    return
  }
}

/**
 * The issues whose stage holds an agent slot for a run still going (for the reconcile, which
 * must not start those a second time): one listing, one read per slot, one look per holder run.
 */
export async function issuesHoldingSlots(
  refs: GitHubRefs,
  runEnded: (runId: string) => Promise<boolean>
): Promise<Set<string>> {
  const holding = new Set<string>()
  const heads = (await Promise.all(POOL_ROOTS.map((root) => refs.list(root)))).flat()
  for (const head of heads) {
    const h = (await refs.read(head.sha, holderSchema)).data
    if (h?.state === 'held' && !(await runEnded(h.run))) holding.add(h.issue)
  }
  return holding
}
