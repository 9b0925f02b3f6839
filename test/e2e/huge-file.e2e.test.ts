// An agent that turns a tracked file into a sparse file of a terabyte: nothing reads it whole
// (node cannot hold it, git would hash it for hours), it stays out of the commit with one line
// naming its size, and the stage's deliverable, or the post step's partial, still lands.
import { afterEach, describe, expect, it } from '@jest/globals'
import { git, runAction } from '../harness/action-run.js'
import { commitScript, startPipeline, type Pipeline } from './pipeline-fixture.js'

const TIB = 1024 ** 4
const REFUSED = `README.md was not committed: too large to commit: ${TIB} bytes, over the 104857600-byte limit`

let current: Pipeline | undefined
afterEach(async () => {
  await current?.gh.stop()
  current = undefined
})

const labeled = (p: Pipeline) => ({
  event: 'issues.labeled' as const,
  eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada', title: 'x' }
})

/** README.md (which the researcher may commit) made a terabyte, then `then`. */
async function hugeReadme(then: string[]): Promise<Pipeline> {
  const p = (current = await startPipeline({
    researcher: 'command: tools/agent.sh\ncommit_paths: ["README.md"]'
  }))
  commitScript(p, 'tools/agent.sh', [
    '#!/bin/sh',
    'set -e',
    'cat > /dev/null',
    'truncate -s 1T README.md',
    ...then
  ])
  return p
}

const DELIVER =
  'mkdir -p .itervox/handoff && printf "# Research\\n\\nDone.\\n" > "$ITERVOX_HANDOFF_PATH"'

const onBranch = (p: Pipeline) =>
  git(p.sb.origin, 'ls-tree', '-r', '--name-only', `refs/heads/itervox/${p.issue}`).split('\n')

describe('a tracked file the agent made a terabyte', () => {
  for (const isolation of ['user', 'none'] as const) {
    it(`is left out of the commit in one line and the deliverable lands (isolation: ${isolation})`, async () => {
      const p = await hugeReadme([DELIVER])
      const run = await runAction('main', p.sb, p.gh, {
        ...labeled(p),
        inputs: { isolation }
      })
      expect(run.outputs.outcome + run.stdout).toMatch(/^succeeded/)
      expect(run.code).toBe(0)
      expect(run.summary).toContain(`- ${REFUSED}`)
      expect(onBranch(p)).toContain(run.outputs['handoff-path'])
      expect(git(p.sb.origin, 'show', `refs/heads/itervox/${p.issue}:README.md`)).toBe('# demo')
      expect(p.gh.labels(p.issue)).toEqual(['Researching'])
      expect(p.gh.dispatches).toHaveLength(1)
    })
  }

  it("is left out of the partial's commit the post step makes after the main step was killed", async () => {
    const p = await hugeReadme([DELIVER, 'echo made-it-huge', 'exec sleep 600'])
    const main = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      inputs: { 'show-agent-output': 'true' },
      interrupt: { when: /made-it-huge/, signal: 'SIGKILL' }
    })
    expect(main.signal).toBe('SIGKILL')
    const post = await runAction('post', p.sb, p.gh, { ...labeled(p), state: main.state })
    expect(post.stderr + post.stdout).not.toContain('internal error')
    expect(post.code).toBe(0)
    // The post step commits the run's file only: the terabyte is not in its allow-list.
    expect(post.summary).toContain('- README.md: not in the allow-list')
    const files = onBranch(p)
    expect(files.some((f) => f.endsWith('_researcher.partial.md'))).toBe(true)
    expect(git(p.sb.origin, 'show', `refs/heads/itervox/${p.issue}:README.md`)).toBe('# demo')
    expect(p.gh.labels(p.issue)).toContain('needs-attention')
  })
})
