// The bundled action as a GitHub-hosted runner runs it: as an unprivileged user with
// passwordless sudo (`runner`), which must reach the agent user through `sudo -n`; and as a
// user without sudo, which isolation: user must refuse in one line.
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { startFakeModelApi, streamedReply, type FakeModelApi } from '../agent/fake-model-api.js'
import {
  CLONED,
  runAction,
  sharedDir,
  sharedFile,
  testUser,
  type RunOptions
} from '../harness/action-run.js'
import { ensureSudo } from '../isolation/throwaway-user.js'
import { startPipeline, type Pipeline } from './pipeline-fixture.js'

/** Like a hosted runner's `runner`: passwordless sudo. */
const SUDO_RUNNER = testUser('runner')
/** A runner user with no sudo at all. */
const PLAIN_RUNNER = testUser('nosudo')
/** This file's own agent user, removed before the tests so that the action creates it. */
const AGENT_USER = testUser('sagent')
const REAL_KEY = 'sk-real-sudo-0123456789'
const REPLY = 'Reached through sudo and the proxy.'

interface User {
  uid: number
  gid: number
}

/** A command's stdout; its stderr only in the error when it fails. */
function sh(file: string, args: string[]): string {
  return execFileSync(file, args, { encoding: 'utf8', stdio: 'pipe' }).trim()
}

function lookUp(name: string): User | null {
  const r = spawnSync('id', ['-u', name], { encoding: 'utf8' })
  if (r.status !== 0) return null
  return { uid: Number(r.stdout.trim()), gid: Number(sh('id', ['-g', name])) }
}

/** A throw-away login user with a home, created once and kept for later runs. */
function ensureUser(name: string): User {
  const found = lookUp(name)
  if (found) return found
  sh('useradd', ['--create-home', '--user-group', '--shell', '/bin/bash', name])
  const made = lookUp(name)
  if (!made) throw new Error(`useradd made no user ${name}`)
  return made
}

let sudoRunner: User
let plainRunner: User

beforeAll(() => {
  if (process.getuid?.() !== 0) {
    throw new Error('the sudo-runner tests create users and sudoers rules, so they run as root')
  }
  ensureSudo()
  sudoRunner = ensureUser(SUDO_RUNNER)
  const dropIn = `/etc/sudoers.d/${SUDO_RUNNER}`
  if (!existsSync(dropIn)) {
    writeFileSync(`${dropIn}.tmp`, `${SUDO_RUNNER} ALL=(ALL) NOPASSWD:ALL\n`, { mode: 0o440 })
    sh('visudo', ['-cqf', `${dropIn}.tmp`])
    sh('mv', ['--', `${dropIn}.tmp`, dropIn])
  }
  plainRunner = ensureUser(PLAIN_RUNNER)
  rmSync(`/etc/sudoers.d/${PLAIN_RUNNER}`, { force: true })
  // Gone, so that the first stage creates it through sudo -n, as on a fresh hosted runner.
  if (lookUp(AGENT_USER)) sh('userdel', ['--force', '--remove', AGENT_USER])
})

let api: FakeModelApi | undefined
let current: Pipeline | undefined
afterEach(async () => {
  await current?.gh.stop()
  await api?.close()
  current = api = undefined
})

/** The origin's git, as root: `--git-dir` is accepted from another owner. */
function originGit(p: Pipeline, ...args: string[]): string {
  return sh('git', ['--git-dir', p.sb.origin, ...args])
}

async function stage(runAs: User, o: Partial<RunOptions> = {}) {
  api = await startFakeModelApi()
  api.answer = streamedReply('anthropic', REPLY)
  const p = (current = await startPipeline())
  const report = sharedFile(sharedDir(), 'report.json')
  const run = await runAction('main', p.sb, p.gh, {
    event: 'issues.labeled',
    eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada' },
    runAs,
    ...o,
    inputs: { 'agent-user': AGENT_USER, ...o.inputs },
    env: {
      ANTHROPIC_API_KEY: REAL_KEY,
      ANTHROPIC_BASE_URL: api.url,
      ITERVOX_TEST_REPORT: report,
      ...o.env
    }
  })
  const text = readFileSync(report, 'utf8')
  return { p, run, report: text ? (JSON.parse(text) as { uid: number; env: object }) : null }
}

/** A process that is gone (or a zombie, which holds nothing). */
function gone(pid: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')
  } catch {
    return true
  }
}

const othersBits = (dir: string) => statSync(dir).mode & 0o007

describe('on a hosted-style runner (an unprivileged user with passwordless sudo)', () => {
  it('creates the agent user and runs the agent as it through sudo -n, commits and pushes, and closes its folders', async () => {
    expect(lookUp(AGENT_USER)).toBeNull()
    const { p, run, report } = await stage(sudoRunner)

    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.outputs.outcome).toBe('succeeded')
    expect(run.stdout).toMatch(new RegExp(`the agent runs as ${AGENT_USER} \\(uid \\d+\\)`))
    // Through sudo too, the agent had the checkout's own files, not the fallback's clone.
    expect(run.stdout + run.summary).not.toContain(CLONED)
    // Only sudo takes an unprivileged user to another uid.
    expect(report?.uid).toBe(lookUp(AGENT_USER)?.uid)
    expect(report?.uid).not.toBe(sudoRunner.uid)
    expect(JSON.stringify(report)).not.toMatch(/SUDO_(USER|UID|GID|COMMAND)/)
    expect(JSON.stringify(report)).not.toContain(REAL_KEY)
    expect(api?.seen[0]?.headers['x-api-key']).toBe(REAL_KEY)

    const path = run.outputs['handoff-path'] ?? ''
    const branch = `refs/heads/itervox/${p.issue}`
    expect(originGit(p, 'rev-parse', branch)).toBe(run.outputs.commit)
    expect(originGit(p, 'show', `${branch}:${path}`)).toContain(REPLY)
    // The runner's HOME and the workspace were open (0755) and are closed to others now.
    expect(othersBits(p.sb.home)).toBe(0)
    expect(othersBits(p.sb.workspace)).toBe(0)
    expect(statSync(p.sb.home).uid).toBe(sudoRunner.uid)
  })

  it('when the main step is killed, the post step ends the agent through sudo and pushes the partial', async () => {
    const pids = sharedFile(sharedDir(), 'pids')
    const { p, run } = await stage(sudoRunner, {
      env: { ITERVOX_FAKE_AGENT_MODE: 'hang-ignore-term', ITERVOX_FAKE_AGENT_PID_FILE: pids },
      // The agent's output, once it is printed: the agent runs.
      inputs: { 'show-agent-output': 'true' },
      interrupt: { when: /agent output/, signal: 'SIGKILL' }
    })
    expect(run.signal).toBe('SIGKILL')
    // The agent and its SIGTERM-ignoring child outlive the main step, out of the runner's reach.
    while (readFileSync(pids, 'utf8').split('\n').filter(Boolean).length < 2) await sleep(20)
    const agentPids = readFileSync(pids, 'utf8').split('\n').filter(Boolean)
    expect(agentPids.some(gone)).toBe(false)

    const post = await runAction('post', p.sb, p.gh, {
      event: 'issues.labeled',
      eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada' },
      inputs: { 'agent-user': AGENT_USER },
      state: run.state,
      runAs: sudoRunner
    })
    expect(post.stderr).toBe('')
    expect(post.code).toBe(0)
    expect(agentPids.every(gone)).toBe(true)
    const files = originGit(p, 'ls-tree', '-r', '--name-only', `refs/heads/itervox/${p.issue}`)
    expect(files).toMatch(/_researcher\.partial\.md$/m)
    expect(post.summary).toContain('cancelled')
  })
})

describe('on a runner user without sudo', () => {
  it('isolation: user fails the job with one line that says to set isolation: none', async () => {
    const { p, run, report } = await stage(plainRunner)

    expect(run.code).toBe(1)
    expect(report).toBeNull()
    const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error'))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/passwordless sudo/)
    expect(errors[0]).toContain('set isolation: none')
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/^\s+at /m)
    expect(originGit(p, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/main')
  })

  it('with isolation: none, the same user runs the stage as itself', async () => {
    const { p, run, report } = await stage(plainRunner, { inputs: { isolation: 'none' } })

    expect(run.code).toBe(0)
    expect(run.outputs.outcome).toBe('succeeded')
    expect(report?.uid).toBe(plainRunner.uid)
    const path = run.outputs['handoff-path'] ?? ''
    expect(originGit(p, 'show', `refs/heads/itervox/${p.issue}:${path}`)).toContain(REPLY)
  })
})
