// Two issues in sequence through the bundled action: the first's pull request is merged, so
// its handoffs are on main, before the second starts. The second's stages, on a branch made
// from that main, see only the second's own handoffs.
import { afterEach, describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { checkoutShallow, git } from '../harness/action-run.js'
import { readRecordFromComment } from '../../src/tracker/comment-record.js'
import { drive } from './drive.js'
import { startPipeline, type Pipeline } from './pipeline-fixture.js'

let current: Pipeline | undefined
afterEach(async () => {
  await current?.gh.stop()
  current = undefined
})

const labelled = (issue: number) => ({
  event: 'issues.labeled' as const,
  eventOptions: { issue, label: 'Todo', labels: ['Todo'], sender: 'ada' }
})

const trailOn = (p: Pipeline, issue: number) =>
  git(p.sb.origin, 'ls-tree', '--name-only', `refs/heads/itervox/${issue}:.itervox/handoff`)
    .split('\n')
    .filter(Boolean)

/** The `### <file>` headers of the Prior Agent Handoffs block each stage of `issue` was given. */
function blocksOf(p: Pipeline, issue: number): string[][] {
  const status = p.gh.comments(issue).find((c) => c.body.startsWith('<!-- itervox:status -->'))
  const stages = status ? (readRecordFromComment(status.body)?.stages ?? []) : []
  return stages.map((s) => {
    const [id, attempt] = s.run.split('/')
    const prompt = readFileSync(
      join(p.sb.dir, 'runner-temp', 'itervox-handoff', `${id}-${attempt}-${issue}`, 'prompt.md'),
      'utf8'
    )
    return prompt
      .split('\n')
      .filter((l) => l.startsWith('### '))
      .map((l) => l.slice(4).split(' ')[0]!)
  })
}

/** What pressing "Merge pull request" does: a merge commit of the issue branch on main. */
function mergeToMain(p: Pipeline, branch: string): void {
  const dir = mkdtempSync(join(p.sb.dir, 'merge-'))
  git(dir, 'clone', '--quiet', `file://${p.sb.origin}`, '.')
  git(dir, 'merge', '--quiet', '--no-ff', '-m', `Merge ${branch}`, `origin/${branch}`)
  git(dir, 'push', '--quiet', 'origin', 'main')
}

describe('the trail across issues', () => {
  it("shows the second issue none of the first's handoffs once the first is merged", async () => {
    const p = await pipeline()
    // One stage of the first issue puts a handoff on main; two of the second show its stages
    // seeing their own trail grow and none of the first's.
    const first = await drive(p, labelled(p.issue), {}, 1)
    expect(first.map((r) => r.outputs.outcome)).toEqual(['succeeded'])
    const firstTrail = trailOn(p, p.issue)
    expect(firstTrail).toHaveLength(1)
    mergeToMain(p, `itervox/${p.issue}`)
    expect(
      git(p.sb.origin, 'ls-tree', '--name-only', 'refs/heads/main:.itervox/handoff').split('\n')
    ).toEqual(firstTrail)

    // A hosted runner's next job starts from a fresh shallow checkout of the new main.
    rmSync(p.sb.workspace, { recursive: true, force: true })
    mkdirSync(p.sb.workspace)
    checkoutShallow(p.sb)
    const second = p.gh.addIssue({
      title: 'Add PDF export',
      body: 'Users want PDF too.',
      labels: ['Todo'],
      author: 'ada'
    })
    const runs = await drive(p, labelled(second), {}, 2)
    expect(runs.map((r) => r.outputs.outcome)).toEqual(['succeeded', 'succeeded'])
    const own = trailOn(p, second).filter((f) => !firstTrail.includes(f))
    expect(own).toHaveLength(2)
    expect(blocksOf(p, second)).toEqual([[], own.slice(0, 1)])
  })
})

async function pipeline(): Promise<Pipeline> {
  current = await startPipeline()
  return current
}
