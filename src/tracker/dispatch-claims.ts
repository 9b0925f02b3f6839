// Claims on wake-ups, as refs in the repository (github-refs.ts): `refs/itervox/dispatch/
// <issue>/<key>` is created, create-only, before the reconcile sends that wake-up, so of two
// reconciles that overlap only one sends it. A claim older than a stage's job may take is taken
// over by a fast-forward from the head read (a lost wake-up is sent again later, once); a claim
// whose wake-up was served is deleted by the next reconcile.
import { randomUUID } from 'node:crypto'
import * as z from '../zod.js'
import type { GitHubRefs } from './github-refs.js'
import type { DispatchClaims } from './reconcile-source.js'

const PREFIX = 'dispatch/'
// A GitHub issue's number or a Linear issue's key (ENG-123).
const CLAIM = /^dispatch\/([1-9][0-9]{0,9}|[A-Za-z0-9]{1,20}-[0-9]{1,10})\/([A-Za-z0-9_-]{1,100})$/

/** A holder's document: when it claimed, and which run. Read back as untrusted. */
const holderSchema = z.object({
  at: z.string().check(z.maxLength(40)),
  by: z.string().check(z.maxLength(200))
})

export interface ClaimOptions {
  refs: GitHubRefs
  /** A tree that exists in the repository, for the first claim (record commits hold no files). */
  tree: () => Promise<string>
  /** Who claims: the run, or the CLI. A random part keeps two claimers' commits apart. */
  by: string
  /** A claim older than this (a stage job's timeout) is taken over. */
  staleAfterMs: number
  now?: () => Date
}

export function refClaims(o: ClaimOptions): DispatchClaims {
  const by = `${o.by} ${randomUUID()}`.slice(0, 200)
  const now = o.now ?? (() => new Date())
  /** Heads listed by `held`: a claim known to exist is read, never created again. */
  const heads = new Map<string, string>()
  let tree: Promise<string> | undefined
  return {
    async held() {
      const out: Array<{ issue: string; key: string }> = []
      for (const h of await o.refs.list(PREFIX)) {
        const m = CLAIM.exec(h.ref)
        if (!m) continue
        heads.set(h.ref, h.sha)
        out.push({ issue: m[1]!, key: m[2]! })
      }
      return out
    },

    async take(issue, key) {
      const ref = `${PREFIX}${issue}/${key}`
      const at = now()
      const doc = { at: at.toISOString(), by }
      let head = heads.get(ref)
      if (head === undefined) {
        tree ??= o.tree()
        if (await o.refs.create(ref, doc, { tree: await tree, at: doc.at })) return true
        head = (await o.refs.list(ref)).find((h) => h.ref === ref)?.sha
        // Dropped between our create and our look: its wake-up was served.
        if (head === undefined) return false
      }
      const holder = await o.refs.read(head, holderSchema)
      const since = holder.data ? at.getTime() - Date.parse(holder.data.at) : Number.NaN
      // A document that is not ours, or a time that is not one, holds nothing back.
      if (since <= o.staleAfterMs) return false
      return (await o.refs.advance(ref, head, doc, { tree: holder.tree, at: doc.at })) !== undefined
    },

    async drop(issue, key) {
      await o.refs.remove(`${PREFIX}${issue}/${key}`)
    }
  }
}
