// Drives a pipeline through the bundled action: each repository_dispatch the fake GitHub
// records becomes the next job's event, as GitHub would deliver it, until none is left.
import { runAction, type ActionRun, type RunOptions } from '../harness/action-run.js'
import type { FakeGitHub } from '../harness/fake-github.js'
import type { Pipeline } from './pipeline-fixture.js'

// Every job gets its own run id, as on GitHub; a test that re-runs a job reuses one on purpose.
let runId = 2000

export async function drive(
  p: Pipeline,
  first: RunOptions,
  env: Record<string, string> = {},
  maxJobs = 12
): Promise<ActionRun[]> {
  const runs: ActionRun[] = []
  let next: RunOptions | undefined = { ...first, env: { ...env, ...first.env } }
  let seen = p.gh.dispatches.length
  while (next && runs.length < maxJobs) {
    runs.push(
      await runAction('main', p.sb, p.gh, {
        ...next,
        env: { GITHUB_RUN_ID: String(runId++), ...next.env }
      })
    )
    const dispatch = p.gh.dispatches[seen]
    seen = p.gh.dispatches.length
    next = dispatch ? { ...wakeUp(dispatch), env } : undefined
  }
  return runs
}

/** The repository_dispatch event GitHub delivers for a wake-up the fake GitHub recorded. */
export function wakeUp(dispatch: FakeGitHub['dispatches'][number]): RunOptions {
  return {
    event: 'repository_dispatch',
    eventOptions: {
      eventType: dispatch.eventType,
      clientPayload: dispatch.clientPayload,
      sender: 'github-actions[bot]',
      senderType: 'Bot'
    }
  }
}
