// The post step for a Linear stage the main step left unfinished (killed, timed out), in-process
// against the fake GitHub (on a real bare origin) and the fake Linear: the partial is committed
// and pushed to the issue branch, and the Linear issue is flagged and told.
import { afterEach, beforeEach, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { finishStage } from '../../src/action/post-finish.js'
import { handoffPath } from '../../src/handoff/index.js'
import { loadStageContext, saveStageContext } from '../../src/pipeline/stage/stage-context.js'
import { startFakeGitHub, type FakeGitHub } from '../harness/fake-github.js'
import { FakeLinear } from '../harness/fake-linear.js'
import { profileFiles, workflowMd } from '../e2e/pipeline-fixture.js'
import { cleanup, makeOrigin, sh, tmp } from '../git/repos.js'

let gh: FakeGitHub
let linear: FakeLinear
let dir: string
let origin: string
const saved = { env: { ...process.env }, exitCode: process.exitCode }

beforeEach(async () => {
  const md = workflowMd().replace(
    'tracker:\n  kind: github\n',
    'tracker:\n  kind: linear\n  api_key: ${LINEAR_API_KEY}\n  project_slug: ENG\n'
  )
  const seed = makeOrigin({ 'WORKFLOW.md': md, ...profileFiles() })
  dir = tmp('post-')
  origin = join(dir, 'server', 'octo-org', 'demo.git')
  mkdirSync(dirname(origin), { recursive: true })
  execFileSync('git', ['clone', '--quiet', '--bare', seed.dir, origin])
  gh = await startFakeGitHub({ originDir: origin })
  linear = await FakeLinear.start()
  Object.assign(process.env, {
    'INPUT_GITHUB-TOKEN': 'ghs_test_token',
    GITHUB_REPOSITORY: 'octo-org/demo',
    GITHUB_API_URL: gh.url,
    GITHUB_SERVER_URL: `file://${join(dir, 'server')}`,
    GITHUB_RUN_ID: '4242',
    GITHUB_STEP_SUMMARY: join(dir, 'summary'),
    LINEAR_API_KEY: linear.apiKey,
    LINEAR_API_URL: linear.url
  })
  writeFileSync(join(dir, 'summary'), '')
})
afterEach(async () => {
  expect(linear.violations).toEqual([])
  expect(gh.violations).toEqual([])
  process.env = { ...saved.env }
  process.exitCode = saved.exitCode
  await linear.close()
  await gh.stop()
  cleanup()
})

/** The workspace and context a killed main step leaves: the agent's file half written. */
function killedStage(issue: string): string {
  const work = join(dir, 'workspace')
  execFileSync('git', ['clone', '--quiet', `file://${origin}`, work])
  sh(work, 'checkout', '--quiet', '-b', 'itervox/eng/1')
  const timestamp = '2026-05-26T14-30-45.000Z'
  const file = handoffPath(timestamp, 'researcher')
  mkdirSync(join(work, dirname(file)), { recursive: true })
  writeFileSync(join(work, file), '# Research\n\nHalf way through the\n')
  const context = join(dir, 'ctx', 'stage.json')
  mkdirSync(dirname(context), { mode: 0o700 })
  saveStageContext(context, {
    stage: {
      issue: { id: issue },
      profile: { name: 'researcher', requiredSections: [], commitPaths: [], env: [] },
      branch: {
        repo: work,
        branch: 'itervox/eng/1',
        baseSha: sh(work, 'rev-parse', 'HEAD'),
        created: true
      },
      run: '4242',
      startedAt: new Date(),
      timestamp,
      handoffReason: 'specialization'
    },
    job: {
      config: { handoff: { maxFileBytes: 1_000_000 }, agent: {} },
      workflowPath: 'WORKFLOW.md'
    },
    phase: 'agent'
  })
  process.env.GITHUB_WORKSPACE = work
  return context
}

const branchFiles = () =>
  execFileSync(
    'git',
    ['--git-dir', origin, 'ls-tree', '-r', '--name-only', 'refs/heads/itervox/eng/1'],
    { stdio: ['ignore', 'pipe', 'ignore'] }
  )
    .toString()
    .trim()
    .split('\n')

it("commits and pushes a killed Linear stage's partial, and flags and tells the Linear issue", async () => {
  const team = linear.addTeam('ENG')
  const issue = linear.addIssue(team, { title: 'Add CSV export', state: 'Todo' })
  const context = killedStage(issue.identifier)
  await finishStage(context)
  expect(process.exitCode).toBe(saved.exitCode)
  expect(branchFiles()).toContain('.itervox/handoff/2026-05-26T14-30-45.000Z_researcher.partial.md')
  expect(loadStageContext(context)?.phase).toBe('done')
  expect(linear.labelNames(issue)).toEqual(['needs-attention'])
  expect(issue.comments.map((c) => c.body)).toEqual([
    expect.stringContaining('**The researcher stage did not finish:** the job was cancelled')
  ])
})

it('refuses a context whose issue is neither a number nor a Linear key, and commits nothing', async () => {
  const context = killedStage('ENG-1/../../main')
  await finishStage(context)
  expect(process.exitCode).toBe(1)
  expect(() => branchFiles()).toThrow()
  expect(linear.requests).toEqual([])
})
