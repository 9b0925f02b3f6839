import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { parse } from 'yaml'
import { AGENT_CLI_VERSIONS } from '../../src/agent/cli-versions.js'
import { DISPATCH_TYPE } from '../../src/pipeline/names.js'
import { loadWorkflowFile } from '../../src/config/load.js'
import type { WorkflowConfig } from '../../src/config/types.js'
import { actionsWorkflow } from '../../src/cli/actions-workflow.js'
import { scaffoldFiles } from '../../src/cli/scaffold.js'
import { actionlint, findings, type Lint } from '../helpers/actionlint.js'
import { profileFiles } from '../e2e/pipeline-fixture.js'
import { repoWith } from '../cli/helpers.js'
import { cliInProcess as cli } from '../cli/in-process.js'

const DIR = '.github/workflows'
const CLAUDE = AGENT_CLI_VERSIONS.claude

type Step = { name?: string; id?: string; uses?: string; run?: string } & Record<string, unknown>
interface Job {
  if: string
  'runs-on': string
  concurrency: { group: string; 'cancel-in-progress': unknown }
  'timeout-minutes': number
  permissions?: unknown
  steps: Step[]
}
interface Workflow {
  on: Record<string, unknown>
  permissions: Record<string, string>
  concurrency?: unknown
  jobs: Record<string, Job>
}

function load(file: string): { workflow: Workflow; job: Job; reconcile: Job } {
  const workflow = parse(readFileSync(join(DIR, file), 'utf8')) as Workflow
  const names = Object.keys(workflow.jobs)
  const { stage: job, reconcile } = workflow.jobs
  if (!job || !reconcile || names.length !== 2) {
    throw new Error(`${file} should have the jobs stage and reconcile, not ${names.join(', ')}`)
  }
  return { workflow, job, reconcile }
}

const ACTION_INPUTS = Object.keys(
  (parse(readFileSync('action.yml', 'utf8')) as { inputs: Record<string, unknown> }).inputs
)
// The pipeline `init` writes, which the README and these examples show.
const SEED = initPipeline()

function initPipeline(): WorkflowConfig {
  const dir = mkdtempSync(join(tmpdir(), 'itervox-init-pipeline-'))
  for (const f of scaffoldFiles({
    tracker: 'github',
    command: 'claude',
    implementerPaths: ['**']
  })) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true })
    writeFileSync(join(dir, f.path), f.text)
  }
  const { config } = loadWorkflowFile(join(dir, 'WORKFLOW.md'), {})
  rmSync(dir, { recursive: true, force: true })
  return config
}

/** Automations of every trigger type that needs a GitHub event, appended to a WORKFLOW.md. */
const EVERY_TRIGGER = [
  '  - id: comment',
  '    trigger: {type: tracker_comment_added}',
  '    profile: reviewer',
  '  - id: opened',
  '    trigger: {type: pr_opened}',
  '    profile: reviewer',
  '  - id: merged',
  '    trigger: {type: pr_merged}',
  '    profile: reviewer',
  '  - id: unblocked',
  '    trigger: {type: blockers_resolved}',
  '    profile: reviewer',
  '  - id: nightly',
  '    trigger: {type: cron, cron: "7 2 * * *", timezone: Asia/Kolkata}',
  '    profile: reviewer',
  ''
].join('\n')

/**
 * The workflows `init` writes, by running it (in-process) as test/cli/init.test.ts does: for a
 * new repository, after a start state is renamed to one with a quote, and for Linear.
 */
async function initWorkflows(): Promise<Record<string, string>> {
  const WRITTEN = '.github/workflows/itervox.yml'
  const repo = repoWith({})
  expect((await cli(repo, ['init'])).code).toBe(0)
  const first = readFileSync(join(repo, WRITTEN), 'utf8')
  const workflow = readFileSync(join(repo, 'WORKFLOW.md'), 'utf8')
  writeFileSync(join(repo, 'WORKFLOW.md'), workflow.replace(/"Todo"/g, `"Won't wait"`))
  expect((await cli(repo, ['init', '--workflow-only'])).code).toBe(0)
  const quoted = readFileSync(join(repo, WRITTEN), 'utf8')
  expect(quoted).toContain("Won''t wait")
  const lin = repoWith({
    'WORKFLOW.md': readFileSync('test/fixtures/workflows/seed/WORKFLOW.md', 'utf8'),
    ...profileFiles()
  })
  expect((await cli(lin, ['init', '--workflow-only'])).code).toBe(0)
  const linear = readFileSync(join(lin, WRITTEN), 'utf8')
  expect(linear).toContain('LINEAR_API_KEY')
  // Every trigger that needs an event of its own, for GitHub and for Linear.
  const every = readFileSync(join(repo, 'WORKFLOW.md'), 'utf8').replace(
    '\n---\n',
    `\n${EVERY_TRIGGER}---\n`
  )
  writeFileSync(join(repo, 'WORKFLOW.md'), every)
  expect((await cli(repo, ['init', '--workflow-only'])).code).toBe(0)
  const everyTrigger = readFileSync(join(repo, WRITTEN), 'utf8')
  expect(everyTrigger).toContain('types: [labeled, reopened, opened, closed]')
  for (const dir of [repo, lin]) rmSync(dir, { recursive: true, force: true })
  return {
    'init-default.yml': first,
    'init-quoted-state.yml': quoted,
    'init-linear.yml': linear,
    'init-every-trigger.yml': everyTrigger
  }
}

describe('workflow files', () => {
  // One actionlint run (each compiles its wasm) over our workflows, those `init` writes, and a
  // broken copy of one of them.
  let dir: string
  let bad: string
  const inBad = (finding: string): boolean => finding.startsWith(`${relative('.', bad)}:`)
  let lint: Lint
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'itervox-actionlint-'))
    const written = join(dir, 'init')
    mkdirSync(written)
    for (const [name, text] of Object.entries(await initWorkflows())) {
      writeFileSync(join(written, name), text)
    }
    bad = join(dir, 'bad.yml')
    const ours = readFileSync(join(DIR, 'itervox.yml'), 'utf8')
    const broken = ours
      .replace('  contents: write', '  contents: admin')
      .replace(
        '      - name: Install the agent CLI',
        '      - run: echo "${{ github.event.comment.body }}"\n      - name: Install the agent CLI'
      )
    expect(broken).not.toBe(ours)
    writeFileSync(bad, broken)
    lint = await actionlint(`${DIR}/*.{yml,yaml}`, `${written}/*.yml`, bad)
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('all pass actionlint, and so do the ones init writes', () => {
    const files = readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f))
    expect(files).toEqual(
      expect.arrayContaining(['ci.yml', 'itervox.yml', 'itervox-app-token.yml'])
    )
    expect(lint.out).toContain(`Checking ${files.length + 5} workflow file(s)`)
    expect(findings(lint).filter((f) => !inBad(f))).toEqual([])
  })

  it('actionlint rejects a bad workflow, so the check above can fail', () => {
    expect(lint.code).toBe(1)
    expect(findings(lint).filter(inBad)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('"admin" is invalid for permission of scope "contents"'),
        expect.stringContaining('"github.event.comment.body" is potentially untrusted')
      ])
    )
  })
})

describe.each([
  {
    file: 'itervox.yml',
    permissions: {
      actions: 'read',
      contents: 'write',
      issues: 'write',
      'pull-requests': 'write'
    },
    chain: 'dispatch'
  },
  { file: 'itervox-app-token.yml', permissions: { contents: 'read' }, chain: 'label' }
])('example workflow $file', ({ file, permissions, chain }) => {
  const { workflow, job } = load(file)
  const stepIndex = (pred: (s: Step) => boolean): number => job.steps.findIndex(pred)
  const actionAt = stepIndex((s) => s.uses === 'itervox/handoff-action@v1')
  const action = job.steps[actionAt]

  it('listens to every event a stage can start from', () => {
    expect(workflow.on).toEqual({
      issues: { types: ['labeled', 'unlabeled'] },
      pull_request: { types: ['labeled', 'reopened'] },
      issue_comment: { types: ['created'] },
      workflow_dispatch: {
        inputs: {
          // A number: the concurrency group then keys a manual run on 42, never on #42.
          issue: expect.objectContaining({ required: true, type: 'number' }),
          state: expect.objectContaining({ required: false, type: 'string' })
        }
      },
      repository_dispatch: { types: [DISPATCH_TYPE] },
      schedule: [{ cron: '*/15 * * * *' }]
    })
  })

  it('reconciles on the schedule only, one at a time, with the action in reconcile mode', () => {
    const { reconcile } = load(file)
    const written = (parse(actionsWorkflow(SEED)) as Workflow).jobs.reconcile!
    expect(reconcile.if).toBe("github.event_name == 'schedule'")
    expect(reconcile.concurrency).toEqual(written.concurrency)
    expect(reconcile.concurrency).toEqual({
      group: 'itervox-reconcile',
      'cancel-in-progress': false
    })
    const step = reconcile.steps.find((s) => s.uses === 'itervox/handoff-action@v1')
    expect(step?.with).toMatchObject({ mode: 'reconcile' })
    expect(ACTION_INPUTS).toEqual(expect.arrayContaining(Object.keys(step?.with ?? {})))
    // No agent: no checkout, no CLI, no model key.
    expect(JSON.stringify(reconcile)).not.toMatch(/checkout|npm install|ANTHROPIC/)
  })

  it('filters in `if:` on the pipeline state labels and on needs-input replies by people', () => {
    // Exactly the `if:` init writes for its pipeline.
    const written = parse(actionsWorkflow(SEED)) as Workflow
    expect(job.if).toBe(Object.values(written.jobs)[0]!.if)
    for (const state of SEED.tracker.activeStates) expect(job.if).toContain(`"${state}"`)
    expect(job.if).toContain("contains(github.event.issue.labels.*.name, 'needs-input')")
    expect(job.if).toContain('github.event.comment.author_association')
    expect(job.if).toContain('github.event.pull_request.head.repo.full_name == github.repository')
  })

  it('asks for exactly the permissions it needs, once, at the top', () => {
    expect(workflow.permissions).toEqual(permissions)
    expect(job.permissions).toBeUndefined()
  })

  it('queues stages per issue and never cancels one', () => {
    expect(workflow.concurrency).toBeUndefined()
    expect(job.concurrency).toEqual({
      group:
        'itervox-${{ github.event.issue.number || github.event.pull_request.number || github.event.client_payload.issue || inputs.issue }}',
      'cancel-in-progress': false
    })
  })

  it("outlasts the agent's own deadline", () => {
    expect(job['timeout-minutes']).toBeGreaterThan(SEED.agent.turnTimeoutMs / 60_000)
  })

  it('checks out without persisting credentials', () => {
    const checkout = job.steps[stepIndex((s) => /^actions\/checkout@/.test(s.uses ?? ''))]
    expect(checkout?.with).toEqual({ 'persist-credentials': false, 'fetch-depth': 1 })
  })

  it('runs the action with its documented inputs and the model key only there', () => {
    expect(actionAt).toBeGreaterThan(-1)
    const given = Object.keys(action?.with ?? {})
    expect(ACTION_INPUTS).toEqual(expect.arrayContaining(given))
    expect(action?.with).toMatchObject({
      issue: '${{ inputs.issue || github.event.client_payload.issue }}',
      state: '${{ inputs.state || github.event.client_payload.state }}',
      chain
    })
    expect(action?.env).toEqual({ ANTHROPIC_API_KEY: '${{ secrets.ANTHROPIC_API_KEY }}' })
    // The version the contract suite tests, as the workflows init writes pin it.
    const install = stepIndex((s) => s.run === `npm install -g ${CLAUDE.pkg}@${CLAUDE.version}`)
    expect(install).toBeGreaterThan(-1)
    expect(install).toBeLessThan(actionAt)
    // No other step sees the model key; the App key only reaches the token step.
    for (const step of job.steps.filter((s) => s !== action)) {
      const text = JSON.stringify(step)
      expect(text).not.toContain('ANTHROPIC_API_KEY')
      if (step.uses?.startsWith('actions/create-github-app-token@')) continue
      expect(text).not.toContain('secrets.')
    }
  })

  if (chain === 'label') {
    it('passes an App token created before the stage', () => {
      const tokenAt = stepIndex((s) => s.uses === 'actions/create-github-app-token@v3')
      expect(job.steps[tokenAt]).toMatchObject({
        id: 'app-token',
        with: {
          'client-id': expect.any(String),
          'private-key': '${{ secrets.ITERVOX_APP_PRIVATE_KEY }}'
        }
      })
      expect(tokenAt).toBeLessThan(actionAt)
      expect(action?.with).toMatchObject({ 'github-token': '${{ steps.app-token.outputs.token }}' })
    })
  } else {
    it('uses the job token', () => {
      expect(action?.with).not.toHaveProperty('github-token')
    })
  }
})

it('the two example workflows differ only in the token and the chain', () => {
  const plain = load('itervox.yml')
  const app = load('itervox-app-token.yml')
  expect(app.workflow.on).toEqual(plain.workflow.on)
  expect(app.job.if).toBe(plain.job.if)
  expect(app.job.concurrency).toEqual(plain.job.concurrency)
  expect(app.job['timeout-minutes']).toBe(plain.job['timeout-minutes'])
  const withoutToken = app.job.steps.filter((s) => s.id !== 'app-token')
  expect(withoutToken.map((s) => s.uses ?? s.run)).toEqual(
    plain.job.steps.map((s) => s.uses ?? s.run)
  )
})
