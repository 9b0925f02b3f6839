// The README's local walk-through, run exactly as written in a fresh repository, with this
// checkout's CLI as `itervox-handoff`: it must work from `init` to the end of the pipeline with
// its own agent script, and, as the README says, with `init`'s `claude` once the agent.sh
// lines are left out (the scripted Claude stand-in as `claude`).
import { describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FIXTURES } from '../agent/fake-agents.js'
import { CLI, git, repoWith, ROOT, type Run } from './helpers.js'

/** The first sh block under "## Try a pipeline locally". */
function walkThrough(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('\n## Try a pipeline locally\n'))
  const block = /\n```sh\n([^]*?)\n```\n/.exec(section)
  if (!block) throw new Error('README.md: the local walk-through has no sh block')
  return block[1]!
}

/** A folder outside the repository with `bin/itervox-handoff`, this checkout's CLI. */
function outsideWithCli(): { outside: string; bin: string } {
  const outside = mkdtempSync(join(tmpdir(), 'walkthrough-bin-'))
  const bin = join(outside, 'bin')
  mkdirSync(bin)
  symlinkSync(CLI, join(bin, 'itervox-handoff'))
  return { outside, bin }
}

function bash(cwd: string, script: string, env: Record<string, string>): Promise<Run> {
  return new Promise((done) => {
    execFile('bash', ['-e', '-c', script], { cwd, env }, (err, stdout, stderr) => {
      const code = err ? (err as { code?: unknown }).code : 0
      done({ code: typeof code === 'number' ? code : 1, stdout, stderr })
    })
  })
}

function gitEnv(bin: string, home: string): Record<string, string> {
  return {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: home,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Ada',
    GIT_AUTHOR_EMAIL: 'ada@example.com',
    GIT_COMMITTER_NAME: 'Ada',
    GIT_COMMITTER_EMAIL: 'ada@example.com'
  }
}

const STAGES = [
  'itervox(reviewer): succeeded stage for ENG-1',
  'itervox(implementer): succeeded stage for ENG-1',
  'itervox(researcher): succeeded stage for ENG-1'
]

describe("the README's local walk-through", () => {
  it('runs from init to the end of the pipeline with its own agent script, no model', async () => {
    const script = walkThrough()
    expect(script).toContain('itervox-handoff init --tracker local\n')
    const repo = repoWith({ 'README.md': '# app\n' }, 'walkthrough-')
    const { outside, bin } = outsideWithCli()

    const r = await bash(repo, script, gitEnv(bin, outside))
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('created   .itervox/issues/\n')
    expect(r.stdout).toContain('ENG-1 is in "Done" on branch itervox/ENG-1')
    expect(git(repo, 'log', '--format=%s', 'main..itervox/ENG-1').split('\n')).toEqual(STAGES)
    // The script read its prompt and wrote its deliverable where the pipeline asked.
    const files = git(repo, 'diff', '--name-only', 'main', 'itervox/ENG-1').split('\n')
    expect(files).toHaveLength(3)
    const researcher = files.find((f) => f.endsWith('_researcher.md'))!
    expect(researcher).toMatch(/^\.itervox\/handoff\/[0-9T:.Z-]+_researcher\.md$/)
    expect(git(repo, 'show', `itervox/ENG-1:${researcher}`)).toMatch(
      /^# researcher on ENG-1\n\nMy prompt had \d+ lines\. It began: You are one stage of a pipeline working on issue ENG-1: Add CSV export\.$/
    )
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe(
      '?? .itervox/issues/ENG-1.md'
    )
  })

  it("runs with init's claude once the agent.sh lines are left out, discarding what a stage may not commit", async () => {
    const agentLines =
      /\n# An agent that needs no model[^]*?\nsed -i\.bak [^\n]*WORKFLOW\.md\.bak\n/
    const script = walkThrough().replace(agentLines, '\n')
    expect(script).not.toContain('agent.sh')
    const repo = repoWith({ 'README.md': '# app\n' }, 'walkthrough-')
    const { outside, bin } = outsideWithCli()
    symlinkSync(join(FIXTURES, 'fake-claude.mjs'), join(bin, 'claude'))
    // The researcher also writes a workflow file, which no profile may commit.
    const scripts = join(outside, 'script')
    mkdirSync(scripts)
    writeFileSync(join(scripts, 'researcher.0.mode'), 'workflow-write\n')

    const r = await bash(repo, script, {
      ...gitEnv(bin, outside),
      ITERVOX_FAKE_AGENT_SCRIPT_DIR: scripts,
      // The reader's Claude Code is logged in: claude does not start without a model key.
      ANTHROPIC_API_KEY: 'test-model-key'
    })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('.github/workflows/x.yml was not committed: forbidden path')
    expect(r.stdout).toContain('ENG-1 is in "Done" on branch itervox/ENG-1')
    expect(git(repo, 'log', '--format=%s', 'main..itervox/ENG-1').split('\n')).toEqual(STAGES)
    // Only the tracker's own files are left.
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe(
      '?? .itervox/issues/ENG-1.md'
    )
  })
})
