// The event-driven automations (tracker_comment_added, pr_opened, pr_merged, run_failed,
// input_required, issue_moved_to_backlog) through the
// bundled action and the fake GitHub, with events shaped like GitHub's own: each event runs
// its automation's profile once, however often it is delivered, and nothing else runs one.
import { afterEach, describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { git, runAction, sharedDir, sharedFile, type RunOptions } from '../harness/action-run.js'
import { readRecordFromComment } from '../../src/tracker/comment-record.js'
import { drive, wakeUp } from './drive.js'
import {
  helperProfile as helper,
  startPipeline,
  type Pipeline,
  type PipelineOptions
} from './pipeline-fixture.js'

let current: Pipeline | undefined
afterEach(async () => {
  await current?.gh.stop()
  current = undefined
})

const PROFILES = ['researcher', 'implementer', 'reviewer', 'helper'] as const
const APP = 'itervox-app[bot]'

async function pipeline(automation: string, o: PipelineOptions = {}): Promise<Pipeline> {
  current = await startPipeline({ ...helper, automations: automation, ...o })
  return current
}

/** A folder the fake claude counts each profile's runs in, and takes scripted runs from. */
function counted(scripted: Record<string, string> = {}): Record<string, string> {
  const dir = sharedDir()
  for (const p of PROFILES) sharedFile(dir, `${p}.count`)
  for (const [name, text] of Object.entries(scripted)) writeFileSync(join(dir, name), text)
  return { ITERVOX_FAKE_AGENT_SCRIPT_DIR: dir }
}

function runsOf(env: Record<string, string>): Record<string, number> {
  const dir = env.ITERVOX_FAKE_AGENT_SCRIPT_DIR!
  const count = (p: string) => {
    const file = join(dir, `${p}.count`)
    return existsSync(file) ? Number(readFileSync(file, 'utf8')) || 0 : 0
  }
  return Object.fromEntries(PROFILES.map((p) => [p, count(p)]))
}

const status = (p: Pipeline) =>
  p.gh.comments(p.issue).find((c) => c.body.startsWith('<!-- itervox:status -->'))!.body

const record = (p: Pipeline) => readRecordFromComment(status(p))!

/** The prompt a stage's run was given, as the runner's temp folder keeps it. */
const promptOf = (p: Pipeline, run: string) =>
  readFileSync(
    join(
      p.sb.dir,
      'runner-temp',
      'itervox-handoff',
      `${run.replace('/', '-')}-${p.issue}`,
      'prompt.md'
    ),
    'utf8'
  )

const todo = (p: Pipeline): RunOptions => ({
  event: 'issues.labeled',
  eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada' }
})

let runId = 7000
function job(p: Pipeline, o: RunOptions, env: Record<string, string>) {
  return runAction('main', p.sb, p.gh, {
    ...o,
    env: { GITHUB_RUN_ID: String(runId++), ...env, ...o.env }
  })
}

const comment = (p: Pipeline, id: number, body: string, sender = 'ada'): RunOptions => ({
  event: 'issue_comment.created',
  eventOptions: { issue: p.issue, comment: body, commentId: id, sender, labels: ['Todo'] }
})

const ON_COMMENT = [
  '- id: on-summarise',
  '  trigger: { type: tracker_comment_added }',
  '  profile: helper',
  '  filter: { body_regex: "/summarise\\\\b" }'
].join('\n')

describe('tracker_comment_added', () => {
  it('runs its profile once for a matching comment, delivered twice, and never for one that does not match', async () => {
    const p = await pipeline(ON_COMMENT)
    const env = counted()

    const first = await job(p, comment(p, 501, 'Please /summarise the thread'), env)
    expect(first.outputs).toMatchObject({ profile: 'helper', outcome: 'succeeded' })
    // GitHub delivers the same comment again: its run is the first one's.
    const again = await job(p, comment(p, 501, 'Please /summarise the thread'), env)
    expect(again.outputs.outcome).toBe('skipped')
    const other = await job(p, comment(p, 502, 'Thanks, that helps'), env)
    expect(other.outputs.outcome).toBe('skipped')
    expect(other.summary).toContain("no tracker_comment_added automation's filter admits")
    // A second matching comment is an event of its own.
    const second = await job(p, comment(p, 503, '/summarise again please'), env)
    expect(second.outputs).toMatchObject({ profile: 'helper', outcome: 'succeeded' })

    expect(runsOf(env)).toEqual({ researcher: 0, implementer: 0, reviewer: 0, helper: 2 })
    const runs = record(p).stages
    expect(runs.map((s) => [s.kind, s.profile, s.automation?.event])).toEqual([
      ['automation', 'helper', 'comment-501'],
      ['automation', 'helper', 'comment-503']
    ])
    // A helper run moves nothing: the issue stays where it was, its deliverable in the trail.
    expect(p.gh.labels(p.issue)).toEqual(['Todo'])
    expect(status(p)).toContain('automation on-summarise for comment-501')
    const files = git(p.sb.origin, 'ls-tree', '--name-only', 'itervox/1', '.itervox/handoff/')
    expect(files.split('\n').filter((f) => f.endsWith('_helper.md'))).toHaveLength(2)
    expect(p.gh.violations).toEqual([])
  })

  it("never runs for the pipeline's own comment, even one that matches, by an allowed bot", async () => {
    const p = await pipeline(ON_COMMENT, {
      tokenLogin: APP,
      tracker: `allowed_bots: ["${APP}"]`
    })
    // The helper asks for a comment that would match the filter; the pipeline posts it.
    const env = counted({ 'helper.0.md': '---\ncomment: "/summarise done"\n---\n# Summary\n' })
    const first = await job(p, comment(p, 601, '/summarise'), env)
    expect(first.outputs.outcome).toBe('succeeded')
    const posted = p.gh.comments(p.issue).find((c) => c.body.includes('/summarise done'))!
    expect(posted.body.startsWith('<!-- itervox:')).toBe(true)

    const own = await job(p, comment(p, 602, posted.body, APP), env)
    expect(own.outputs.outcome).toBe('skipped')
    expect(own.summary).toContain("the pipeline's own comment starts nothing")
    expect(runsOf(env).helper).toBe(1)
  })
})

/** A person merges the issue's pull request on GitHub and deletes its branch. */
function mergePull(p: Pipeline, pr: number): void {
  const clone = mkdtempSync(join(tmpdir(), 'handoff-merge-'))
  git(clone, 'clone', '--quiet', `file://${p.sb.origin}`, '.')
  const who = ['-c', 'user.name=ada', '-c', 'user.email=ada@example.com']
  git(
    clone,
    ...who,
    'merge',
    '--quiet',
    '--no-ff',
    '-m',
    `Merge #${pr}`,
    `origin/itervox/${p.issue}`
  )
  git(clone, 'push', '--quiet', 'origin', 'HEAD:main')
  git(clone, 'push', '--quiet', 'origin', '--delete', `itervox/${p.issue}`)
  p.gh.setPullState(pr, 'closed', true)
}

describe('pr_merged', () => {
  it("runs its profile once when the issue's pull request is merged, to a new draft pull request", async () => {
    const p = await pipeline('- id: after-merge\n  trigger: { type: pr_merged }\n  profile: helper')
    const env = counted()
    await drive(
      p,
      {
        event: 'issues.labeled',
        eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada' }
      },
      env,
      1
    )
    const pr = p.gh.pulls()[0]!.number
    mergePull(p, pr)
    const merged: RunOptions = {
      event: 'pull_request.closed',
      eventOptions: {
        issue: pr,
        head: `itervox/${p.issue}`,
        merged: true,
        sender: 'ada',
        labels: []
      }
    }
    const run = await job(p, merged, env)
    expect(run.outputs).toMatchObject({ profile: 'helper', outcome: 'succeeded' })
    expect((await job(p, merged, env)).outputs.outcome).toBe('skipped')
    // Closed without a merge: nothing.
    const closed = await job(
      p,
      { ...merged, eventOptions: { ...merged.eventOptions, merged: false } },
      env
    )
    expect(closed.outputs.outcome).toBe('skipped')

    expect(runsOf(env)).toMatchObject({ researcher: 1, helper: 1 })
    expect(record(p).stages.at(-1)).toMatchObject({
      kind: 'automation',
      profile: 'helper',
      automation: { id: 'after-merge', event: `pr-merged-${pr}` }
    })
    // The merged work goes on to a new draft pull request, with the helper's deliverable.
    expect(p.gh.pulls().map((x) => [x.state, x.draft])).toEqual([
      ['closed', true],
      ['open', true]
    ])
    expect(p.gh.violations).toEqual([])
  })
})

describe('run_failed', () => {
  it('runs its profile once after a stage fails past its retries, by a wake-up', async () => {
    const p = await pipeline('- id: triage\n  trigger: { type: run_failed }\n  profile: helper', {
      maxRetries: 1
    })
    const env = counted({ 'researcher.0.mode': 'exit1', 'researcher.1.mode': 'exit1' })
    const runs = await drive(
      p,
      {
        event: 'issues.labeled',
        eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada' }
      },
      env
    )
    expect(runs.map((r) => [r.outputs.profile, r.outputs.outcome])).toEqual([
      ['researcher', 'failed'],
      ['researcher', 'failed'],
      ['helper', 'succeeded']
    ])
    expect(p.gh.labels(p.issue)).toEqual(["Won't Do"])
    const last = record(p).stages.at(-1)!
    expect(last).toMatchObject({ kind: 'automation', state: 'Todo', automation: { id: 'triage' } })
    expect(last.automation!.event).toMatch(/^failed-1-work-1-0$/)
    const prompt = promptOf(p, last.run)
    expect(prompt).toContain('## Automation triage (run_failed)')
    expect(prompt).toContain('ended failed after its retries')
    // The wake-up delivered again runs nothing.
    const wake = p.gh.dispatches.at(-1)!
    expect(wake.clientPayload).toMatchObject({ step: 'run-failed' })
    const again = await job(
      p,
      {
        event: 'repository_dispatch',
        eventOptions: {
          eventType: wake.eventType,
          clientPayload: wake.clientPayload,
          sender: 'github-actions[bot]',
          senderType: 'Bot'
        }
      },
      env
    )
    expect(again.outputs.outcome).toBe('skipped')
    expect(runsOf(env)).toMatchObject({ researcher: 2, helper: 1 })
    expect(p.gh.violations).toEqual([])
  })
})

const ON_QUESTION = [
  '- id: answer',
  '  trigger: { type: input_required }',
  '  profile: helper',
  '  filter: { input_context_regex: "(?i)which database", max_age_minutes: 60 }'
]

describe('input_required', () => {
  it('runs its profile once when a stage asks a question; a person still answers', async () => {
    const p = await pipeline(ON_QUESTION.join('\n'))
    const env = counted({ 'researcher.0.mode': 'needs-input' })
    const runs = await drive(p, todo(p), env)
    expect(runs.map((r) => [r.outputs.profile, r.outputs.outcome])).toEqual([
      ['researcher', 'input_required'],
      ['helper', 'succeeded']
    ])
    const helped = record(p).stages.at(-1)!
    expect(helped).toMatchObject({ kind: 'automation', automation: { id: 'answer' } })
    expect(promptOf(p, helped.run)).toContain('Should the migration run on Postgres or on SQLite?')
    // Without policy.auto_resume the stage still waits for a person.
    expect(p.gh.labels(p.issue)).toEqual(['Todo', 'needs-input'])
    expect(record(p).waiting).toMatchObject({ profile: 'researcher' })
    const wake = p.gh.dispatches.at(-1)!
    expect(wake.clientPayload).toMatchObject({ step: 'input-required' })
    expect((await job(p, wakeUp(wake), env)).outputs.outcome).toBe('skipped')

    const replied = await job(p, comment(p, 701, 'Postgres, please.'), env)
    expect(replied.outputs).toMatchObject({ profile: 'researcher', outcome: 'succeeded' })
    expect(runsOf(env)).toMatchObject({ researcher: 2, helper: 1 })
    expect(p.gh.violations).toEqual([])
  })

  it('runs nothing for a question its filter does not admit', async () => {
    const p = await pipeline(ON_QUESTION.join('\n').replace('which database', 'which colour'))
    const env = counted({ 'researcher.0.mode': 'needs-input' })
    const runs = await drive(p, todo(p), env)
    expect(runs.map((r) => r.outputs.outcome)).toEqual(['input_required', 'skipped'])
    expect(runs[1]!.summary).toContain("no input_required automation's filter admits")
    expect(runsOf(env).helper).toBe(0)
  })

  it("with policy.auto_resume, resumes the waiting stage with the automation's answer", async () => {
    const p = await pipeline([...ON_QUESTION, '  policy: { auto_resume: true }'].join('\n'))
    const env = counted({
      'researcher.0.mode': 'needs-input',
      'helper.0.md': '# Answer\n\nTarget Postgres 16; SQLite is only for tests.\n'
    })
    const runs = await drive(p, todo(p), env, 3)
    expect(runs.map((r) => [r.outputs.profile, r.outputs.outcome])).toEqual([
      ['researcher', 'input_required'],
      ['helper', 'succeeded'],
      ['researcher', 'succeeded']
    ])
    // The resumed stage is the waiting one: same handoff path, the answer in its prompt.
    expect(runs[2]!.outputs['handoff-path']).toBe(runs[0]!.outputs['handoff-path'])
    const resumed = promptOf(p, record(p).stages.at(-1)!.run)
    expect(resumed).toContain('## Answer from automation answer (helper)')
    expect(resumed).toContain('Target Postgres 16; SQLite is only for tests.')
    expect(p.gh.labels(p.issue)).not.toContain('needs-input')
    expect(record(p).waiting).toBeUndefined()
    // A person's reply that comes after answers nothing: the stage ran once more, not twice.
    const late = await job(p, comment(p, 702, 'Postgres, please.'), env)
    expect(late.outputs.outcome).toBe('skipped')
    expect(runsOf(env)).toMatchObject({ researcher: 2, helper: 1 })
    expect(p.gh.violations).toEqual([])
  })
})

describe('pr_opened', () => {
  it("runs its profile once when a person opens a pull request for the issue's branch", async () => {
    const p = await pipeline('- id: on-open\n  trigger: { type: pr_opened }\n  profile: helper')
    const env = counted()
    // ada starts the work herself on the issue's branch and opens its pull request.
    const clone = mkdtempSync(join(tmpdir(), 'handoff-open-'))
    git(clone, 'clone', '--quiet', `file://${p.sb.origin}`, '.')
    writeFileSync(join(clone, 'NOTES.md'), '# Notes\n')
    git(clone, 'add', 'NOTES.md')
    git(clone, '-c', 'user.name=ada', '-c', 'user.email=ada@example.com', 'commit', '-qm', 'Start')
    git(clone, 'push', '--quiet', 'origin', `HEAD:itervox/${p.issue}`)
    const headSha = git(clone, 'rev-parse', 'HEAD').trim()
    const head = `itervox/${p.issue}`
    const pr = p.gh.addPull({ title: 'Start on #1', head, headSha, author: 'ada' })
    const opened: RunOptions = {
      event: 'pull_request.opened',
      eventOptions: { issue: pr, head, sender: 'ada', labels: [] }
    }

    const run = await job(p, opened, env)
    expect(run.outputs).toMatchObject({ profile: 'helper', outcome: 'succeeded' })
    expect((await job(p, opened, env)).outputs.outcome).toBe('skipped')
    expect(runsOf(env)).toMatchObject({ researcher: 0, helper: 1 })
    expect(record(p).stages.at(-1)).toMatchObject({
      kind: 'automation',
      automation: { id: 'on-open', event: `pr-opened-${pr}` }
    })
    // The helper's deliverable is on ada's branch and pull request; no other was opened.
    expect(p.gh.pulls().map((x) => x.number)).toEqual([pr])
    const files = git(p.sb.origin, 'ls-tree', '--name-only', head, '.itervox/handoff/')
    expect(files).toMatch(/_helper\.md$/m)
    expect(p.gh.labels(p.issue)).toEqual(['Todo'])
    expect(p.gh.violations).toEqual([])
  })
})

describe('issue_moved_to_backlog', () => {
  it('runs its profile once when a person moves the issue into a backlog state', async () => {
    const p = await pipeline(
      '- id: groom\n  trigger: { type: issue_moved_to_backlog }\n  profile: helper',
      {
        tracker: 'backlog_states: ["Backlog"]'
      }
    )
    const env = counted()
    p.gh.setIssueLabels(p.issue, ['Backlog'], p.gh.user('ada'))
    const moved: RunOptions = {
      event: 'issues.labeled',
      eventOptions: {
        issue: p.issue,
        label: 'Backlog',
        labels: ['Backlog'],
        sender: 'ada',
        updatedAt: new Date().toISOString()
      }
    }
    const run = await job(p, moved, env)
    expect(run.outputs).toMatchObject({ profile: 'helper', outcome: 'succeeded' })
    // The same label event delivered again runs nothing.
    expect((await job(p, moved, env)).outputs.outcome).toBe('skipped')
    expect(runsOf(env)).toMatchObject({ researcher: 0, helper: 1 })
    expect(record(p).stages.at(-1)).toMatchObject({
      kind: 'automation',
      state: 'Backlog',
      automation: { id: 'groom' }
    })
    expect(p.gh.labels(p.issue)).toEqual(['Backlog'])
    expect(p.gh.violations).toEqual([])
  })
})
