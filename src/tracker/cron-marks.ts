// The slots each cron automation has fired, as refs in the repository (github-refs.ts):
// `refs/itervox/cron/<automation>/<slot>`, created create-only before the slot's wake-ups are
// sent, so of two reconciles that overlap only one fires a slot. The newest ref says up to
// where the schedule was judged; older ones are deleted once they are long past.
import { randomUUID } from 'node:crypto'
import type { GitHubRefs } from './github-refs.js'
import type { CronMarks } from './cron-fire.js'

const PREFIX = 'cron/'

export interface CronMarkOptions {
  refs: GitHubRefs
  /** A tree that exists in the repository (the refs' commits hold no files). */
  tree: () => Promise<string>
  /** Who fires: the run, or the CLI. A random part keeps two reconciles' commits apart. */
  by: string
  now?: () => Date
}

export function refCronMarks(o: CronMarkOptions): CronMarks {
  const by = `${o.by} ${randomUUID()}`.slice(0, 200)
  const now = o.now ?? (() => new Date())
  return {
    async list(token) {
      const here = `${PREFIX}${token}/`
      return (await o.refs.list(here))
        .map((h) => h.ref.slice(here.length))
        .filter((s) => /^\d{12}$/.test(s))
    },
    async take(token, stamp) {
      const at = now().toISOString()
      const doc = { at, by }
      return (
        (await o.refs.create(`${PREFIX}${token}/${stamp}`, doc, { tree: await o.tree(), at })) !==
        undefined
      )
    },
    async drop(token, stamp) {
      await o.refs.remove(`${PREFIX}${token}/${stamp}`)
    }
  }
}
