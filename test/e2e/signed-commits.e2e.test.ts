// sign-commits: true, through the bundled action: GitHub (the fake, on the real bare origin)
// creates the stage's commit with createCommitOnBranch; a stale head is replayed on; a change
// the mutation cannot express is pushed, with a notice.
import { afterEach, describe, expect, it } from '@jest/globals'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readRecordFromComment } from '../../src/tracker/comment-record.js'
import { checkoutShallow, git, runAction, sharedDir, sharedFile } from '../harness/action-run.js'
import { gitCounter, subcommand } from '../harness/git-count.js'
import { commitScript, startPipeline, type Pipeline } from './pipeline-fixture.js'

let current: Pipeline | undefined
afterEach(async () => {
  await current?.gh.stop()
  current = undefined
})

const labeled = (p: Pipeline) => ({
  event: 'issues.labeled' as const,
  eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada', title: 'x' },
  inputs: { 'sign-commits': 'true' }
})

const BRANCH = 'refs/heads/itervox/1'
const GITHUB = 'GitHub <noreply@github.com>'

const mutations = (p: Pipeline) =>
  p.gh.requests.filter(
    (r) => r.path === '/graphql' && JSON.stringify(r.body).includes('createCommitOnBranch')
  )

describe('sign-commits: true', () => {
  it("lands the stage's commit through createCommitOnBranch, trailers intact, and records it", async () => {
    const p = (current = await startPipeline({ command: 'generic-agent' }))
    checkoutShallow(p.sb)
    const main = git(p.sb.origin, 'rev-parse', 'refs/heads/main')
    const counter = gitCounter()
    const run = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { PATH: counter.path(`${p.sb.agentsBin}:${process.env.PATH}`) }
    })
    expect(run.outputs.outcome).toBe('succeeded')
    expect(p.gh.violations).toEqual([])
    const head = git(p.sb.origin, 'rev-parse', BRANCH)
    expect(run.outputs.commit).toBe(head)
    expect(git(p.sb.origin, 'log', '-1', '--format=%P%n%cn <%ce>', BRANCH)).toBe(
      `${main}\n${GITHUB}`
    )
    const message = git(p.sb.origin, 'log', '-1', '--format=%B', BRANCH)
    expect(message).toMatch(/^Itervox-Issue: 1$/m)
    expect(message).toMatch(/^Itervox-State: Todo$/m)
    expect(message).toMatch(/^Itervox-Stage: \d+\/\w+\/0\/0$/m)
    expect(git(p.sb.origin, 'ls-tree', '-r', '--name-only', BRANCH)).toContain(
      run.outputs['handoff-path']
    )
    // The only push made the new branch at main; GitHub made the stage's commit.
    const pushes = counter.take().filter((c) => subcommand(c) === 'push')
    expect(pushes).toHaveLength(1)
    expect(pushes[0]?.at(-1)).toBe(`${main}:${BRANCH}`)
    expect(mutations(p)).toHaveLength(1)
    const status = p.gh.comments(p.issue).find((c) => c.body.startsWith('<!-- itervox:status -->'))
    const stages = status ? (readRecordFromComment(status.body)?.stages ?? []) : []
    expect(stages.at(-1)?.commit).toBe(head)
  })

  it('replays its change when someone pushed to the branch during the run, keeping both', async () => {
    const p = (current = await startPipeline({ researcher: 'command: tools/racer.sh' }))
    commitScript(p, 'tools/racer.sh', [
      '#!/bin/sh',
      'set -e',
      'cat > /dev/null',
      'echo ready > "$ITERVOX_RACE_DIR/ready"',
      'while [ ! -s "$ITERVOX_RACE_DIR/pushed" ]; do sleep 0.05; done',
      'mkdir -p .itervox/handoff && printf "# Research\\n\\nDone.\\n" > "$ITERVOX_HANDOFF_PATH"'
    ])
    // The branch exists when the stage starts, so its first mutation names a head that moves.
    const human = join(p.sb.dir, 'human')
    git(p.sb.dir, 'clone', '--quiet', p.sb.origin, human)
    git(human, 'checkout', '--quiet', '-b', 'itervox/1')
    git(human, 'push', '--quiet', 'origin', 'itervox/1')
    const race = sharedDir()
    const ready = sharedFile(race, 'ready')
    const pushed = sharedFile(race, 'pushed')
    const running = runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { ITERVOX_RACE_DIR: race }
    })
    while (!readFileSync(ready, 'utf8')) await new Promise((r) => setTimeout(r, 50))
    writeFileSync(join(human, 'human.txt'), 'human\n')
    git(human, 'add', 'human.txt')
    git(human, 'commit', '--quiet', '-m', 'human commit')
    git(human, 'push', '--quiet', 'origin', 'itervox/1')
    const theirs = git(human, 'rev-parse', 'HEAD')
    writeFileSync(pushed, 'yes')
    const run = await running
    expect(run.outputs.outcome).toBe('succeeded')
    expect(p.gh.violations).toEqual([])
    const attempts = mutations(p).map(
      (r) =>
        (r.body as { variables: { input: { expectedHeadOid: string } } }).variables.input
          .expectedHeadOid
    )
    expect(attempts).toEqual([git(p.sb.origin, 'rev-parse', 'refs/heads/main'), theirs])
    expect(git(p.sb.origin, 'log', '-1', '--format=%P%n%cn <%ce>', BRANCH)).toBe(
      `${theirs}\n${GITHUB}`
    )
    const files = git(p.sb.origin, 'ls-tree', '-r', '--name-only', BRANCH)
    expect(files).toContain('human.txt')
    expect(files).toContain(run.outputs['handoff-path'])
    expect(run.outputs.commit).toBe(git(p.sb.origin, 'rev-parse', BRANCH))
  })

  it('pushes an executable file unsigned and says so in the log and the summary', async () => {
    const p = (current = await startPipeline({
      researcher: 'command: tools/agent.sh\ncommit_paths: ["tools/**"]'
    }))
    commitScript(p, 'tools/agent.sh', [
      '#!/bin/sh',
      'set -e',
      'cat > /dev/null',
      'printf "#!/bin/sh\\necho hi\\n" > tools/hi.sh && chmod +x tools/hi.sh',
      'mkdir -p .itervox/handoff && printf "# Research\\n\\nDone.\\n" > "$ITERVOX_HANDOFF_PATH"'
    ])
    const run = await runAction('main', p.sb, p.gh, labeled(p))
    expect(run.outputs.outcome + run.stdout).toMatch(/^succeeded/)
    const notice =
      "sign-commits: the stage's commit was pushed unsigned, because tools/hi.sh is executable (mode 100755), which createCommitOnBranch cannot express"
    expect(run.stdout).toContain(notice)
    expect(run.summary).toContain(notice)
    expect(mutations(p)).toEqual([])
    expect(git(p.sb.origin, 'log', '-1', '--format=%cn', BRANCH)).toBe('github-actions[bot]')
    expect(git(p.sb.origin, 'ls-tree', BRANCH, 'tools/hi.sh')).toMatch(/^100755 /)
  })

  it('signs the partial the post step pushes after the main step was killed', async () => {
    const p = (current = await startPipeline())
    checkoutShallow(p.sb)
    const main = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { ITERVOX_FAKE_AGENT_MODE: 'hang-ignore-term' },
      inputs: { 'sign-commits': 'true', 'show-agent-output': 'true' },
      interrupt: { when: /agent output/, signal: 'SIGKILL' }
    })
    expect(main.signal).toBe('SIGKILL')
    const post = await runAction('post', p.sb, p.gh, { ...labeled(p), state: main.state })
    expect(post.code).toBe(0)
    expect(p.gh.violations).toEqual([])
    expect(mutations(p)).toHaveLength(1)
    expect(git(p.sb.origin, 'log', '-1', '--format=%cn <%ce>', BRANCH)).toBe(GITHUB)
    const files = git(p.sb.origin, 'ls-tree', '-r', '--name-only', BRANCH).split('\n')
    expect(files.some((f) => /\.partial\.md$/.test(f))).toBe(true)
  })
})
