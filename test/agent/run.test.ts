import { afterAll, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { runAgent } from '../../src/agent/run.js'
import type { AgentActivity, RunAgentOptions } from '../../src/agent/types.js'
import { FIXTURES, installFakeAgents } from './fake-agents.js'

const bin = installFakeAgents()
const roots = [dirname(bin)]
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })))
const HANDOFF = '.itervox/handoff/2026-01-02T03-04-05.678Z_dev.md'

/** A fresh repository directory and options for one run of a fake agent. */
function setup(
  command: string,
  mode: string,
  over: Partial<RunAgentOptions> = {},
  env: Record<string, string> = {}
) {
  const root = mkdtempSync(join(tmpdir(), 'agent-run-'))
  roots.push(root)
  const repo = join(root, 'repo')
  mkdirSync(repo)
  const pidFile = join(root, 'pids')
  const activity: AgentActivity[] = []
  const opts: RunAgentOptions = {
    argv: [command],
    cwd: repo,
    prompt: 'Write the plan for issue #42.',
    contract: {
      handoffPath: HANDOFF,
      runTimestamp: '2026-01-02T03-04-05.678Z',
      profile: 'dev',
      issue: '42',
      promptFile: join(root, 'prompt.md')
    },
    parentEnv: {
      ...process.env,
      PATH: `${bin}:${process.env.PATH}`,
      ITERVOX_FAKE_AGENT_MODE: mode,
      ITERVOX_FAKE_AGENT_PID_FILE: pidFile,
      GITHUB_TOKEN: 'ghs_must_not_leak',
      ACTIONS_RUNTIME_TOKEN: 'runtime_must_not_leak',
      'INPUT_GITHUB-TOKEN': 'ghs_must_not_leak',
      GITHUB_OUTPUT: join(root, 'github_output'),
      ...env
    },
    logPath: join(root, 'logs', 'agent.log'),
    stallTimeoutMs: 5000,
    deadlineMs: 20_000,
    maxTurns: 12,
    killGraceMs: 200,
    pollMs: 50,
    onActivity: (e) => activity.push(e),
    ...over
  }
  const pids = () =>
    existsSync(pidFile) ? readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number) : []
  return { root, repo, opts, activity, pids, deliverable: join(repo, HANDOFF) }
}

/** True while the pid names a process that can still run (a zombie cannot). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))
  } catch {
    return false
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

describe('runAgent with the claude preset', () => {
  it('runs a good session: deliverable, stats, final text, log, events', async () => {
    const t = setup('claude', 'good')
    const started: { pid: number; argv: string[] }[] = []
    const r = await runAgent({ ...t.opts, onStart: (info) => started.push(info) })
    expect(started).toHaveLength(1)
    expect(started[0]?.pid).toBe(t.pids()[0])
    expect(started[0]?.argv).toEqual([
      'claude',
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--max-turns',
      '12',
      '--dangerously-skip-permissions'
    ])
    expect(r).toMatchObject({
      outcome: 'succeeded',
      reason: 'exit code 0',
      exitCode: 0,
      signal: null,
      preset: 'claude',
      stats: { turns: 3, inputTokens: 13612, outputTokens: 420, costUsd: 0.0421 },
      resultText: 'Deliverable written. Summary: the change is ready for review.',
      logPath: t.opts.logPath
    })
    expect(r.question).toBeUndefined()
    const deliverable = readFileSync(t.deliverable, 'utf8')
    expect(deliverable).toContain(`- prompt-sha256: ${sha256(t.opts.prompt)}`)
    expect(deliverable).toContain('- prompt-file-matches: yes')
    expect(deliverable).toContain('- profile: dev')
    expect(deliverable).toContain('- issue: 42')
    expect(readFileSync(t.opts.logPath, 'utf8')).toContain('"subtype":"init"')
    expect(t.activity.filter((a) => a.kind === 'event').map((a) => a.text)).toEqual([
      'system init',
      'assistant text',
      'tool Write',
      'tool result',
      'assistant text',
      'result success'
    ])
    expect(Date.parse(r.lastActivityAt)).not.toBeNaN()
  })

  it('fails on exit 1 and keeps stderr in the log', async () => {
    const t = setup('claude', 'exit1')
    const r = await runAgent(t.opts)
    expect(r).toMatchObject({ outcome: 'failed', reason: 'exit code 1', exitCode: 1 })
    expect(readFileSync(t.opts.logPath, 'utf8')).toContain('Error: fake crash')
  })

  it('fails clearly when the command is not found', async () => {
    const t = setup('claude-nonexistent', 'good')
    const r = await runAgent(t.opts)
    expect(r).toMatchObject({
      outcome: 'failed',
      reason: 'command "claude-nonexistent" of profile "dev" was not found on PATH',
      exitCode: null,
      preset: 'generic'
    })
  })

  it('calls a 429 result rate_limited and a 529 result failed', async () => {
    const limited = await runAgent(setup('claude', 'rate_limit').opts)
    expect(limited).toMatchObject({
      outcome: 'rate_limited',
      reason: 'API error 429 (rate limited)',
      exitCode: 1
    })
    const overloaded = await runAgent(setup('claude', 'overloaded').opts)
    expect(overloaded).toMatchObject({ outcome: 'failed', reason: 'API error 529', exitCode: 1 })
  })

  it('reports the turn limit as the failure', async () => {
    const r = await runAgent(setup('claude', 'max-turns').opts)
    expect(r).toMatchObject({ outcome: 'failed', reason: 'reached the turn limit (12 turns)' })
  })

  it('asks for input with the question before the sentinel', async () => {
    const r = await runAgent(setup('claude', 'needs-input').opts)
    expect(r.outcome).toBe('input_required')
    expect(r.question).toBe(
      'The issue does not say which database to target.\n\nShould the migration run on Postgres or on SQLite?'
    )
    const fenced = await runAgent(setup('claude', 'needs-input-fenced').opts)
    expect(fenced.outcome).toBe('succeeded')
    expect(fenced.question).toBeUndefined()
    const tool = await runAgent(setup('claude', 'ask-question').opts)
    expect(tool).toMatchObject({
      outcome: 'input_required',
      question: 'Which API version should the client target?'
    })
  })

  it('tolerates garbage lines, invalid UTF-8 and events split across writes', async () => {
    const t = setup('claude', 'garbage')
    const r = await runAgent(t.opts)
    expect(r).toMatchObject({
      outcome: 'succeeded',
      resultText: 'Deliverable written. Summary: the change is ready for review.'
    })
    expect(t.activity.some((a) => a.kind === 'event' && a.text === 'assistant text')).toBe(true)
  })

  it('logs workflow commands the agent prints and hands them only to onActivity', async () => {
    const t = setup('claude', 'workflow-commands')
    const r = await runAgent(t.opts)
    expect(r.outcome).toBe('succeeded')
    const log = readFileSync(t.opts.logPath, 'utf8')
    expect(log).toContain('::set-output name=outcome::succeeded')
    expect(log).toContain('::error::forged by the agent')
    expect(existsSync(join(t.root, 'github_output'))).toBe(false)
  })

  it('gives the agent an allow-listed environment with the contract variables', async () => {
    const t = setup('claude', 'env-dump')
    const r = await runAgent(t.opts)
    expect(r.outcome).toBe('succeeded')
    const env = JSON.parse(readFileSync(t.deliverable, 'utf8')) as Record<string, string>
    expect(env).toMatchObject({
      ITERVOX_HANDOFF_PATH: HANDOFF,
      ITERVOX_RUN_TIMESTAMP: '2026-01-02T03-04-05.678Z',
      ITERVOX_PROFILE: 'dev',
      ITERVOX_ISSUE: '42',
      ITERVOX_PROMPT_FILE: t.opts.contract.promptFile,
      ITERVOX_AGENT: '1'
    })
    const names = Object.keys(env)
    expect(names.filter((n) => /^(ACTIONS_|INPUT_)/i.test(n))).toEqual([])
    for (const n of ['GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_OUTPUT', 'GITHUB_ENV', 'GITHUB_STATE']) {
      expect(names).not.toContain(n)
    }
    expect(JSON.stringify(env)).not.toContain('must_not_leak')
    expect(env.IS_SANDBOX).toBe(process.getuid?.() === 0 ? '1' : undefined)
  })

  it('passes only the names the profile declares, its model variables and HOME as given', async () => {
    const t = setup(
      'claude',
      'env-dump',
      { declaredEnv: ['NPM_TOKEN', 'GITHUB_TOKEN'], home: '/tmp/agent-home' },
      {
        NPM_TOKEN: 'npm-declared',
        AWS_SECRET_ACCESS_KEY: 'aws_must_not_leak',
        ANTHROPIC_API_KEY: 'k'
      }
    )
    expect((await runAgent(t.opts)).outcome).toBe('succeeded')
    const env = JSON.parse(readFileSync(t.deliverable, 'utf8')) as Record<string, string>
    expect(env).toMatchObject({ NPM_TOKEN: 'npm-declared', ANTHROPIC_API_KEY: 'k' })
    expect(env.HOME).toBe('/tmp/agent-home')
    expect(env).not.toHaveProperty(['AWS_SECRET_ACCESS_KEY'])
    expect(env).not.toHaveProperty(['GITHUB_TOKEN'])
    expect(JSON.stringify(env)).not.toContain('must_not_leak')
  })

  it('passes a 5 MB prompt on stdin intact', async () => {
    const prompt = 'p'.repeat(5 * 1024 * 1024 - 3) + '€\n'
    const t = setup('claude', 'good', { prompt })
    const r = await runAgent(t.opts)
    expect(r.outcome).toBe('succeeded')
    const deliverable = readFileSync(t.deliverable, 'utf8')
    expect(deliverable).toContain(`- prompt-bytes: ${Buffer.byteLength(prompt)}`)
    expect(deliverable).toContain(`- prompt-sha256: ${sha256(prompt)}`)
    expect(readFileSync(t.opts.contract.promptFile, 'utf8')).toBe(prompt)
  })
})

describe('runAgent liveness and ending', () => {
  it('ends a silent, idle agent as stalled', async () => {
    const t = setup('claude', 'stall', { stallTimeoutMs: 500 })
    const r = await runAgent(t.opts)
    expect(r).toMatchObject({ outcome: 'stalled', reason: 'no output and no busy CPU for 0.5 s' })
    expect(t.pids().filter(alive)).toEqual([])
  })

  it('does not stall an agent that is silent but busy on CPU in a grandchild', async () => {
    const t = setup(
      'claude',
      'busy-silent',
      { stallTimeoutMs: 500 },
      { ITERVOX_FAKE_AGENT_BUSY_MS: '1500' }
    )
    const r = await runAgent(t.opts)
    expect(r.outcome).toBe('succeeded')
    expect(t.activity.some((a) => a.kind === 'cpu')).toBe(true)
  })

  it('ends an agent that keeps talking past its deadline as timed_out', async () => {
    const t = setup('claude', 'endless', { deadlineMs: 600, stallTimeoutMs: 5000 })
    const r = await runAgent(t.opts)
    expect(r).toMatchObject({ outcome: 'timed_out', reason: 'deadline of 0.6 s reached' })
    expect(t.pids().filter(alive)).toEqual([])
  })

  it('SIGKILLs a group that ignores SIGTERM, grandchild included, before resolving', async () => {
    const t = setup('claude', 'hang-ignore-term', { stallTimeoutMs: 400 })
    const r = await runAgent(t.opts)
    expect(r.outcome).toBe('stalled')
    expect(r.signal).toBe('SIGKILL')
    expect(t.pids()).toHaveLength(2)
    expect(t.pids().filter(alive)).toEqual([])
  })

  it('kills what a finished agent left running in its group', async () => {
    const t = setup('claude', 'leave-orphan')
    const r = await runAgent(t.opts)
    expect(r.outcome).toBe('succeeded')
    expect(t.pids()).toHaveLength(2)
    expect(t.pids().filter(alive)).toEqual([])
  })

  it('ends the run as cancelled when the signal aborts', async () => {
    const controller = new AbortController()
    const t = setup('claude', 'stall', {
      onActivity: (e) => {
        if (e.kind === 'event') controller.abort('the job was cancelled')
      },
      signal: controller.signal
    })
    const r = await runAgent(t.opts)
    expect(r).toMatchObject({ outcome: 'cancelled', reason: 'cancelled: the job was cancelled' })
    expect(t.pids().filter(alive)).toEqual([])
  })

  it('does not start an agent when the signal has already aborted', async () => {
    const t = setup('claude', 'good', { signal: AbortSignal.abort() })
    const r = await runAgent(t.opts)
    expect(r).toMatchObject({ outcome: 'cancelled', reason: 'cancelled' })
    expect(existsSync(t.deliverable)).toBe(false)
  })
})

describe('runAgent with a generic agent', () => {
  it('runs a plain-text agent and reads the prompt from stdin', async () => {
    const t = setup('generic-agent', 'good')
    const r = await runAgent(t.opts)
    expect(r).toMatchObject({ outcome: 'succeeded', preset: 'generic', stats: {} })
    expect(r.resultText).toBe(`read ${Buffer.byteLength(t.opts.prompt)} bytes of prompt\ndone`)
  })

  it('takes a path relative to the repository root as the command', async () => {
    const t = setup('generic-agent', 'good')
    t.opts.argv = [relative(t.repo, join(FIXTURES, 'fake-generic.sh'))]
    expect(t.opts.argv[0]).toMatch(/^\.\.\//)
    expect((await runAgent(t.opts)).outcome).toBe('succeeded')
  })

  it('survives a 5 MB prompt to an agent that never reads stdin', async () => {
    const t = setup('generic-agent', 'ignore-stdin', { prompt: 'x'.repeat(5 * 1024 * 1024) })
    const r = await runAgent(t.opts)
    expect(r).toMatchObject({ outcome: 'succeeded', resultText: 'not reading the prompt' })
  })

  it('names the signal that killed it', async () => {
    const r = await runAgent(setup('generic-agent', 'segv').opts)
    expect(r).toMatchObject({
      outcome: 'failed',
      reason: 'killed by signal SIGSEGV',
      exitCode: null
    })
  })

  it('finds the sentinel in stdout, not in a fence', async () => {
    const asked = await runAgent(setup('generic-agent', 'needs-input').opts)
    expect(asked).toMatchObject({
      outcome: 'input_required',
      question: 'working on it\nWhich environment should the deploy target, staging or production?'
    })
    const fenced = await runAgent(setup('generic-agent', 'needs-input-fenced').opts)
    expect(fenced.outcome).toBe('succeeded')
  })

  it('stalls a shell agent sleeping in a child, and kills the child too', async () => {
    const t = setup('generic-agent', 'stall', { stallTimeoutMs: 400 })
    const r = await runAgent(t.opts)
    expect(r.outcome).toBe('stalled')
    expect(t.pids()).toHaveLength(2)
    expect(t.pids().filter(alive)).toEqual([])
  })

  it('does not hang on a process that left the group and holds stdout open', async () => {
    const t = setup('generic-agent', 'escape-group')
    const r = await runAgent(t.opts)
    expect(r).toMatchObject({ outcome: 'succeeded', resultText: 'left a process behind' })
    const escaped = t.pids()[1] as number
    // Outside the group, out of reach (only a PID namespace would catch it); clean it up here.
    expect(alive(escaped)).toBe(true)
    process.kill(escaped, 'SIGKILL')
  })

  it('fails with exit code 1', async () => {
    const r = await runAgent(setup('generic-agent', 'exit1').opts)
    expect(r).toMatchObject({ outcome: 'failed', reason: 'exit code 1' })
  })
})

describe('runAgent with the codex and gemini presets', () => {
  it('runs codex exec and reads its events', async () => {
    const t = setup('codex', 'good')
    const r = await runAgent(t.opts)
    expect(r).toMatchObject({
      outcome: 'succeeded',
      preset: 'codex',
      stats: { inputTokens: 24763, outputTokens: 122 },
      resultText: 'Wrote the deliverable.'
    })
    expect(readFileSync(t.deliverable, 'utf8')).toContain('Fake codex deliverable')
    expect((await runAgent(setup('codex', 'rate_limit').opts)).outcome).toBe('rate_limited')
    expect(await runAgent(setup('codex', 'needs-input').opts)).toMatchObject({
      outcome: 'input_required',
      question: 'Which branch should the fix target?'
    })
  })

  it('gives codex CODEX_API_KEY from OPENAI_API_KEY, which codex alone would not send', async () => {
    // A `codex` that records the environment it was started with.
    const dir = mkdtempSync(join(tmpdir(), 'codex-env-'))
    roots.push(dir)
    const record = join(dir, 'env.json')
    writeFileSync(
      join(dir, 'codex'),
      `#!${process.execPath}\nrequire('fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.env))\n`,
      { mode: 0o755 }
    )
    const envOf = async (keys: Record<string, string>) => {
      const t = setup('codex', 'good', {}, { PATH: `${dir}:${process.env.PATH}`, ...keys })
      await runAgent(t.opts)
      return JSON.parse(readFileSync(record, 'utf8')) as Record<string, string>
    }
    expect(await envOf({ OPENAI_API_KEY: 'sk-openai' })).toMatchObject({
      OPENAI_API_KEY: 'sk-openai',
      CODEX_API_KEY: 'sk-openai'
    })
    // A CODEX_API_KEY of its own is kept.
    expect(await envOf({ OPENAI_API_KEY: 'sk-openai', CODEX_API_KEY: 'sk-codex' })).toMatchObject({
      CODEX_API_KEY: 'sk-codex'
    })
  })

  it('runs gemini headless and reads its events', async () => {
    const t = setup('gemini', 'good')
    const r = await runAgent(t.opts)
    expect(r).toMatchObject({
      outcome: 'succeeded',
      preset: 'gemini',
      stats: { inputTokens: 5120, outputTokens: 230 },
      resultText: 'The deliverable is written.'
    })
    expect((await runAgent(setup('gemini', 'rate_limit').opts)).outcome).toBe('rate_limited')
    expect(await runAgent(setup('gemini', 'exit1').opts)).toMatchObject({
      outcome: 'failed',
      reason: 'API key not valid. Please pass a valid API key.'
    })
  })
})
