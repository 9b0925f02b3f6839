// Each stage's one agent run, claimed before the agent starts: the job that runs it creates
// `refs/itervox/claims/<issue>/<entry>-<kind>-<attempt>-<round>-<resume>-<profile>`, create-only
// (github-refs.ts). Any other job for the same stage (a second delivery of the event, a manual
// run, a reconcile's wake-up, a re-run of an older job) finds the claim and runs nothing. Only a
// re-run of the holder's own run takes it over: GitHub runs one attempt of a run at a time, and
// a person asked for that re-run.
import * as z from '../zod.js'
import type { StageKey } from '../git/trailers.js'
import type { StageClaims } from '../pipeline/ports.js'
import type { GitHubRefs } from './github-refs.js'

/** The holder's document, read back as untrusted: anyone with push access can write a ref. */
const holderSchema = z.object({
  run: z.string().check(z.maxLength(100)),
  at: z.string().check(z.maxLength(40))
})

export interface StageClaimOptions {
  refs: GitHubRefs
  /** A tree that exists in the repository (claim commits hold no files). */
  tree: () => Promise<string>
  /** This job's run: `id` is the same for every attempt of the run. */
  run: { id: string; attempt: string }
  runEnded: (runId: string) => Promise<boolean>
  now?: () => Date
}

export function refStageClaims(o: StageClaimOptions): StageClaims {
  return {
    async take(key) {
      const ref = claimRef(key)
      const at = (o.now?.() ?? new Date()).toISOString()
      const doc = { run: `${o.run.id}/${o.run.attempt}`, at }
      if (await o.refs.create(ref, doc, { tree: await o.tree(), at })) return { won: true }
      const head = (await o.refs.list(ref)).find((h) => h.ref === ref)?.sha
      const holder = head === undefined ? undefined : await o.refs.read(head, holderSchema)
      if (!holder?.data) {
        // Deleted meanwhile, or not a claim of ours: nobody can say the stage did not run.
        return { won: false, holder: 'an unknown run', ended: true }
      }
      const holderRun = holder.data.run.split('/')[0] ?? ''
      if (holderRun === o.run.id) {
        const taken = await o.refs.advance(ref, holder.sha, doc, { tree: holder.tree, at })
        if (taken) return { won: true }
      }
      return { won: false, holder: holder.data.run, ended: await o.runEnded(holderRun) }
    }
  }
}

function claimRef(k: StageKey): string {
  if (!/^[A-Za-z0-9-]{1,40}$/.test(k.issue)) {
    throw new Error(`${JSON.stringify(k.issue)} is not an issue number or key`)
  }
  // A fallback profile runs as its own stage of the same entry. A name git refuses in a ref
  // (`a..b`, `.x`, `x.lock`) is written in hex; the rest as it is, for a person reading refs.
  const profile = /^[A-Za-z0-9_-]+$/.test(k.profile)
    ? k.profile
    : `x${Buffer.from(k.profile).toString('hex')}`
  // An automation's run is claimed for its event (a comment id, a pull request, a failed stage):
  // each event runs it once, however often it is delivered.
  const event = k.event ? `-${k.event.replace(/[^A-Za-z0-9-]/g, '-')}` : ''
  return `claims/${k.issue}/${k.entry}-${k.kind}${event}-${k.attempt}-${k.round}-${k.resume}-${profile}`
}
