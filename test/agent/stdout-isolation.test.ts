import { afterAll, describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AgentRunResult, RunAgentOptions } from '../../src/agent/types.js'
import { installFakeAgents } from './fake-agents.js'

const here = dirname(fileURLToPath(import.meta.url))
const bin = installFakeAgents()
const roots = [dirname(bin)]
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })))

/** Runs one agent through the harness process; returns that process's stdout and stderr. */
async function runIsolated(command: string, mode: string) {
  const root = mkdtempSync(join(tmpdir(), 'agent-isolated-'))
  roots.push(root)
  mkdirSync(join(root, 'repo'))
  const opts: RunAgentOptions = {
    argv: [command],
    cwd: join(root, 'repo'),
    prompt: 'prompt',
    contract: {
      handoffPath: '.itervox/handoff/2026-01-02T03-04-05.678Z_dev.md',
      runTimestamp: '2026-01-02T03-04-05.678Z',
      profile: 'dev',
      issue: '1',
      promptFile: join(root, 'prompt.md')
    },
    parentEnv: { PATH: `${bin}:${process.env.PATH}`, ITERVOX_FAKE_AGENT_MODE: mode },
    logPath: join(root, 'agent.log'),
    stallTimeoutMs: 5000,
    deadlineMs: 20_000,
    maxTurns: 5,
    killGraceMs: 200,
    pollMs: 50
  }
  writeFileSync(join(root, 'options.json'), JSON.stringify(opts))
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(here, 'run-agent-harness.ts'),
      join(root, 'options.json'),
      join(root, 'result.json')
    ],
    { cwd: join(here, '../..'), stdio: ['ignore', 'pipe', 'pipe'] }
  )
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  const code = await new Promise((done) => child.on('close', done))
  expect(code).toBe(0)
  const result = JSON.parse(readFileSync(join(root, 'result.json'), 'utf8')) as AgentRunResult
  return { stdout, stderr, result, log: readFileSync(opts.logPath, 'utf8') }
}

describe("the agent's output never reaches our own stdout", () => {
  it('keeps workflow commands from a stream-json agent in the log only', async () => {
    const { stdout, stderr, result, log } = await runIsolated('claude', 'workflow-commands')
    expect(result.outcome).toBe('succeeded')
    expect(log).toContain('::set-output name=outcome::succeeded')
    expect(log).toContain('::save-state name=x::y')
    expect(stdout).toBe('')
    expect(stderr).not.toContain('::')
  })

  it('keeps a plain-text agent out of stdout too', async () => {
    const { stdout, result, log } = await runIsolated('generic-agent', 'workflow-commands')
    expect(result.outcome).toBe('succeeded')
    expect(log).toContain('::add-mask::not-a-secret')
    expect(stdout).toBe('')
  })
})
