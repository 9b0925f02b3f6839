// Where `run` works: a new issue branch starts from the base branch, whatever is checked out,
// the user is put back where they were however the run ends, and a stage sees only its own
// issue's handoffs, not those an earlier issue's merged branch left on the base branch.
import { describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scaffoldFiles } from '../../src/cli/scaffold.js'
import { parseLocalIssue } from '../../src/tracker/local.js'
import { CLI, cli, cliEnv, git, repoWith, writeTestAgent } from './helpers.js'
import { cliInProcess } from './in-process.js'

const ISSUE = (title: string) => `---\ntitle: ${title}\nstate: Todo\n---\n\nDo it.\n`

function setup(): { repo: string; outside: string; prompts: string } {
  const outside = mkdtempSync(join(tmpdir(), 'cli-branch-'))
  const agent = writeTestAgent(outside)
  const files: Record<string, string> = {
    'README.md': '# app\n',
    '.itervox/issues/ENG-1.md': ISSUE('Add CSV export')
  }
  for (const f of scaffoldFiles({ tracker: 'local', command: agent, implementerPaths: ['**'] })) {
    files[f.path] = f.text
  }
  return { repo: repoWith(files), outside, prompts: join(outside, 'prompts') }
}

/** The user works on a feature branch with a commit main does not have. */
function onFeatureBranch(repo: string): string {
  git(repo, 'checkout', '--quiet', '-b', 'feature/x')
  writeFileSync(join(repo, 'feature.txt'), 'not for the issue\n')
  git(repo, 'add', 'feature.txt')
  git(repo, 'commit', '--quiet', '-m', 'feature work')
  return git(repo, 'rev-parse', 'HEAD')
}

const branchOf = (repo: string) => git(repo, 'rev-parse', '--abbrev-ref', 'HEAD')
const stateOf = (repo: string, id = 'ENG-1') =>
  parseLocalIssue(readFileSync(join(repo, `.itervox/issues/${id}.md`), 'utf8'), id, id).state
const headers = (prompt: string) =>
  prompt
    .split('\n')
    .filter((l) => l.startsWith('### '))
    .map((l) => l.slice(4).split(' ')[0])

describe('run and the branches', () => {
  it('makes the issue branch from main while a feature branch is checked out, then returns to it', async () => {
    const { repo } = setup()
    const main = git(repo, 'rev-parse', 'main')
    const feature = onFeatureBranch(repo)

    const r = await cli(repo, ['run', '--issue', 'ENG-1'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('ENG-1 is in "Implementing" on branch itervox/ENG-1\n')
    expect(git(repo, 'rev-parse', 'itervox/ENG-1^')).toBe(main)
    expect(git(repo, 'ls-tree', '--name-only', 'itervox/ENG-1')).not.toContain('feature.txt')
    expect(branchOf(repo)).toBe('feature/x')
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(feature)
    expect(stateOf(repo)).toBe('Implementing')
  })

  it('returns to the branch after a failed stage, and to a detached HEAD', async () => {
    const { repo } = setup()
    onFeatureBranch(repo)
    const failed = await cli(repo, ['run', '--issue', 'ENG-1'], {
      ITERVOX_TEST_AGENT: JSON.stringify({ researcher: 'fail' })
    })
    expect(failed.stdout).toContain('✗ researcher in "Todo" · failed')
    expect(branchOf(repo)).toBe('feature/x')

    const main = git(repo, 'rev-parse', 'main')
    git(repo, 'checkout', '--quiet', '--detach', 'main')
    // What the first run proved through the bundle, in-process: the checkout is the command's.
    const again = await cliInProcess(repo, ['run', '--issue', 'ENG-1'])
    expect(again.code).toBe(0)
    expect(branchOf(repo)).toBe('HEAD')
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(main)
  })

  it('returns to the branch after Ctrl-C, with the partial on the issue branch', async () => {
    const { repo, outside } = setup()
    onFeatureBranch(repo)
    const pidFile = join(outside, 'agent.pid')
    const child = spawn(process.execPath, [CLI, 'run', '--issue', 'ENG-1'], {
      cwd: repo,
      env: cliEnv(repo, {
        ITERVOX_TEST_AGENT: JSON.stringify({ researcher: 'hang' }),
        ITERVOX_TEST_AGENT_PID: pidFile
      }),
      stdio: ['ignore', 'ignore', 'pipe']
    })
    child.stderr.resume()
    const closed = new Promise<number | null>((r) => child.on('close', (c) => r(c)))
    // The agent writes its pid once it runs; then Ctrl-C.
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '') {
          clearInterval(poll)
          resolve()
        }
      }, 50)
    })
    child.kill('SIGINT')
    expect(await closed).toBe(130)
    expect(branchOf(repo)).toBe('feature/x')
    expect(git(repo, 'ls-tree', '--name-only', 'itervox/ENG-1:.itervox/handoff')).toMatch(
      /_researcher\.partial\.md$/
    )
  })

  it('shows the second issue only its own handoffs once the first issue is merged to main', async () => {
    const { repo, prompts } = setup()
    const env = { ITERVOX_TEST_AGENT_PROMPTS: prompts }
    // Both in-process: the first test's run is the bundle's.
    const first = await cliInProcess(repo, ['run', '--issue', 'ENG-1', '--until-idle'], env)
    expect(first.code).toBe(0)
    expect(stateOf(repo)).toBe('Done')
    const firstTrail = git(repo, 'ls-tree', '--name-only', 'itervox/ENG-1:.itervox/handoff')
      .split('\n')
      .filter(Boolean)
    expect(firstTrail).toHaveLength(3)
    expect(branchOf(repo)).toBe('main')
    git(repo, 'merge', '--quiet', '--no-ff', '-m', 'Merge ENG-1', 'itervox/ENG-1')

    writeFileSync(join(repo, '.itervox/issues/ENG-2.md'), ISSUE('Add PDF export'))
    const before = readdirSync(prompts).length
    const second = await cliInProcess(repo, ['run', '--issue', 'ENG-2', '--until-idle'], env)
    expect(second.stderr).toBe('')
    expect(second.code).toBe(0)
    const secondTrail = git(repo, 'ls-tree', '--name-only', 'itervox/ENG-2:.itervox/handoff')
      .split('\n')
      .filter(Boolean)
    // The branch holds both trails (it starts from main); the prompts show only its own.
    expect(secondTrail).toHaveLength(6)
    const own = secondTrail.filter((f) => !firstTrail.includes(f))
    const seen = readdirSync(prompts)
      .sort()
      .slice(before)
      .map((f) => headers(readFileSync(join(prompts, f), 'utf8')))
    expect(seen).toEqual([[], own.slice(0, 1), own.slice(0, 2)])
  })
})
