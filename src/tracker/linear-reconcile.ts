// What the reconcile reads of a Linear team: its issues in the states that start an automation
// (one paginated listing), each issue's record from the repository (one listing of every record,
// then one read per issue) and, for a stage waiting for input, the issue's comments.
import type { WorkflowConfig } from '../config/types.js'
import { UserError } from '../errors.js'
import type { GitHubApi } from './github-api.js'
import type { GitHubTracker } from './github-tracker.js'
import { DEFAULT_LINEAR_URL, LinearApi } from './linear-api.js'
import { LinearTracker } from './linear.js'
import type { ReconcileSource } from './reconcile-source.js'
import type { RepoRecordStore } from './repo-records.js'

export async function linearSource(o: {
  config: WorkflowConfig
  github: { api: GitHubApi; port: GitHubTracker }
  url: string | undefined
  records: RepoRecordStore
}): Promise<ReconcileSource> {
  const apiKey = o.config.tracker.apiKey
  if (!apiKey) {
    throw new UserError('tracker kind linear needs an API key; add api_key: $LINEAR_API_KEY', {
      file: o.config.file
    })
  }
  const api = new LinearApi({ apiKey, url: o.url ?? DEFAULT_LINEAR_URL })
  const records = o.records
  const tracker = await LinearTracker.create({ api, config: o.config, records, github: o.github })
  return {
    async list(states, log) {
      await records.preload()
      const found = await tracker.issuesIn(states)
      if (found.truncated) {
        log(`only the first ${found.issues.length} issues in ${states.join(', ')} were looked at`)
      }
      return found.issues
    },
    keyOf: (issue) => issue.identifier,
    loadRecord: (issue) => tracker.loadRecord(issue),
    findReply: (issue, waiting) => tracker.findReply(issue, waiting),
    wake: (issue, w) => tracker.wake(issue, w),
    // Linear sends GitHub no closing event: the reconcile finds resolved blockers itself.
    blockers: (issue) => tracker.blockers(issue),
    moveState: (issue, from, to) => tracker.moveState(issue, from, to),
    seesBacklogMoves: true,
    get requestCount() {
      return tracker.requestCount
    }
  }
}
