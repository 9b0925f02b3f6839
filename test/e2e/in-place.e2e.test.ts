// The in-place hand-over end to end (isolation: user, the default): the agent gets the
// checkout's own files where the checkout is on its home's file system, a clone where it is
// not, and a job killed with no post step loses nothing.
import { afterEach, describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { CLONED, checkoutShallow, git, runAction, testUser } from '../harness/action-run.js'
import { lookUp } from '../isolation/throwaway-user.js'
import { startPipeline, type Pipeline } from './pipeline-fixture.js'

let current: Pipeline | undefined
const made: string[] = []
afterEach(async () => {
  await current?.gh.stop()
  current = undefined
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function pipeline(at?: string): Promise<Pipeline> {
  current = await startPipeline(at ? { at } : {})
  checkoutShallow(current.sb)
  return current
}

const labeled = (p: Pipeline) => ({
  event: 'issues.labeled' as const,
  eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada' }
})

describe('the hand-over of the checkout to the agent user', () => {
  it('is in place on the agent home’s file system: no clone, the files come back', async () => {
    const p = await pipeline()
    const run = await runAction('main', p.sb, p.gh, labeled(p))
    expect(run.outputs.outcome).toBe('succeeded')
    expect(run.stdout + run.summary).not.toContain(CLONED)
    expect(git(p.sb.workspace, 'status', '--porcelain')).toBe('')
  })

  it('falls back to a clone, and says why in one line, where the checkout is on another file system', async () => {
    const shm = mkdtempSync('/dev/shm/itervox-e2e-')
    made.push(shm)
    const p = await pipeline(shm)
    const run = await runAction('main', p.sb, p.gh, labeled(p))
    expect(run.outputs.outcome).toBe('succeeded')
    // In the job summary's warnings.
    const said = run.summary.split('\n').filter((l) => l.includes(CLONED))
    expect(said).toEqual([
      expect.stringContaining(`${CLONED}: it is on another file system than the agent user's home`)
    ])
  })
})

describe('a job killed with no post step while the agent works on the checkout', () => {
  it('leaves the checkout for the next stage to put back: it works in place and nothing is lost', async () => {
    const p = await pipeline()
    const head = git(p.sb.workspace, 'rev-parse', 'HEAD')
    const main = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { ITERVOX_FAKE_AGENT_MODE: 'stall' },
      inputs: { 'show-agent-output': 'true' },
      interrupt: { when: /"subtype":"init"/, signal: 'SIGKILL' }
    })
    expect(main.signal).toBe('SIGKILL')
    // The checkout's objects are in the store, its files with the agent, which still runs.
    expect(existsSync(join(p.sb.workspace, '.git', 'objects'))).toBe(false)
    expect(existsSync(join(p.sb.workspace, 'README.md'))).toBe(false)

    // No post step: the next job, a stage of another issue in the same workspace.
    const other = p.gh.addIssue({
      title: 'Another',
      body: 'More.',
      labels: ['Todo'],
      author: 'ada'
    })
    const next = await runAction('main', p.sb, p.gh, {
      event: 'issues.labeled',
      eventOptions: { issue: other, label: 'Todo', labels: ['Todo'], sender: 'ada' },
      env: { GITHUB_RUN_ID: '1002' }
    })
    expect(next.stdout).toContain(
      `an earlier stage's job ended before it took the agent's tree back: the checkout's files and objects are back in ${p.sb.workspace}`
    )
    expect(next.stdout + next.summary).not.toContain(CLONED)
    expect(next.outputs.outcome).toBe('succeeded')
    // Nothing lost: the history the checkout had, and its files.
    expect(git(p.sb.workspace, 'cat-file', '-t', head)).toBe('commit')
    expect(git(p.sb.workspace, 'fsck', '--no-dangling')).toBe('')
    expect(existsSync(join(p.sb.workspace, 'README.md'))).toBe(true)
    expect(existsSync(`${lookUp(testUser('t')).home}.objects`)).toBe(false)
  })
})
