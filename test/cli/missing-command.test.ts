// `run` with a profile whose agent CLI is not installed: one line that says what to change,
// and nothing of the stage happens (no commit, no state move, no retry, no record).
import { describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { scaffoldFiles } from '../../src/cli/scaffold.js'
import { parseLocalIssue } from '../../src/tracker/local.js'
import { cli, git, repoWith, writeTestAgent } from './helpers.js'
import { cliInProcess } from './in-process.js'

function pipeline(command: string): string {
  const files: Record<string, string> = {
    '.itervox/issues/ENG-1.md': '---\ntitle: Add CSV export\nstate: Todo\n---\n\nCSV, please.\n'
  }
  for (const f of scaffoldFiles({ tracker: 'local', command, implementerPaths: ['**'] })) {
    files[f.path] = f.text
  }
  return repoWith(files, 'cli-missing-')
}

describe('itervox-handoff run, when the agent command is missing', () => {
  it('stops before the stage with one line, leaving the issue, the branch and the record as they were', async () => {
    const repo = pipeline('no-such-agent')
    const line = readFileSync(join(repo, 'WORKFLOW.md'), 'utf8')
      .split('\n')
      .indexOf('  command: no-such-agent')
    // The first through the bundle, for its exit status and output; the rest in-process.
    for (const [i, args] of [
      ['run', '--issue', 'ENG-1'],
      ['run', '--issue', 'ENG-1', '--until-idle']
    ].entries()) {
      const r = await (i === 0 ? cli : cliInProcess)(repo, args)
      expect(r.code).toBe(1)
      expect(r.stdout).toBe('── Deciding\n── Preparing itervox/ENG-1\n')
      expect(r.stderr).toBe(
        `WORKFLOW.md:${line + 1}: the researcher stage cannot start: command "no-such-agent" of profile "researcher" was not found on PATH; install it (in CI: in a step before this action) or fix agent.command\n`
      )
    }
    // The branch made for the stage is gone, and you are back on main.
    expect(git(repo, 'branch', '--list', 'itervox/*')).toBe('')
    expect(git(repo, 'branch', '--show-current')).toBe('main')
    const issue = readFileSync(join(repo, '.itervox/issues/ENG-1.md'), 'utf8')
    expect(parseLocalIssue(issue, 'ENG-1', 'ENG-1').state).toBe('Todo')
    // Each attempt says so on the issue; no retry was counted, no record was written.
    expect(issue.match(/\*\*The researcher stage could not start\*\*/g)).toHaveLength(2)
    expect(existsSync(join(repo, '.itervox/runs/ENG-1.json'))).toBe(false)

    // Once the command is committed on main, the next run's branch starts from there.
    const agent = writeTestAgent(repo)
    const workflow = readFileSync(join(repo, 'WORKFLOW.md'), 'utf8')
    writeFileSync(join(repo, 'WORKFLOW.md'), workflow.replace('no-such-agent', agent))
    git(repo, 'add', 'WORKFLOW.md', 'test-agent.mjs')
    git(repo, 'commit', '--quiet', '-m', 'the agent')
    const r = await cliInProcess(repo, ['run', '--issue', 'ENG-1'])
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(git(repo, 'show', 'itervox/ENG-1:test-agent.mjs')).toContain('ITERVOX_PROFILE')
  })

  it('keeps an issue branch it did not make', async () => {
    const repo = pipeline('no-such-agent')
    git(repo, 'branch', 'itervox/ENG-1')
    const r = await cliInProcess(repo, ['run', '--issue', 'ENG-1'])
    expect(r.code).toBe(1)
    expect(git(repo, 'branch', '--list', 'itervox/*')).toBe('itervox/ENG-1')
    expect(git(repo, 'branch', '--show-current')).toBe('main')
  })
})
