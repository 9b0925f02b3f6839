// The job loop with the real GitHub adapter (client, retries, tracker, port) against the fake
// GitHub, for every request a stage makes, each way GitHub fails, once or for the whole job.
// The git side and the agent are the in-memory stand-ins, so a scenario takes milliseconds of
// work plus the client's (shortened) backoff.
import { afterAll, describe, expect, it } from '@jest/globals'
import { runJob, type JobResult } from '../../src/pipeline/job.js'
import type { JobTrigger } from '../../src/pipeline/ports.js'
import { GitHubApi } from '../../src/tracker/github-api.js'
import { GitHubTracker, STATUS_MARKER } from '../../src/tracker/github-tracker.js'
import { readRecordFromComment } from '../../src/tracker/comment-record.js'
import { FAULTS, startFakeGitHub, type FakeGitHub, type Fault } from '../harness/fake-github.js'
import { memoryStage, MemoryWorkspace, MemoryWorld } from '../harness/memory-pipeline.js'
import { MemoryRecordStore } from '../harness/memory-record-store.js'
import { seedConfig } from './pipeline-config.js'

const config = seedConfig()
const STATES = ['Todo', 'Researching', 'Implementing', 'Reviewing', 'Done', "Won't Do"]

const REQUESTS = {
  permission: 'GET /repos/{owner}/{repo}/collaborators/{username}/permission',
  issue: 'GET /repos/{owner}/{repo}/issues/{issue_number}',
  comments: 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
  'record comment': 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
  'record update': 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
  labels: 'GET /repos/{owner}/{repo}/issues/{issue_number}/labels',
  'label move': 'PUT /repos/{owner}/{repo}/issues/{issue_number}/labels',
  'pull request': 'POST /repos/{owner}/{repo}/pulls',
  dispatch: 'POST /repos/{owner}/{repo}/dispatches'
} as const

// Whether these are sent again depends on the request (may it be repeated? did the write
// land?), so each meets every request; but a read whose answer is lost is, to the client, a
// reset (nothing was written), so reads meet the other three.
const KINDS: Record<string, () => Fault> = {
  '5xx': () => FAULTS.serverError(502),
  timeout: () => FAULTS.timeout(),
  reset: () => FAULTS.connectionReset(),
  'answer lost': () => FAULTS.answerLost()
}

// A rate limit refuses a request before GitHub acts on it, so the client resends any request
// alike, writes too (test/tracker/github-client.test.ts shows each of these resends a POST).
// Each request meets one of them, in turn, so that each meets reads and writes.
const RATE_LIMITS: Record<string, () => Fault> = {
  '403 secondary': () => FAULTS.secondaryRateLimit(1, 403),
  '403 abuse': () => FAULTS.abuseDetection(1),
  '429': () => FAULTS.tooManyRequests()
}

const counts = { scenarios: 0, held: 0, failedJobs: 0, requests: 0 }
afterAll(() => {
  process.stdout.write(
    `GitHub fault suite: ${counts.scenarios} scenarios, ${counts.held} held the invariants, ` +
      `${counts.failedJobs} jobs failed and were re-run, ${counts.requests} requests\n`
  )
})

interface Scenario {
  gh: FakeGitHub
  issue: number
  w: MemoryWorld
  ws: MemoryWorkspace
  /** The repository's records, which outlive each job's tracker. */
  records: MemoryRecordStore
}

async function scenario(): Promise<Scenario> {
  const gh = await startFakeGitHub()
  gh.addCollaborator('ada', 'write')
  const issue = gh.addIssue({ title: 'Add CSV export', body: 'As CSV.', labels: ['Todo'] })
  const w = new MemoryWorld(config, STATES)
  return { gh, issue, w, ws: new MemoryWorkspace(w), records: new MemoryRecordStore() }
}

function job(s: Scenario, trigger: JobTrigger, run: { id: string; attempt: string }) {
  const api = new GitHubApi({
    token: 'ghs_test',
    apiUrl: s.gh.url,
    owner: 'octo-org',
    repo: 'demo',
    states: STATES,
    secondMs: 1,
    timeoutMs: 100
  })
  const tracker = new GitHubTracker({
    api,
    records: s.records,
    config,
    owner: 'octo-org',
    repo: 'demo',
    serverUrl: 'https://github.com',
    runId: run.id,
    runUrl: `https://github.com/octo-org/demo/actions/runs/${run.id}`,
    chain: 'dispatch'
  })
  return runJob({
    trigger,
    config,
    tracker,
    workspace: s.ws,
    run,
    workDir: '/memory',
    workflowPath: 'WORKFLOW.md',
    // The memory world's stages read no git.
    trustedCommit: 'memory',
    parentEnv: {},
    secrets: s.w.secrets,
    stage: memoryStage(s.w)
  })
}

/** Jobs as GitHub would run them: each dispatch becomes the next; a failed job is re-run once. */
async function drive(s: Scenario, before: (n: number) => void): Promise<number> {
  let failed = 0
  const queue: { trigger: JobTrigger; id: string }[] = [
    {
      trigger: {
        source: 'label',
        issue: String(s.issue),
        actor: { login: 'ada', type: 'User' },
        label: 'Todo'
      },
      id: '100'
    }
  ]
  for (let n = 0; queue.length > 0 && n < 12; n++) {
    const { trigger, id } = queue.shift()!
    const seen = s.gh.dispatches.length
    before(n)
    const attempt = (a: string): Promise<JobResult | Error> =>
      job(s, trigger, { id, attempt: a }).catch((e: unknown) => e as Error)
    const r = await attempt('1')
    if (r instanceof Error || r.failure) {
      failed++
      s.gh.heal()
      await attempt('2')
    }
    for (const d of s.gh.dispatches.slice(seen)) {
      const p = d.clientPayload as { issue: string; state: string; entry: number; step?: string }
      queue.push({
        trigger: {
          source: 'wake',
          issue: p.issue,
          actor: { login: 'github-actions[bot]', type: 'Bot' },
          state: p.state,
          wake: { entry: p.entry, ...(p.step ? { step: p.step } : {}) }
        },
        id: String(101 + n + queue.length)
      })
    }
  }
  return failed
}

describe('the job loop against a failing GitHub', () => {
  const limits = Object.keys(RATE_LIMITS)
  const cases = Object.entries(REQUESTS).flatMap(([request, op], n) =>
    [
      ...Object.keys(KINDS).filter((kind) => kind !== 'answer lost' || !op.startsWith('GET')),
      limits[n % limits.length]!
    ].flatMap((kind) => ['transient', 'persistent'].map((span) => ({ request, kind, span })))
  )
  it.each(cases)('$request: $kind ($span)', async ({ request, kind, span }) => {
    const s = await scenario()
    try {
      const op = REQUESTS[request as keyof typeof REQUESTS]
      const failed = await drive(s, (n) => {
        // The fault hits the first job's requests, and the second job's for the moves it makes.
        s.gh.heal()
        const fault = KINDS[kind] ?? RATE_LIMITS[kind]!
        if (n <= 1) s.gh.fail(op, fault(), span === 'transient' ? 1 : Infinity)
      })
      counts.scenarios++
      counts.failedJobs += failed
      counts.requests += s.gh.requests.length

      // The pipeline reached its end and says so; nothing is flagged or owed.
      expect(s.gh.labels(s.issue)).toEqual(['Reviewing'])
      const living = s.gh
        .comments(s.issue)
        .filter((c) => c.body.startsWith(`<!-- ${STATUS_MARKER} -->`))
      expect(living).toHaveLength(1)
      const record = readRecordFromComment(living[0]!.body)
      expect(record?.halted).toBeUndefined()
      expect(record?.stages.map((st) => `${st.profile}:${st.outcome}`)).toEqual([
        'researcher:succeeded',
        'implementer:succeeded',
        'reviewer:succeeded'
      ])
      // Each stage's agent ran once and its deliverable is on the branch once.
      expect(s.w.agentRuns.map((k) => k.profile)).toEqual(['researcher', 'implementer', 'reviewer'])
      expect(s.w.branches.get(`itervox/${s.issue}`)).toHaveLength(3)
      // No comment was posted twice.
      const bodies = s.gh.comments(s.issue).map((c) => c.body.split('\n', 1)[0])
      expect(new Set(bodies).size).toBe(bodies.length)
      expect(s.gh.violations).toEqual([])
      counts.held++
    } finally {
      await s.gh.stop()
    }
  })
})
