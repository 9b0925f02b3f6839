// A profile whose agent CLI is missing, misspelt or out of the agent user's reach: the bundled
// action stops before the stage starts, with one line that says what to change, and nothing
// of the stage happens (no commit, no branch, no move, no retry, no pull request).
import { afterEach, describe, expect, it } from '@jest/globals'
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { FIXTURES } from '../agent/fake-agents.js'
import { checkoutShallow, git, runAction } from '../harness/action-run.js'
import { startPipeline, workflowMd, type Pipeline } from './pipeline-fixture.js'

let current: Pipeline | undefined
afterEach(async () => {
  await current?.gh.stop()
  current = undefined
})

const labeled = (p: Pipeline) => ({
  event: 'issues.labeled' as const,
  eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada', title: 'x' }
})

const commandLine = (command: string) =>
  workflowMd({ command }).split('\n').indexOf(`  command: ${command}`) + 1

function expectNothingHappened(p: Pipeline) {
  expect(() => git(p.sb.origin, 'rev-parse', '--verify', 'refs/heads/itervox/1')).toThrow()
  expect(p.gh.labels(p.issue)).toEqual(['Todo'])
  expect(p.gh.dispatches).toEqual([])
  expect(p.gh.pulls()).toEqual([])
  // The one comment that says why; no status comment, so no record and no attempt counted.
  const comments = p.gh.commentsOf(p.issue).map((c) => c.body)
  expect(comments).toHaveLength(1)
  expect(comments[0]).toContain('**The researcher stage could not start**')
  expect(comments[0]).toContain('stays in "Todo"')
}

function errorLines(stdout: string): string[] {
  return stdout.split('\n').filter((l) => l.startsWith('::error::'))
}

describe('a stage whose agent command cannot run', () => {
  it('stops before the stage with one line naming the profile, the command and WORKFLOW.md:line', async () => {
    const p = (current = await startPipeline({ command: 'claud' }))
    checkoutShallow(p.sb)
    const run = await runAction('main', p.sb, p.gh, labeled(p))
    expect(run.code).toBe(1)
    expect(errorLines(run.stdout)).toEqual([
      `::error::WORKFLOW.md:${commandLine('claud')}: the researcher stage cannot start: command "claud" of profile "researcher" was not found on PATH (did you mean "claude"?); install it (in CI: in a step before this action) or fix agent.command`
    ])
    expect(run.outputs.outcome).toBe('failed')
    expect(run.stdout).not.toContain('agent output')
    expectNothingHappened(p)
    expect(p.gh.commentsOf(p.issue)[0]!.body).toContain('command "claud" of profile "researcher"')

    // Once it is there, the same event runs the stage as its first attempt: none was spent.
    symlinkSync(join(FIXTURES, 'fake-generic.sh'), join(p.sb.agentsBin, 'claud'))
    const fixed = await runAction('main', p.sb, p.gh, labeled(p))
    expect(fixed.outputs).toMatchObject({ outcome: 'succeeded', 'next-state': 'Researching' })
    expect(git(p.sb.origin, 'rev-list', '--count', 'main..refs/heads/itervox/1')).toBe('1')
    expect(git(p.sb.origin, 'log', '-1', '--format=%B', 'refs/heads/itervox/1')).toMatch(
      /^Itervox-Stage: 1\/work\/0\/0$/m
    )
  })

  it('says so when the isolated agent user cannot run the file it would get', async () => {
    // Root's own folder: on PATH for the runner, closed to every other user.
    const p = (current = await startPipeline())
    const bin = join(p.sb.dir, 'private-bin')
    mkdirSync(bin, { mode: 0o700 })
    writeFileSync(join(bin, 'claude'), '#!/bin/sh\nexit 0\n')
    chmodSync(join(bin, 'claude'), 0o755)
    checkoutShallow(p.sb)
    const run = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { PATH: `${bin}:${process.env.PATH}` }
    })
    expect(run.code).toBe(1)
    const lines = errorLines(run.stdout)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(
      `::error::WORKFLOW.md:${commandLine('claude')}: the researcher stage cannot start: command "claude" of profile "researcher" is at ${join(bin, 'claude')}, which the agent user cannot run; install the CLI where every user can`
    )
    expectNothingHappened(p)
  })

  it('stops before the stage with one line naming the secret when no model key is set, isolated or not', async () => {
    const p = (current = await startPipeline())
    checkoutShallow(p.sb)
    const line = `::error::WORKFLOW.md:${commandLine('claude')}: the researcher stage cannot start: claude has no model key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN, CLAUDE_CODE_OAUTH_TOKEN); in CI, a repository secret passed in the action step's env:`
    for (const isolation of ['user', 'none']) {
      const run = await runAction('main', p.sb, p.gh, {
        ...labeled(p),
        inputs: { isolation },
        env: { CLAUDE_CODE_USE_BEDROCK: '' }
      })
      expect([isolation, run.code, errorLines(run.stdout)]).toEqual([isolation, 1, [line]])
      expect(run.outputs.outcome).toBe('failed')
      expect(run.stdout).not.toContain('agent output')
    }
    // Nothing of the stage happened, no attempt counted: one comment says why.
    expectNothingHappened(p)
    expect(p.gh.commentsOf(p.issue)[0]!.body).toContain('set ANTHROPIC_API_KEY')
    expect(() => git(p.sb.origin, 'rev-parse', '--verify', 'refs/heads/itervox/1')).toThrow()
    expect(p.gh.dispatches).toEqual([])

    // Claude Code's other logins count: Vertex runs the stage, as its first attempt.
    const fixed = await runAction('main', p.sb, p.gh, {
      ...labeled(p),
      env: { CLAUDE_CODE_USE_BEDROCK: '', CLAUDE_CODE_USE_VERTEX: '1' }
    })
    expect(fixed.outputs).toMatchObject({ outcome: 'succeeded', 'next-state': 'Researching' })
    expect(git(p.sb.origin, 'log', '-1', '--format=%B', 'refs/heads/itervox/1')).toMatch(
      /^Itervox-Stage: 1\/work\/0\/0$/m
    )
  })
})
