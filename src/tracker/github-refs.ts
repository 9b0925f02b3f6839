// Refs in the repository as compare-and-swap records, through GitHub's git-data API. A record is
// a ref under `refs/itervox/` pointing at a chain of tiny commits whose messages hold a small JSON
// document. Creating a ref is create-only (GitHub answers 422 when it exists), and updating one
// without `force` only succeeds as a fast-forward, so a new commit made a child of the head just
// read wins only while the ref is still there: two takers of the same head, one wins.
import * as z from '../zod.js'
import type { Octokit } from './github-client.js'
import {
  explainFailure,
  GitHubAnswerLostError,
  isHttpFailure,
  apiMessage
} from './github-errors.js'
import { PARSE_ONCE } from '../parse-once.js'

/** Every record lives under this namespace; `ref` arguments are relative to it. */
const NAMESPACE = 'refs/itervox/'

/** A record's JSON is read back from a commit anyone with push access could have made. */
const MAX_MESSAGE_CHARS = 4096

/** The most any record's document may hold, whatever a caller asks for. */
const MAX_RECORD_CHARS = 65536

/** Who the record commits are by; a fixed identity and date make a commit's sha repeatable. */
const IDENT = { name: 'itervox-handoff', email: 'itervox-handoff@users.noreply.github.com' }

const PERMISSION = 'contents: write'

export interface RefHead {
  /** Relative to `refs/itervox/`, e.g. `slots/1`. */
  ref: string
  sha: string
}

/** The commit a record's ref points at. */
export interface RecordCommit<T> {
  sha: string
  tree: string
  /** Undefined when the message is not a document the schema accepts. */
  data: T | undefined
}

/** What a new record commit is made of. */
export interface RecordWrite {
  /** A tree that exists in the repository (record commits carry no files of their own). */
  tree: string
  /** ISO time, part of the commit, so sending the same write twice makes the same commit. */
  at: string
}

export class GitHubRefs {
  constructor(
    private readonly octokit: Octokit,
    private readonly where: { owner: string; repo: string }
  ) {}

  /** The records whose ref starts with `prefix` (one request). */
  async list(prefix: string): Promise<RefHead[]> {
    const full = NAMESPACE + prefix
    const data = await this.call(`list the refs ${full}`, 'contents: read', async () => {
      const res = await this.octokit.request('GET /repos/{owner}/{repo}/git/matching-refs/{ref}', {
        ...this.where,
        ref: full.slice('refs/'.length)
      })
      return res.data
    })
    return data
      .filter((r) => r.ref.startsWith(full) && r.object.type === 'commit')
      .map((r) => ({ ref: r.ref.slice(NAMESPACE.length), sha: r.object.sha }))
  }

  /**
   * The commit `sha` and the document in its message (one request); a message longer than
   * `maxChars` (at most MAX_RECORD_CHARS) is no document.
   */
  async read<S extends z.core.$ZodType>(
    sha: string,
    schema: S,
    maxChars = MAX_MESSAGE_CHARS
  ): Promise<RecordCommit<z.output<S>>> {
    const data = await this.call(`read the record commit ${sha}`, 'contents: read', async () => {
      const res = await this.octokit.request('GET /repos/{owner}/{repo}/git/commits/{commit_sha}', {
        ...this.where,
        commit_sha: sha
      })
      return res.data
    })
    const cap = Math.min(maxChars, MAX_RECORD_CHARS)
    return { sha: data.sha, tree: data.tree.sha, data: parseRecord(data.message, schema, cap) }
  }

  /** The tree of a commit known to exist, for the first commit of a new record (one request). */
  async treeOf(commit: string): Promise<string> {
    const data = await this.call(`read the commit ${commit}`, 'contents: read', async () => {
      const res = await this.octokit.request('GET /repos/{owner}/{repo}/git/commits/{commit_sha}', {
        ...this.where,
        commit_sha: commit
      })
      return res.data
    })
    return data.tree.sha
  }

  /**
   * Creates the record `ref` holding `doc` (two requests). Returns the new head, or undefined
   * when the ref already exists (someone else holds it).
   */
  async create(ref: string, doc: unknown, w: RecordWrite): Promise<string | undefined> {
    const sha = await this.commit(doc, w, [])
    const full = NAMESPACE + ref
    try {
      await this.octokit.request('POST /repos/{owner}/{repo}/git/refs', {
        ...this.where,
        ref: full,
        sha
      })
      return sha
    } catch (e) {
      if (isHttpFailure(e) && e.status === 422 && /already exists/i.test(apiMessage(e))) {
        return undefined
      }
      const err = explainFailure(e, `create the ref ${full}`, PERMISSION)
      // The answer was lost, not the write: the ref says whether it was made, and by whom.
      if (err instanceof GitHubAnswerLostError)
        return (await this.head(ref)) === sha ? sha : undefined
      throw err
    }
  }

  /**
   * Moves the record `ref` from the head `from` to a child of it holding `doc` (two requests).
   * Returns the new head, or undefined when the ref is no longer at `from` (or is gone).
   */
  async advance(
    ref: string,
    from: string,
    doc: unknown,
    w: RecordWrite
  ): Promise<string | undefined> {
    const sha = await this.commit(doc, w, [from])
    const full = NAMESPACE + ref
    try {
      await this.octokit.request('PATCH /repos/{owner}/{repo}/git/refs/{ref}', {
        ...this.where,
        ref: full.slice('refs/'.length),
        sha,
        force: false
      })
      return sha
    } catch (e) {
      if (
        isHttpFailure(e) &&
        e.status === 422 &&
        /not a fast.forward|does not exist/i.test(apiMessage(e))
      ) {
        return undefined
      }
      throw explainFailure(e, `update the ref ${full}`, PERMISSION)
    }
  }

  /** Deletes the record `ref`; false when it did not exist (one request). */
  async remove(ref: string): Promise<boolean> {
    const full = NAMESPACE + ref
    try {
      await this.octokit.request('DELETE /repos/{owner}/{repo}/git/refs/{ref}', {
        ...this.where,
        ref: full.slice('refs/'.length)
      })
      return true
    } catch (e) {
      if (isHttpFailure(e) && e.status === 422 && /does not exist/i.test(apiMessage(e))) {
        return false
      }
      throw explainFailure(e, `delete the ref ${full}`, PERMISSION)
    }
  }

  private async head(ref: string): Promise<string | undefined> {
    return (await this.list(ref)).find((h) => h.ref === ref)?.sha
  }

  private commit(doc: unknown, w: RecordWrite, parents: string[]): Promise<string> {
    const ident = { ...IDENT, date: w.at }
    return this.call('create a record commit', PERMISSION, async () => {
      const res = await this.octokit.request('POST /repos/{owner}/{repo}/git/commits', {
        ...this.where,
        message: JSON.stringify(doc),
        tree: w.tree,
        parents,
        author: ident,
        committer: ident,
        // Same content, same sha: a retried create cannot make a second commit.
        request: { idempotent: true }
      })
      return res.data.sha
    })
  }

  private async call<T>(doing: string, permission: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (e) {
      throw explainFailure(e, doing, permission)
    }
  }
}

/** The document in a record commit's message; undefined when it is not one `schema` accepts. */
// Generic in zod's core schema type: with zod's method API, inferring T back from a
// `z.ZodType<T>` compared the whole schema type with ZodType, which took tsc seconds.
function parseRecord<S extends z.core.$ZodType>(
  message: string,
  schema: S,
  maxChars: number
): z.output<S> | undefined {
  if (message.length > maxChars) return undefined
  let json: unknown
  try {
    json = JSON.parse(message)
  } catch {
    return undefined
  }
  const parsed = z.safeParse(schema, json, PARSE_ONCE)
  return parsed.success ? parsed.data : undefined
}
