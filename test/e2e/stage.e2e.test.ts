import { afterEach, describe, expect, it } from '@jest/globals'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  checkoutShallow,
  git,
  runAction,
  sharedDir,
  sharedFile,
  type ActionRun
} from '../harness/action-run.js'
import { killAtCommit } from '../harness/git-kill.js'
import { drive, wakeUp } from './drive.js'
import { commitScript, startPipeline, type Pipeline } from './pipeline-fixture.js'

const HANDOFF = /^\.itervox\/handoff\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z_researcher\.md$/
const PARTIAL =
  /^\.itervox\/handoff\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z_researcher\.partial\.md$/

let current: Pipeline | undefined
afterEach(async () => {
  await current?.gh.stop()
  current = undefined
})

async function pipeline(o: Parameters<typeof startPipeline>[0] = {}): Promise<Pipeline> {
  current = await startPipeline(o)
  return current
}

const labeled = (p: Pipeline, sender = 'ada', label = 'Todo') => ({
  event: 'issues.labeled' as const,
  eventOptions: { issue: p.issue, label, labels: [label], sender, title: 'Add CSV export' }
})

/** Files on the remote issue branch, or null when the branch does not exist. */
function branchFiles(p: Pipeline, branch = `itervox/${p.issue}`): string[] | null {
  try {
    return git(p.sb.origin, 'ls-tree', '-r', '--name-only', `refs/heads/${branch}`).split('\n')
  } catch {
    return null
  }
}

function show(p: Pipeline, path: string, branch = `itervox/${p.issue}`): string {
  return git(p.sb.origin, 'show', `refs/heads/${branch}:${path}`)
}

/** No line the agent printed can act as a workflow command in the runner's log. */
function expectNoAgentCommands(run: ActionRun) {
  const ours =
    /^::(group|endgroup|stop-commands|[0-9a-f]{32}|add-mask|debug|warning|error|notice)::/
  for (const line of run.stdout.split('\n')) {
    if (line.startsWith('::')) expect(line).toMatch(ours)
  }
}

describe('a stage run by the bundled action', () => {
  it('warns that isolation closed folders for good only off a GitHub-hosted runner', async () => {
    const p = await pipeline()
    const warning = (run: ActionRun) =>
      run.stdout.split('\n').filter((l) => l.startsWith('::warning::isolation: user closed'))
    const local = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { RUNNER_ENVIRONMENT: 'self-hosted' }
    })
    expect(local.outputs.outcome).toBe('succeeded')
    expect(warning(local)).toHaveLength(1)
    expect(warning(local)[0]).toContain(p.sb.workspace)

    // The folders closed by the first run stay closed: open them so the second closes them too.
    for (const dir of [p.sb.workspace, p.sb.home]) chmodSync(dir, 0o755)
    const p2 = await pipeline()
    const hosted = await runAction('main', p2.sb, p2.gh, labeled(p2))
    expect(hosted.stdout).toContain('closed to other users:')
    expect(warning(hosted)).toEqual([])
  })

  it('runs the profile, commits the deliverable to the issue branch and opens a draft PR', async () => {
    const p = await pipeline()
    checkoutShallow(p.sb)
    // As the runner fills the inputs by default: github-token and job-token are both the job's.
    // The agent prints workflow commands, which must not act on the runner.
    const run = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      inputs: {
        'github-token': 'ghs_job_own',
        'job-token': 'ghs_job_own',
        'show-agent-output': 'true'
      },
      env: { ITERVOX_FAKE_AGENT_MODE: 'workflow-commands' }
    })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({
      issue: '1',
      state: 'Todo',
      profile: 'researcher',
      outcome: 'succeeded',
      branch: 'itervox/1',
      'pull-request': '2'
    })
    expect(run.outputs['handoff-path']).toMatch(HANDOFF)
    const files = branchFiles(p)!
    expect(files).toContain(run.outputs['handoff-path'])
    expect(git(p.sb.origin, 'rev-parse', 'refs/heads/itervox/1')).toBe(run.outputs.commit)
    const message = git(p.sb.origin, 'log', '-1', '--format=%an <%ae>%n%B', 'refs/heads/itervox/1')
    expect(message).toContain(
      'github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>'
    )
    expect(message).toContain('Itervox-Profile: researcher')
    expect(message).toContain('Itervox-Outcome: succeeded')
    const pr = p.gh.pulls()[0]!
    expect(pr).toMatchObject({ head: 'itervox/1', base: 'main', draft: true })
    expect(pr.body).toContain('#1')
    expect(run.summary).toContain('## itervox handoff: succeeded')
    expect(run.summary).toContain('| Profile | researcher |')
    // The job's own token is github-actions[bot]: nobody is asked who it is.
    expect(p.gh.requests.filter((r) => r.path === '/graphql')).toEqual([])
    // The agent ran isolated (the default), so nothing warns that it was not.
    expect(run.summary).not.toContain('isolation is none')
    expect(
      p.gh
        .commentsOf(p.issue)
        .map((c) => c.body)
        .join('\n')
    ).not.toContain('isolation is none')
    expect(p.gh.violations).toEqual([])
    // Five keep the pipeline's truth in the repository: the record's ref looked up, then its
    // commit and ref made, and the stage's claim (a commit and a create-only ref); one asks
    // for the blockers of the issue's first stage in Todo.
    expect(p.gh.requests.length).toBeLessThanOrEqual(14)
    expect(run.stdout).toContain('│ ::set-output')
    expectNoAgentCommands(run)
    expect(Object.keys(run.state)).toEqual(['isPost', 'context'])
    // The job log in sections, one per phase (the agent's output and result groups of their own).
    expect(run.stdout.split('\n').filter((l) => l.startsWith('::group::'))).toEqual([
      '::group::Deciding',
      '::group::Preparing itervox/1',
      '::group::Running researcher',
      '::group::agent output (researcher, secrets masked)',
      '::group::Publishing',
      '::group::agent result (researcher, secrets masked)'
    ])
  })

  it('commits as the commit-author and commit-committer inputs say, refuses what the profile may not write, warns when the agent is not isolated, and refuses a malformed identity in one line', async () => {
    // One successful stage with three things to show; the first test's run is the isolated one
    // that does not warn.
    const p = await pipeline()
    checkoutShallow(p.sb)
    const app = 'my-app[bot] <123+my-app[bot]@users.noreply.github.com>'
    const run = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      inputs: {
        'commit-author': app,
        'commit-committer': 'Ops <ops@example.com>',
        isolation: 'none'
      },
      env: { ITERVOX_FAKE_AGENT_MODE: 'workflow-write' }
    })
    expect(run.outputs.outcome).toBe('succeeded')
    const who = git(
      p.sb.origin,
      'log',
      '-1',
      '--format=%an <%ae>|%cn <%ce>',
      'refs/heads/itervox/1'
    )
    expect(who).toBe(`${app}|Ops <ops@example.com>`)
    expect(branchFiles(p)!.some((f) => f.startsWith('.github/'))).toBe(false)
    expect(run.summary).toContain('.github/workflows/x.yml was not committed: forbidden path')
    expect(run.summary).toContain("isolation is none: the agent ran as the runner's user")
    const status = p.gh.commentsOf(p.issue).find((c) => c.body.includes('itervox:status'))
    expect(status?.body).toContain(
      "> **Warning:** isolation is none: the agent ran as the runner's user"
    )

    const bad = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      inputs: { 'commit-author': 'my-app[bot]' }
    })
    expect(bad.code).not.toBe(0)
    expect(bad.stdout).toContain(
      '::error::input commit-author is "my-app[bot]"; use "Name <email>", e.g. '
    )
  })

  it("commits as an App token's bot, asking GitHub once who the token is", async () => {
    const p = await pipeline({ tokenLogin: 'my-app[bot]' })
    checkoutShallow(p.sb)
    const run = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      inputs: { 'github-token': 'ghs_app_installation', 'job-token': 'ghs_job_own' }
    })
    expect(run.outputs.outcome).toBe('succeeded')
    expect(p.gh.violations).toEqual([])
    const who = git(p.sb.origin, 'log', '-1', '--format=%an <%ae>|%cn', 'refs/heads/itervox/1')
    expect(who).toMatch(
      /^my-app\[bot\] <\d+\+my-app\[bot\]@users\.noreply\.github\.com>\|my-app\[bot\]$/
    )
    expect(p.gh.requests.filter((r) => r.path === '/graphql')).toHaveLength(1)
  })

  it('works in an empty workspace, with no checkout before it and no job summary, and gives the agent none of the runner tokens or file-command paths', async () => {
    const p = await pipeline()
    // No checkoutShallow, and no job-token input: the token is taken for the job's own. No
    // GITHUB_STEP_SUMMARY, as on @github/local-action: a warning, not a failure.
    const run = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { ITERVOX_FAKE_AGENT_MODE: 'env-dump', GITHUB_STEP_SUMMARY: '' }
    })
    expect(run.code).toBe(0)
    expect(run.outputs.outcome).toBe('succeeded')
    expect(run.stdout).toMatch(/^::warning::no job summary: .*GITHUB_STEP_SUMMARY.*$/m)
    expect(run.stdout).not.toContain('::error::')
    expect(branchFiles(p)).toContain(run.outputs['handoff-path'])
    expect(git(p.sb.origin, 'log', '-1', '--format=%an', 'refs/heads/itervox/1')).toBe(
      'github-actions[bot]'
    )
    expect(p.gh.requests.filter((r) => r.path === '/graphql')).toEqual([])
    const env = JSON.parse(show(p, run.outputs['handoff-path']!)) as Record<string, string>
    for (const name of Object.keys(env)) {
      expect(name).not.toMatch(
        /^(GITHUB_TOKEN|INPUT_|ACTIONS_|GITHUB_(ENV|OUTPUT|STATE|PATH|STEP_SUMMARY)$)/
      )
    }
    expect(JSON.stringify(env)).not.toContain('ghs_')
    expect(env).toMatchObject({
      ITERVOX_AGENT: '1',
      ITERVOX_PROFILE: 'researcher',
      ITERVOX_ISSUE: '#1'
    })
    expect(env.ITERVOX_HANDOFF_PATH).toBe(run.outputs['handoff-path'])
  })

  it('goes on without a pull request when Actions may not open one, and says so in the log and on the status comment', async () => {
    const p = await pipeline()
    checkoutShallow(p.sb)
    p.gh.fail('POST /repos/{owner}/{repo}/pulls', {
      status: 403,
      message: 'GitHub Actions is not permitted to create or approve pull requests.'
    })
    const run = await runAction('main', p.sb, p.gh, labeled(p))
    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ outcome: 'succeeded', 'pull-request': '' })
    const setting = '"Allow GitHub Actions to create and approve pull requests"'
    const warnings = run.stdout.split('\n').filter((l) => l.startsWith('::warning::'))
    expect(warnings).toEqual([
      expect.stringMatching(/^::warning::no pull request: GitHub Actions may not/)
    ])
    expect(warnings[0]).toContain(setting)
    const status = p.gh.commentsOf(p.issue).find((c) => c.body.includes('**Current state:**'))
    expect(status?.body).toMatch(
      /\n> \*\*Warning:\*\* no pull request: GitHub Actions may not .*\n/
    )
    expect(status?.body).toContain(setting)
    expect(p.gh.pulls()).toEqual([])
  })

  it('commits a partial when the agent fails, and fails the job', async () => {
    const p = await pipeline()
    const run = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { ITERVOX_FAKE_AGENT_MODE: 'exit1' }
    })
    expect(run.code).toBe(1)
    expect(run.outputs.outcome).toBe('failed')
    expect(run.outputs['handoff-path']).toMatch(PARTIAL)
    expect(branchFiles(p)).toContain(run.outputs['handoff-path'])
    expect(show(p, run.outputs['handoff-path']!)).toMatch(/failed/)
    expect(run.stdout).toContain('::error::stage failed')
  })

  it('never reads or commits a deliverable that is a symlink', async () => {
    const p = await pipeline()
    const run = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: {
        ITERVOX_FAKE_AGENT_MODE: 'symlink-deliverable',
        ITERVOX_FAKE_AGENT_SYMLINK_TARGET: '/etc/passwd'
      }
    })
    // A deliverable that fails its check fails the stage, with a written partial in its place.
    expect(run.outputs.outcome).toBe('failed')
    expect(run.summary).toContain('not a regular file')
    const files = branchFiles(p)!
    expect(files.filter((f) => HANDOFF.test(f))).toEqual([])
    const partial = run.outputs['handoff-path']!
    expect(partial).toMatch(PARTIAL)
    expect(files).toContain(partial)
    expect(show(p, partial)).toContain('researcher')
    expect(show(p, partial)).not.toContain('root:')
    expect(git(p.sb.origin, 'ls-tree', `refs/heads/itervox/1`, partial)).toMatch(/^100644 /)
  })

  it('keeps both sides when someone pushes to the branch during the run', async () => {
    // The agent cannot reach the origin (it runs as another user), so the human pushes
    // from the test while the agent waits for it.
    const racer = [
      '#!/bin/sh',
      'set -e',
      'cat > /dev/null',
      'echo ready > "$ITERVOX_RACE_DIR/ready"',
      'while [ ! -s "$ITERVOX_RACE_DIR/pushed" ]; do sleep 0.05; done',
      'mkdir -p .itervox/handoff && printf "# Research\\n\\nDone.\\n" > "$ITERVOX_HANDOFF_PATH"'
    ].join('\n')
    const p = await pipeline({
      researcher: 'command: tools/racer.sh',
      files: { 'tools/racer.sh': racer }
    })
    git(p.sb.dir, 'clone', '--quiet', p.sb.origin, join(p.sb.dir, 'chmod'))
    const chmod = join(p.sb.dir, 'chmod')
    git(chmod, 'update-index', '--chmod=+x', 'tools/racer.sh')
    git(chmod, 'commit', '--quiet', '-m', 'exec')
    git(chmod, 'push', '--quiet', 'origin', 'main')
    const race = sharedDir()
    const ready = sharedFile(race, 'ready')
    const pushed = sharedFile(race, 'pushed')
    const running = runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { ITERVOX_RACE_DIR: race }
    })
    while (!readFileSync(ready, 'utf8')) await new Promise((r) => setTimeout(r, 50))
    const human = join(p.sb.dir, 'human')
    git(p.sb.dir, 'clone', '--quiet', p.sb.origin, human)
    git(human, 'checkout', '--quiet', '-b', 'itervox/1')
    writeFileSync(join(human, 'human.txt'), 'human\n')
    git(human, 'add', 'human.txt')
    git(human, 'commit', '--quiet', '-m', 'human commit')
    git(human, 'push', '--quiet', 'origin', 'itervox/1')
    writeFileSync(pushed, 'yes')
    const run = await running
    expect(run.outputs.outcome).toBe('succeeded')
    const files = branchFiles(p)!
    expect(files).toContain('human.txt')
    expect(files).toContain(run.outputs['handoff-path'])
    expect(git(p.sb.origin, 'log', '--format=%s', 'refs/heads/itervox/1')).toContain('human commit')
  })

  it('denies a sender without write access and changes nothing', async () => {
    const p = await pipeline()
    const run = await runAction('main', p.sb, p.gh, labeled(p, 'tim'))
    expect(run.code).toBe(0)
    expect(run.outputs.outcome).toBe('denied')
    expect(run.summary).toBe(
      '## itervox handoff: denied\n\ndenied: @\u2060tim has triage permission on this repository; stages need write, maintain or admin\n'
    )
    expect(branchFiles(p)).toBeNull()
    expect(p.gh.labels(p.issue)).toEqual(['Todo'])
    expect(p.gh.requests.filter((r) => r.method !== 'GET')).toEqual([])
  })

  it('denies a label on a pull request from a fork', async () => {
    const p = await pipeline()
    const run = await runAction('main', p.sb, p.gh, {
      event: 'pull_request.labeled',
      eventOptions: {
        issue: 5,
        label: 'Todo',
        sender: 'ada',
        head: 'feature',
        headRepo: 'mallory/demo'
      }
    })
    expect(run.outputs.outcome).toBe('denied')
    expect(run.summary).toContain('fork')
  })

  it('skips a label that is not a pipeline state', async () => {
    // A state label the issue no longer carries skips the same way: job.test.ts, in memory.
    const p = await pipeline()
    const other = await runAction('main', p.sb, p.gh, labeled(p, 'ada', 'bug'))
    expect(other.code).toBe(0)
    expect(other.outputs.outcome).toBe('skipped')
    expect(other.summary).toContain('label "bug" is not a pipeline state')
    expect(branchFiles(p)).toBeNull()
  })

  it('dry-run shows the prompt in the summary and runs no agent', async () => {
    const p = await pipeline()
    const run = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      inputs: { 'dry-run': 'true' },
      env: { ITERVOX_FAKE_AGENT_MODE: 'exit1' }
    })
    expect(run.outputs.outcome).toBe('skipped')
    // The prompt names the path the agent would write; nothing reports it as written.
    expect(run.outputs['handoff-path']).toBe('')
    expect(run.summary).not.toMatch(/\| (Deliverable|Commit) \|/)
    expect(run.summary).toContain('Work on issue #1: Add CSV export.')
    expect(run.summary).toContain('## Run Context')
    expect(branchFiles(p)).toBeNull()
  })

  it('on cancel (SIGINT) ends the agent and pushes its partial', async () => {
    const p = await pipeline()
    const run = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { ITERVOX_FAKE_AGENT_MODE: 'stall' },
      // The agent's output, once it is printed: the agent runs.
      inputs: { 'show-agent-output': 'true' },
      interrupt: { when: /agent output/, signal: 'SIGINT' }
    })
    expect(run.outputs.outcome).toBe('cancelled')
    expect(branchFiles(p)).toContain(run.outputs['handoff-path'])
    const post = await runAction('post', p.sb, p.gh, { ...labeled(p), state: run.state })
    expect(post.code).toBe(0)
    expect(post.stdout).toContain('nothing to do')
  })

  it('when the main step is killed, the post step ends the agent and pushes the partial', async () => {
    const p = await pipeline()
    const pids = sharedFile(sharedDir(), 'pids')
    const main = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { ITERVOX_FAKE_AGENT_MODE: 'hang-ignore-term', ITERVOX_FAKE_AGENT_PID_FILE: pids },
      inputs: { 'show-agent-output': 'true' },
      interrupt: { when: /agent output/, signal: 'SIGKILL' }
    })
    expect(main.signal).toBe('SIGKILL')
    expect(branchFiles(p)).toBeNull()
    const post = await runAction('post', p.sb, p.gh, { ...labeled(p), state: main.state })
    expect(post.code).toBe(0)
    const files = branchFiles(p)!
    expect(files.some((f) => PARTIAL.test(f))).toBe(true)
    expect(post.summary).toContain('cancelled')
    expect(p.gh.labels(p.issue)).toContain('needs-attention')
    expect(p.gh.comments(p.issue).some((c) => c.body.includes('stage did not finish'))).toBe(true)
    for (const pid of readFileSync(pids, 'utf8').split('\n').filter(Boolean)) {
      expect(
        existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')
      ).toBe(false)
    }
  })
})

/** A pre-receive hook on the bare origin that refuses pushes to refs matching `refs`. */
function refuse(p: Pipeline, refs: string, sleepSeconds = 0): void {
  const hook = join(p.sb.origin, 'hooks', 'pre-receive')
  writeFileSync(
    hook,
    `#!/bin/sh\nsleep ${sleepSeconds}\nwhile read old new ref; do\n  case "$ref" in\n    ${refs}) echo "GH006: Protected branch update failed for $ref." >&2; exit 1 ;;\n  esac\ndone\nexit 0\n`
  )
  chmodSync(hook, 0o755)
}

describe('a stage whose work cannot reach the issue branch', () => {
  it('pushes it to a rescue branch, keeps it complete, and says where on the issue', async () => {
    const p = await pipeline()
    refuse(p, 'refs/heads/itervox/1')
    const run = await runAction('main', p.sb, p.gh, labeled(p))
    expect(run.outputs.outcome).toBe('succeeded')
    expect(run.code).toBe(1)
    const rescue = 'itervox/1-rescue-1001-1'
    expect(branchFiles(p)).toBeNull()
    expect(branchFiles(p, rescue)).toContain(run.outputs['handoff-path'])
    expect(run.outputs['handoff-path']).toMatch(HANDOFF)
    expect(p.gh.labels(p.issue)).toEqual(['Todo', 'needs-attention'])
    const stopped = p.gh.comments(p.issue).find((c) => c.body.includes('pipeline stopped'))
    expect(stopped?.body).toContain(rescue)
    expect(p.gh.dispatches).toEqual([])
  })

  it('keeps the text in the job summary and on the issue when no push is possible at all', async () => {
    const p = await pipeline()
    refuse(p, '*')
    const run = await runAction('main', p.sb, p.gh, labeled(p))
    expect(run.code).toBe(1)
    expect(run.summary).toContain('Unsaved deliverable')
    expect(run.summary).toContain('# Fake claude deliverable')
    const stopped = p.gh.comments(p.issue).find((c) => c.body.includes('pipeline stopped'))
    expect(stopped?.body).toContain('could not be pushed anywhere')
    expect(stopped?.body).toContain('# Fake claude deliverable')
  })

  it('after a kill between commit and push, the post step pushes the complete deliverable and a re-run goes on without the agent', async () => {
    const p = await pipeline()
    refuse(p, 'refs/heads/none', 3)
    const main = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      interrupt: { when: /publishing [0-9a-f]{12}/, signal: 'SIGKILL' }
    })
    expect(main.signal).toBe('SIGKILL')
    const post = await runAction('post', p.sb, p.gh, { ...labeled(p), state: main.state })
    expect(post.code).toBe(0)
    const files = branchFiles(p)!
    expect(files.some((f) => HANDOFF.test(f))).toBe(true)
    expect(files.some((f) => PARTIAL.test(f))).toBe(false)
    const said = p.gh.comments(p.issue).find((c) => c.body.includes('stage did not finish'))
    expect(said?.body).toContain('(succeeded), before it was published')
    expect(said?.body).not.toContain('cancelled')

    const rerun = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { GITHUB_RUN_ATTEMPT: '2', ITERVOX_FAKE_AGENT_MODE: 'exit1' }
    })
    expect(rerun.outputs).toMatchObject({ outcome: 'succeeded', 'next-state': 'Researching' })
    expect(rerun.stdout).toContain('not running the agent again')
    expect(p.gh.labels(p.issue)).toEqual(['Researching'])
  })
})

describe('a re-run of a job whose main step was killed', () => {
  it('after the agent finished and before the commit: the post step commits its complete work, and the re-run goes on without the agent', async () => {
    const p = await pipeline({
      researcher: 'command: tools/agent.sh\ncommit_paths: ["src/**"]'
    })
    commitScript(p, 'tools/agent.sh', [
      '#!/bin/sh',
      'set -e',
      'cat > /dev/null',
      'mkdir -p src .itervox/handoff',
      'echo "export const csv = true" > src/csv.ts',
      'printf "# Research\\n\\nDone.\\n" > "$ITERVOX_HANDOFF_PATH"'
    ])
    const main = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { PATH: killAtCommit(`${p.sb.agentsBin}:${process.env.PATH}`) }
    })
    expect(main.signal).toBe('SIGKILL')
    expect(branchFiles(p)).toBeNull()
    const post = await runAction('post', p.sb, p.gh, { ...labeled(p), state: main.state })
    expect(post.code).toBe(0)
    const files = branchFiles(p)!
    const handoff = files.find((f) => HANDOFF.test(f))
    expect(files.some((f) => PARTIAL.test(f))).toBe(false)
    expect(show(p, handoff!)).toBe('# Research\n\nDone.')
    // The profile's commit_paths hold as in the main step: the agent's code is not lost.
    expect(show(p, 'src/csv.ts')).toBe('export const csv = true')
    expect(post.summary).toContain('## itervox handoff: succeeded')
    const said = p.gh.comments(p.issue).find((c) => c.body.includes('stage did not finish'))
    expect(said?.body).toContain('(succeeded), before its work was committed')
    expect(said?.body).toContain('the agent will not run again')

    const rerun = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { GITHUB_RUN_ATTEMPT: '2' }
    })
    expect(rerun.outputs).toMatchObject({
      outcome: 'succeeded',
      'handoff-path': handoff,
      'next-state': 'Researching'
    })
    expect(rerun.stdout).toContain('not running the agent again')
    expect(p.gh.labels(p.issue)).toEqual(['Researching'])
  })

  it('while the agent runs: the post step saves its partial, and the re-run retries the stage as its next attempt, once', async () => {
    const p = await pipeline()
    // The fake agent's first run stalls; the next one finishes. Each run counts itself.
    const script = sharedDir()
    const runs = sharedFile(script, 'researcher.count')
    writeFileSync(join(script, 'researcher.0.mode'), 'stall')
    const env = { ITERVOX_FAKE_AGENT_SCRIPT_DIR: script }
    const main = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env,
      inputs: { 'show-agent-output': 'true' },
      interrupt: { when: /"subtype":"init"/, signal: 'SIGKILL' }
    })
    expect(main.signal).toBe('SIGKILL')
    const post = await runAction('post', p.sb, p.gh, { ...labeled(p), state: main.state })
    expect(post.code).toBe(0)
    const partial = branchFiles(p)!.find((f) => PARTIAL.test(f))
    expect(partial).toBeDefined()
    const said = p.gh.comments(p.issue).find((c) => c.body.includes('stage did not finish'))
    expect(said?.body).toContain('Re-run the job to go on: the stage is retried')

    // The re-run takes the saved partial as the first attempt's end and retries the stage.
    const rerun = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { ...env, GITHUB_RUN_ATTEMPT: '2' }
    })
    expect(rerun.stdout).toContain('not running the agent again')
    expect(rerun.outputs).toMatchObject({ outcome: 'failed', 'handoff-path': partial })
    expect(readFileSync(runs, 'utf8')).toBe('1')
    expect(p.gh.dispatches).toHaveLength(1)
    const [retry] = await drive(p, wakeUp(p.gh.dispatches[0]!), env, 1)
    expect(retry?.outputs).toMatchObject({ outcome: 'succeeded', 'next-state': 'Researching' })
    expect(readFileSync(runs, 'utf8')).toBe('2')
    const files = branchFiles(p)!
    expect(files).toContain(partial)
    expect(files).toContain(retry?.outputs['handoff-path'])
    expect(p.gh.labels(p.issue)).toEqual(['Researching'])
  })

  it('while the agent runs, with no retries left: the re-run escalates, in words, on the issue', async () => {
    const p = await pipeline({ maxRetries: 0 })
    const main = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { ITERVOX_FAKE_AGENT_MODE: 'stall' },
      inputs: { 'show-agent-output': 'true' },
      interrupt: { when: /"subtype":"init"/, signal: 'SIGKILL' }
    })
    expect(main.signal).toBe('SIGKILL')
    expect((await runAction('post', p.sb, p.gh, { ...labeled(p), state: main.state })).code).toBe(0)
    const rerun = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { GITHUB_RUN_ATTEMPT: '2' }
    })
    expect(rerun.stdout).toContain('not running the agent again')
    expect(rerun.outputs).toMatchObject({ outcome: 'failed', 'next-state': "Won't Do" })
    expect(p.gh.labels(p.issue)).toEqual(['needs-attention', "Won't Do"])
    const stopped = p.gh.comments(p.issue).find((c) => c.body.includes('pipeline stopped'))
    expect(stopped?.body).toContain('retries spent')
    expect(p.gh.dispatches).toEqual([])
  })
})
