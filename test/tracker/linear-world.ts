// A fake Linear and a fake GitHub with a LinearTracker between them, on the seed pipeline's
// Linear WORKFLOW.md (its project_slug given as the fake team's key).
import { loadWorkflowFile } from '../../src/config/load.js'
import type { WorkflowConfig } from '../../src/config/types.js'
import { GitHubApi } from '../../src/tracker/github-api.js'
import { GitHubTracker } from '../../src/tracker/github-tracker.js'
import { LinearApi } from '../../src/tracker/linear-api.js'
import { LinearTracker } from '../../src/tracker/linear.js'
import { startFakeGitHub, type FakeGitHub } from '../harness/fake-github.js'
import { FakeLinear, SEED_STATES, type FakeState } from '../harness/fake-linear.js'
import { MemoryRecordStore } from '../harness/memory-record-store.js'

const SEED = 'test/fixtures/workflows/seed/WORKFLOW.md'

function linearSeedConfig(teamKey = 'ENG'): WorkflowConfig {
  const { config } = loadWorkflowFile(SEED, { LINEAR_API_KEY: 'lin_api_seed' })
  return { ...config, tracker: { ...config.tracker, projectSlug: teamKey } }
}

export interface LinearWorld {
  linear: FakeLinear
  github: FakeGitHub
  team: ReturnType<FakeLinear['addTeam']>
  records: MemoryRecordStore
  config: WorkflowConfig
  tracker: () => Promise<LinearTracker>
  stop: () => Promise<void>
}

export async function linearWorld(
  o: { states?: Omit<FakeState, 'id'>[]; config?: WorkflowConfig } = {}
): Promise<LinearWorld> {
  const linear = await FakeLinear.start()
  const github = await startFakeGitHub()
  const team = linear.addTeam('ENG', o.states ?? SEED_STATES)
  const records = new MemoryRecordStore()
  const config = o.config ?? linearSeedConfig()
  const tracker = () => {
    const githubApi = new GitHubApi({
      token: 't',
      apiUrl: github.url,
      owner: 'octo-org',
      repo: 'demo',
      states: [],
      secondMs: 1
    })
    const port = new GitHubTracker({
      api: githubApi,
      records,
      config,
      owner: 'octo-org',
      repo: 'demo',
      serverUrl: 'https://github.com',
      runId: '1',
      runUrl: 'https://github.com/octo-org/demo/actions/runs/1',
      chain: 'dispatch'
    })
    return LinearTracker.create({
      api: new LinearApi({ apiKey: linear.apiKey, url: linear.url }),
      config,
      records,
      github: { port, api: githubApi }
    })
  }
  return {
    linear,
    github,
    team,
    records,
    config,
    tracker,
    stop: async () => {
      await linear.close()
      await github.stop()
    }
  }
}
