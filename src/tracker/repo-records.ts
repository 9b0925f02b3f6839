// The record of each issue, kept in the GitHub repository the stages run in: the ref
// `refs/itervox/records/<key>` (42, or ENG-123 for Linear) points at a chain of tiny commits whose
// messages hold the record's JSON (github-refs.ts). Not in the tracker: a person can delete or
// edit any comment there (the status comment is only a view of the record), and a job (or a
// reconcile) must read the record while Linear is unreachable. Each save
// is a fast-forward from the head this store last read, so a second writer never silently
// replaces what another wrote: the loser re-reads, and unless the record there is already the
// one it meant to write, it fails (RecordConflictError) and its job says so.
import * as z from '../zod.js'
import { UserError } from '../errors.js'
import { parseRecord, type IssueRecord } from '../pipeline/record/record.js'
import type { GitHubRefs } from './github-refs.js'

/** Where the record of each issue is kept, by the issue's key (42, ENG-123). */
export interface IssueRecordStore {
  load(key: string): Promise<IssueRecord | null>
  save(key: string, record: IssueRecord): Promise<void>
}

const PREFIX = 'records/'
/** A GitHub issue's number or a Linear issue's key; anything else names no record of ours. */
const KEY = /^(?:[1-9][0-9]{0,9}|[A-Za-z0-9]{1,20}-[0-9]{1,10})$/
/** Records are capped where they are written (50 stages); this bounds what is read back. */
const MAX_RECORD_CHARS = 65536

/** Another job wrote the issue's record between this job's read and its write. */
export class RecordConflictError extends Error {
  override name = 'RecordConflictError'
}

export interface RepoRecordOptions {
  refs: GitHubRefs
  /** A tree that exists in the repository, for the first commit of a record. */
  tree: () => Promise<string>
  now?: () => Date
}

export class RepoRecordStore implements IssueRecordStore {
  /** Per key: the head last read or written (null: there was no record). */
  private readonly heads = new Map<string, string | null>()
  /** Every record's head, when listed at once (preload). */
  private listed: Map<string, string> | undefined
  private tree: Promise<string> | undefined

  constructor(private readonly o: RepoRecordOptions) {}

  /** Reads every record's head in one request, so a reconcile's loads cost one request each. */
  async preload(): Promise<void> {
    const found = new Map((await this.o.refs.list(PREFIX)).map((h) => [h.ref, h.sha]))
    this.listed = found
  }

  /** The keys of every record `preload` listed. */
  listedKeys(): string[] {
    return [...(this.listed?.keys() ?? [])].map((ref) => ref.slice(PREFIX.length))
  }

  async load(key: string): Promise<IssueRecord | null> {
    const ref = refOf(key)
    const head = this.listed ? (this.listed.get(ref) ?? null) : await this.headOf(ref)
    this.heads.set(key, head)
    return head === null ? null : this.readAt(key, head)
  }

  async save(key: string, record: IssueRecord): Promise<void> {
    const ref = refOf(key)
    if (JSON.stringify(record).length > MAX_RECORD_CHARS) {
      throw new Error(`the record of ${key} is longer than ${MAX_RECORD_CHARS} characters`)
    }
    let head = this.heads.get(key)
    if (head === undefined) head = await this.headOf(ref)
    const at = (this.o.now?.() ?? new Date()).toISOString()
    this.tree ??= this.o.tree()
    const w = { tree: await this.tree, at }
    const written =
      head === null
        ? await this.o.refs.create(ref, record, w)
        : await this.o.refs.advance(ref, head, record, w)
    if (written) {
      this.heads.set(key, written)
      return
    }
    // Lost the race (or the answer): the record there now is either the one meant, or another
    // job's, which is not overwritten.
    const now = await this.headOf(ref)
    const there = now === null ? null : await this.readAt(key, now)
    if (now !== null && JSON.stringify(there) === JSON.stringify(parseRecord(record))) {
      this.heads.set(key, now)
      return
    }
    throw new RecordConflictError(
      `the record of ${key} (refs/itervox/${ref}) was changed by another job meanwhile; re-run this job to go on from it`
    )
  }

  private async headOf(ref: string): Promise<string | null> {
    return (await this.o.refs.list(ref)).find((h) => h.ref === ref)?.sha ?? null
  }

  /** The record at `head`; one that is not ours (too long, not JSON, not a record) is an error. */
  private async readAt(key: string, head: string): Promise<IssueRecord> {
    const c = await this.o.refs.read(head, z.unknown(), MAX_RECORD_CHARS)
    const record = c.data === undefined ? null : parseRecord(c.data)
    if (!record) {
      throw new UserError(
        `refs/itervox/${refOf(key)} holds no record this action wrote; delete the ref (and the status comment, which a record from before the ref may still hold) to start the issue's pipeline afresh`
      )
    }
    return record
  }
}

function refOf(key: string): string {
  if (!KEY.test(key)) throw new Error(`${JSON.stringify(key)} is not an issue number or key`)
  return PREFIX + key
}
