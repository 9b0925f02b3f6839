// A person's decision made while the pipeline runs, through the bundled action and the fake
// GitHub: it is seen, it stands, and it is said on the issue. Each case ends in exactly one
// agent run per state entry and no silent stop.
import { afterEach, describe, expect, it } from '@jest/globals'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { git, runAction, sharedDir, sharedFile } from '../harness/action-run.js'
import { readRecordFromComment } from '../../src/tracker/comment-record.js'
import { drive, wakeUp } from './drive.js'
import { startPipeline, type Pipeline, type PipelineOptions } from './pipeline-fixture.js'

let current: Pipeline | undefined
afterEach(async () => {
  await current?.gh.stop()
  current = undefined
})

async function pipeline(o: PipelineOptions = {}): Promise<Pipeline> {
  current = await startPipeline(o)
  return current
}

const PROFILES = ['researcher', 'implementer', 'reviewer'] as const

/** A folder the fake claude counts each profile's runs in (see fake-claude.mjs). */
function counted(): Record<string, string> {
  const dir = sharedDir()
  for (const p of PROFILES) sharedFile(dir, `${p}.count`)
  return { ITERVOX_FAKE_AGENT_SCRIPT_DIR: dir }
}

/** How many times each profile's agent ran. */
function runsOf(env: Record<string, string>): Record<string, number> {
  const dir = env.ITERVOX_FAKE_AGENT_SCRIPT_DIR!
  const count = (p: string) => {
    const file = join(dir, `${p}.count`)
    return existsSync(file) ? Number(readFileSync(file, 'utf8')) || 0 : 0
  }
  return Object.fromEntries(PROFILES.map((p) => [p, count(p)]))
}

const labelled = (p: Pipeline, label: string, sender = 'ada') => ({
  event: 'issues.labeled' as const,
  eventOptions: { issue: p.issue, label, labels: [label], sender, title: 'Add CSV export' }
})

const commentsWith = (p: Pipeline, text: string) =>
  p.gh.comments(p.issue).filter((c) => c.body.includes(text))

const lastWake = (p: Pipeline) => wakeUp(p.gh.dispatches[p.gh.dispatches.length - 1]!)

const status = (p: Pipeline) =>
  p.gh.comments(p.issue).find((c) => c.body.startsWith('<!-- itervox:status -->'))!.body

/** A person's commit to the default branch: `edit` rewrites one file (made when missing). */
function commitToMain(p: Pipeline, file: string, edit: (text: string) => string): void {
  const clone = mkdtempSync(join(tmpdir(), 'handoff-main-'))
  git(clone, 'clone', '--quiet', `file://${p.sb.origin}`, '.')
  const path = join(clone, file)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, edit(existsSync(path) ? readFileSync(path, 'utf8') : ''))
  git(clone, 'add', '--', file)
  git(clone, '-c', 'user.name=ada', '-c', 'user.email=ada@example.com', 'commit', '-qm', 'edit')
  git(clone, 'push', '--quiet', 'origin', 'HEAD:main')
}

const writeFileAt = (p: Pipeline, file: string, text: string) => commitToMain(p, file, () => text)

const reconcile = (p: Pipeline) =>
  runAction('main', p.sb, p.gh, {
    event: 'workflow_dispatch',
    eventOptions: { sender: 'ada' },
    inputs: { mode: 'reconcile' }
  })

describe('a state renamed in WORKFLOW.md while an issue is in it', () => {
  it('stops the issue visibly (comment, needs-attention, the status halted), the reconcile reports it, and the new name goes on', async () => {
    const p = await pipeline()
    const env = counted()
    const [research] = await drive(p, labelled(p, 'Todo'), env, 1)
    expect(research!.outputs['next-state']).toBe('Researching')
    commitToMain(p, 'WORKFLOW.md', (t) => t.replaceAll('Researching', 'Investigating'))

    const [woken] = await drive(p, lastWake(p), env, 1)
    expect(woken!.outputs.outcome).toBe('skipped')
    expect(woken!.summary).toContain('the state "Researching" is no longer in WORKFLOW.md')
    expect(p.gh.labels(p.issue)).toEqual(['Researching', 'needs-attention'])
    const said = commentsWith(p, 'The itervox pipeline stopped: the state "Researching"')
    expect(said).toHaveLength(1)
    expect(said[0]!.body).toContain('"Investigating"')
    expect(status(p)).toContain('**Halted:** the state "Researching" is no longer in WORKFLOW.md')

    const swept = await reconcile(p)
    expect(swept.code).toBe(0)
    expect(swept.stdout).toContain(
      '#1: not started: the state "Researching" is no longer in WORKFLOW.md'
    )
    // Said once, however often it is seen.
    expect(commentsWith(p, 'The itervox pipeline stopped')).toHaveLength(1)

    p.gh.setIssueLabels(p.issue, ['Investigating', 'needs-attention'], p.gh.user('ada'))
    const rest = await drive(p, labelled(p, 'Investigating'), env)
    expect(rest.map((r) => [r.outputs.profile, r.outputs.outcome])).toEqual([
      ['implementer', 'succeeded'],
      ['reviewer', 'succeeded']
    ])
    expect(runsOf(env)).toEqual({ researcher: 1, implementer: 1, reviewer: 1 })
    expect(p.gh.violations).toEqual([])
  })
})

const reopened = (p: Pipeline, pr: number, sender = 'ada') => ({
  event: 'pull_request.reopened' as const,
  eventOptions: { issue: pr, head: `itervox/${p.issue}`, sender }
})

describe('the pull request closed by a person mid-pipeline', () => {
  it('pauses the pipeline with a note; the reconcile leaves it; reopening resumes it where it was', async () => {
    const p = await pipeline()
    const env = counted()
    await drive(p, labelled(p, 'Todo'), env, 1)
    const pr = p.gh.pulls()[0]!.number
    p.gh.setPullState(pr, 'closed')

    const [held] = await drive(p, lastWake(p), env, 1)
    expect(held!.outputs.outcome).toBe('skipped')
    expect(held!.summary).toContain(`was closed without merging; reopen it to resume`)
    expect(
      commentsWith(p, `Pull request #${pr} was closed, so the pipeline is paused`)
    ).toHaveLength(1)
    expect(status(p)).toContain(`**Paused:**`)
    expect(p.gh.dispatches).toHaveLength(1)

    const swept = await reconcile(p)
    expect(swept.stdout).toContain(
      `#1 Researching: nothing to start (pull request #${pr} is closed`
    )
    expect(p.gh.dispatches).toHaveLength(1)

    // Reopening resumes only for someone who may start stages, by its event or the reconcile.
    p.gh.setPullState(pr, 'open', false, 'tim')
    const triage = await runAction('main', p.sb, p.gh, { ...reopened(p, pr, 'tim'), env })
    expect(triage.outputs.outcome).toBe('denied')
    const after = await reconcile(p)
    expect(after.stdout).toContain(`#1 Researching: not resumed: pull request #${pr} was reopened`)
    expect(p.gh.dispatches).toHaveLength(1)
    p.gh.setPullState(pr, 'closed', false, 'ada')
    p.gh.setPullState(pr, 'open', false, 'ada')
    const rest = await drive(p, reopened(p, pr), env)
    expect(rest.map((r) => [r.outputs.profile, r.outputs.outcome])).toEqual([
      ['implementer', 'succeeded'],
      ['reviewer', 'succeeded']
    ])
    expect(runsOf(env)).toEqual({ researcher: 1, implementer: 1, reviewer: 1 })
    expect(p.gh.violations).toEqual([])
  })

  it('is not marked ready for review when closed during the last stage', async () => {
    const p = await pipeline({ state: 'Implementing' })
    const env = counted()
    const script = env.ITERVOX_FAKE_AGENT_SCRIPT_DIR!
    writeFileSync(
      join(script, 'reviewer.0.md'),
      '---\nmove_state: Done\nverdict: PASS\n---\n# Review\n\nFine.\n'
    )
    // The pull request exists from an earlier stage; ada closes it while the reviewer runs.
    p.gh.beforeNext('GET /repos/{owner}/{repo}/issues/{issue_number}/labels', () => {
      p.gh.setPullState(p.gh.pulls()[0]!.number, 'closed')
    })
    const [review] = await drive(p, labelled(p, 'Implementing'), env)
    expect(review!.outputs['next-state']).toBe('Done')
    const pull = p.gh.pulls()[0]!
    expect(pull).toMatchObject({ state: 'closed', draft: true })
    expect(
      commentsWith(
        p,
        `pull request #${pull.number} was closed meanwhile, so it was not marked ready`
      )
    ).toHaveLength(1)
    expect(p.gh.violations).toEqual([])
  })
})

/** A person merges the issue's pull request on GitHub, keeping its branch or deleting it. */
function mergePull(p: Pipeline, pr: number, deleteBranch: boolean): void {
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
  if (deleteBranch) git(clone, 'push', '--quiet', 'origin', '--delete', `itervox/${p.issue}`)
  p.gh.setPullState(pr, 'closed', true)
}

/** The prompt the issue's latest stage gave its agent, from its job's folder in RUNNER_TEMP. */
function lastPrompt(p: Pipeline): string {
  const status = p.gh.comments(p.issue).find((c) => c.body.startsWith('<!-- itervox:status -->'))
  const [id, attempt] = readRecordFromComment(status!.body)!.stages.at(-1)!.run.split('/')
  return readFileSync(
    join(p.sb.dir, 'runner-temp', 'itervox-handoff', `${id}-${attempt}-${p.issue}`, 'prompt.md'),
    'utf8'
  )
}

describe.each([
  { how: 'its branch kept', deleteBranch: false },
  { how: 'its branch deleted', deleteBranch: true }
])('the pull request merged mid-pipeline, $how', ({ deleteBranch }) => {
  it("goes on from the merged work with the trail in the next agent's prompt, to a new pull request", async () => {
    const p = await pipeline()
    const env = counted()
    await drive(p, labelled(p, 'Todo'), env, 2)
    const pr = p.gh.pulls()[0]!.number
    mergePull(p, pr, deleteBranch)
    // Another issue's pipeline is merged after it: its handoff is on main, never this issue's.
    writeFileAt(p, `.itervox/handoff/2099-01-01T00-00-00.000Z_other.md`, '# Not this issue\n')

    const rest = await drive(p, lastWake(p), env)
    expect(rest.map((r) => [r.outputs.profile, r.outputs.outcome])).toEqual([
      ['reviewer', 'succeeded']
    ])
    const prompt = lastPrompt(p)
    expect(prompt).toContain('## Prior Agent Handoffs')
    expect(prompt).toMatch(/### \S+_researcher\.md/)
    expect(prompt).toMatch(/### \S+_implementer\.md/)
    expect(prompt).not.toContain('_other.md')
    expect(
      commentsWith(p, `Pull request #${pr} was merged while the pipeline was in`)
    ).toHaveLength(1)
    const pulls = p.gh.pulls()
    expect(pulls.map((x) => x.state)).toEqual(['closed', 'open'])
    expect(runsOf(env)).toEqual({ researcher: 1, implementer: 1, reviewer: 1 })
    expect(p.gh.violations).toEqual([])
  })
})

describe("a person's state label added while a stage runs", () => {
  it('stands: the stage takes off only its own state, says so, and the person’s state runs next', async () => {
    const p = await pipeline()
    const env = counted()
    // While the researcher's job is about to move the issue on, ada adds Implementing.
    p.gh.beforeNext('GET /repos/{owner}/{repo}/issues/{issue_number}/labels', () => {
      p.gh.addIssueLabels(p.issue, ['Implementing'], p.gh.user('ada'))
    })
    const [research] = await drive(p, labelled(p, 'Todo'), env)
    expect(research!.outputs).toMatchObject({ profile: 'researcher', outcome: 'succeeded' })
    expect(research!.summary).toContain('the issue was moved to "Implementing" meanwhile')
    expect(p.gh.labels(p.issue)).toEqual(['Implementing'])
    const said = commentsWith(p, 'moved to "Implementing" while the researcher stage ran')
    expect(said).toHaveLength(1)
    expect(said[0]!.body).toContain('did not move it to "Researching"')
    // No wake-up for the state the person overrode; their label's own event starts theirs.
    expect(p.gh.dispatches).toHaveLength(0)
    const theirs = await drive(p, labelled(p, 'Implementing'), env, 1)
    expect(theirs[0]!.outputs).toMatchObject({ profile: 'reviewer', outcome: 'succeeded' })
    expect(runsOf(env)).toEqual({ researcher: 1, implementer: 0, reviewer: 1 })
    expect(p.gh.violations).toEqual([])
  })
})
