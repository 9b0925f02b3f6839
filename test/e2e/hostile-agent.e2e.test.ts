// A prompt-injected agent runs whatever it is told. test/fixtures/agents/hostile-agent.sh tries
// to reach what the job holds (its tokens, the model key, the runner's files and processes) and
// reports what it achieved. Every attack runs twice: as the runner's own user (isolation: none),
// where it must work, so that the test can see it; then as the agent user (the default), where
// it must be stopped.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { FIXTURES } from '../agent/fake-agents.js'
import {
  CLONED,
  checkoutShallow,
  git,
  runAction,
  sharedDir,
  sharedFile,
  testUser,
  type ActionRun
} from '../harness/action-run.js'
import { ensureCronAndAt, ensureSudo, lookUp } from '../isolation/throwaway-user.js'
import { startPipeline, type Pipeline } from './pipeline-fixture.js'

const AGENT_USER = testUser('t')
const MODEL_KEY = 'sk-real-secret'
// What the harness gives the action: INPUT_GITHUB-TOKEN, GITHUB_TOKEN, ACTIONS_RUNTIME_TOKEN.
const SECRETS = [
  'ghs_test_token',
  'ghs_should_never_reach_the_agent',
  'runtime_should_never_reach_the_agent',
  MODEL_KEY
]
// What actions/checkout leaves in .git/config with persist-credentials: true.
const CHECKOUT_HEADER = `AUTHORIZATION: basic ${Buffer.from('x-access-token:ghs_checkout_token').toString('base64')}`
const DELIVERABLE = '# Hostile\n\nWritten by the agent before it ended.'
const ACTION_CODE = 'console.log("the real post step")\n'
const HANDOFF = /^\.itervox\/handoff\/[^/]+_researcher\.md$/

interface Attack {
  p: Pipeline
  run: ActionRun
  /** What the agent says it achieved (the last value of each key). */
  said: Record<string, string>
  /** The run's folder of file commands. */
  runDir: string
  runnerHome: string
  actionFile: string
  tag: string
  /** Live processes of the agent user the moment the main step had ended. */
  agentProcesses: number[]
}

let bin = ''
const cleanups: (() => void)[] = []
const pipelines: Pipeline[] = []

beforeAll(() => {
  // Attack 7 asks sudo, which must be there to say yes to the runner user and no to the agent.
  ensureSudo()
  // The agent user tries both; where they are missing, that would prove nothing.
  ensureCronAndAt()
  // Named claude, for the claude preset and its model key; runnable by every user.
  bin = mkdtempSync(join(tmpdir(), 'handoff-hostile-'))
  chmodSync(bin, 0o755)
  symlinkSync(join(FIXTURES, 'hostile-agent.sh'), join(bin, 'claude'))
})

afterAll(async () => {
  for (const c of cleanups.splice(0)) {
    try {
      c()
    } catch {
      // already gone
    }
  }
  for (const p of pipelines.splice(0)) await p.gh.stop()
  rmSync(bin, { recursive: true, force: true })
})

/** `key='value'` lines a shell can source. */
function assignments(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}='${v.replaceAll("'", `'\\''`)}'\n`)
    .join('')
}

function parseReport(text: string): Record<string, string> {
  const said: Record<string, string> = {}
  for (const line of text.split('\n')) {
    const at = line.indexOf('=')
    if (at > 0) said[line.slice(0, at)] = line.slice(at + 1)
  }
  return said
}

/** The names in a folder only root may list (a home of mode 0750), as CI runs jest with sudo. */
function listAsRoot(dir: string): string[] {
  const argv = process.getuid?.() === 0 ? ['ls', '-A', dir] : ['sudo', '-n', 'ls', '-A', dir]
  const [file = '', ...args] = argv
  return execFileSync(file, args, { encoding: 'utf8' }).split('\n').filter(Boolean)
}

/** What the agent tries to leave for the next stage: the shared temporary folders. */
function leftovers(tag: string): string[] {
  return ['/tmp', '/var/tmp', '/dev/shm'].map((d) => join(d, `hostile-leftover-${tag}`))
}

/** Live (not zombie) processes with `uid` as real, effective or saved uid. */
function processesOf(uid: number): number[] {
  const found: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    let status: string
    try {
      status = readFileSync(`/proc/${name}/status`, 'utf8')
    } catch {
      continue
    }
    const uids = /\nUid:\t(\d+)\t(\d+)\t(\d+)/.exec(status)
    if (!uids?.slice(1).includes(String(uid)) || /\nState:\tZ/.test(status)) continue
    found.push(Number(name))
  }
  return found
}

function alive(pid: number): boolean {
  try {
    return !/\nState:\tZ/.test(readFileSync(`/proc/${pid}/status`, 'utf8'))
  } catch {
    return false
  }
}

function show(p: Pipeline, path: string): string {
  return git(p.sb.origin, 'show', `refs/heads/itervox/${p.issue}:${path}`)
}

/**
 * One stage run by the hostile agent, in a layout like a hosted runner's: the work folder,
 * the runner's HOME (a registry credential, the action's own code under `work/_actions`) and
 * the file commands are open to every user, as they are until the action closes them.
 */
async function attack(
  isolation: 'none' | 'user',
  more: { victim?: string; swapWork?: boolean } = {}
): Promise<Attack> {
  const p = await startPipeline({ command: join(bin, 'claude') })
  pipelines.push(p)
  checkoutShallow(p.sb)
  git(p.sb.workspace, 'config', 'http.https://github.com/.extraheader', CHECKOUT_HEADER)
  chmodSync(p.sb.dir, 0o755)

  const runnerHome = mkdtempSync(join(tmpdir(), 'handoff-runner-home-'))
  cleanups.push(() => rmSync(runnerHome, { recursive: true, force: true }))
  chmodSync(runnerHome, 0o755)
  mkdirSync(join(runnerHome, '.docker'), { mode: 0o755 })
  writeFileSync(join(runnerHome, '.docker', 'config.json'), '{"auths":{"ghcr.io":{}}}\n', {
    mode: 0o644
  })
  const actionFile = join(runnerHome, 'work/_actions/itervox/handoff-action/v1/dist/index.js')
  mkdirSync(dirname(actionFile), { recursive: true, mode: 0o755 })
  writeFileSync(actionFile, ACTION_CODE, { mode: 0o644 })

  const shared = sharedDir()
  cleanups.push(() => rmSync(shared, { recursive: true, force: true }))
  const report = sharedFile(shared, 'report')
  const secrets = join(shared, 'secrets')
  writeFileSync(secrets, `${SECRETS.join('\n')}\n`, { mode: 0o644 })
  const plan = join(shared, 'plan')
  writeFileSync(plan, '', { mode: 0o644 })
  const tag = `${process.env.JEST_WORKER_ID ?? '0'}-${isolation}-${Date.now()}`
  cleanups.push(() => {
    for (const f of leftovers(tag)) rmSync(f, { force: true })
  })

  const running = runAction('main', p.sb, p.gh, {
    event: 'issues.labeled',
    eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada' },
    inputs: isolation === 'none' ? { isolation: 'none' } : {},
    env: { HOME: runnerHome, ANTHROPIC_API_KEY: MODEL_KEY, ITERVOX_TEST_HOSTILE: plan }
  })
  // runAction made the run's folder and file commands before it first waited: the runner's
  // are open to read, as the runner makes them, and the agent is told where they are.
  const runDir = join(
    p.sb.dir,
    readdirSync(p.sb.dir).find((n) => n.startsWith('run-main-'))!
  )
  chmodSync(runDir, 0o755)
  const file = (name: string) => {
    chmodSync(join(runDir, name), 0o644)
    return join(runDir, name)
  }
  writeFileSync(
    plan,
    assignments({
      report,
      secrets,
      workspace: p.sb.workspace,
      runner_temp: join(p.sb.dir, 'runner-temp'),
      github_env: file('env'),
      github_output: file('output'),
      github_state: file('state'),
      github_path: file('path'),
      github_summary: file('summary'),
      action_file: actionFile,
      runner_file: join(runnerHome, '.docker', 'config.json'),
      tag,
      ...(more.victim ? { victim: more.victim } : {}),
      ...(more.swapWork ? { swap_work: '1' } : {})
    }) + 'ready=1\n'
  )
  const run = await running
  // (With isolation: none the agent user may not exist.)
  const agentProcesses = isolation === 'user' ? processesOf(lookUp(AGENT_USER).uid) : []
  const said = parseReport(readFileSync(report, 'utf8'))
  for (const key of ['straggler_pid', 'freezer_pid']) {
    const pid = Number(said[key])
    if (pid) cleanups.push(() => process.kill(pid, 'SIGKILL'))
  }
  return { p, run, said, runDir, runnerHome, actionFile, tag, agentProcesses }
}

const lines = (a: Attack) => a.run.stdout.split('\n')

describe('a hostile agent, as the runner user (isolation: none) and then as the agent user', () => {
  // One run each: every attack of the agent's, in both.
  let none: Attack
  let user: Attack
  beforeAll(async () => {
    none = await attack('none')
    user = await attack('user')
    cleanups.push(() => {
      const home = lookUp(AGENT_USER).home
      const left = join(home, `.hostile-leftover-${user.tag}`)
      if (process.getuid?.() === 0) rmSync(left, { force: true })
      else execFileSync('sudo', ['-n', 'rm', '-f', '--', left])
    })
  })

  it('ran all of its attacks both times', () => {
    expect(none.said.agent_done).toBe('yes')
    expect(user.said.agent_done).toBe('yes')
    expect(none.said.straggler_pid).toMatch(/^\d+$/)
    expect(user.said.straggler_pid).toMatch(/^\d+$/)
    expect(user.said.freezer_pid).toMatch(/^\d+$/)
    // The agent had the checkout's own files, not the clone of the fallback.
    expect(user.run.stdout + user.run.summary).not.toContain(CLONED)
  })

  it('1. reads the job token from the action, any process, its own environment', () => {
    expect(none.said.token_parent).toBe('yes')
    expect(none.said.secrets_seen?.split(' ')).toEqual(expect.arrayContaining(SECRETS))
    expect(none.said.straggler_secrets?.split(' ')).toEqual(expect.arrayContaining(SECRETS))

    expect(user.said.token_parent).toBe('no')
    expect(user.said.secrets_seen).toBe('')
    expect(user.said.straggler_secrets).toBe('')
    // Nor from what the action runs as the agent user to end it, stopped and read.
    expect(user.said.freezer_secrets).toBeUndefined()
  })

  it("2. reads the checkout's persisted credential and the stage context", () => {
    // isolation: none takes it out of .git/config while the agent runs, into the stage context.
    expect(none.said.checkout_credential).toBe('yes')
    expect(none.said.stage_context).toBe('yes')

    expect(user.said.checkout_config).toBe('no')
    expect(user.said.checkout_credential).toBe('no')
    expect(user.said.own_clone_credential).toBe('no')
    expect(user.said.stage_context).toBe('no')
  })

  it("3. writes the runner's file commands", () => {
    const commands = [
      'github_env',
      'github_output',
      'github_state',
      'github_path',
      'github_summary'
    ]
    for (const c of commands) expect([c, none.said[c]]).toEqual([c, 'yes'])
    expect(readFileSync(join(none.runDir, 'env'), 'utf8')).toContain('LD_PRELOAD=/tmp/hostile.so')
    expect(readFileSync(join(none.runDir, 'path'), 'utf8')).toContain('/tmp/hostile-bin')
    expect(none.run.state.context).toBe('/tmp/forged-stage.json')
    expect(none.run.outputs.hostile).toBe('yes')
    expect(none.run.summary).toContain('hostile summary')

    for (const c of commands) expect([c, user.said[c]]).toEqual([c, 'no'])
    expect(readFileSync(join(user.runDir, 'env'), 'utf8')).not.toContain('LD_PRELOAD')
    expect(readFileSync(join(user.runDir, 'path'), 'utf8')).not.toContain('hostile')
    expect(user.run.state.context).toMatch(/\/runner-temp\/itervox-handoff\/[^/]+\/stage\.json$/)
    expect(user.run.outputs.hostile).toBeUndefined()
    expect(user.run.summary).not.toContain('hostile summary')
  })

  it("4. rewrites the action's own code", () => {
    expect(none.said.action_code).toBe('yes')
    expect(readFileSync(none.actionFile, 'utf8')).toContain('// hostile')

    expect(user.said.action_code).toBe('no')
    expect(readFileSync(user.actionFile, 'utf8')).toBe(ACTION_CODE)
  })

  it('5. leaves a straggler that outlives the step and acts once it is over', () => {
    // The agent saw the straggler's findings before it ended, so a missing one below is real.
    expect([none.said.straggler_wait, user.said.straggler_wait]).toEqual(['yes', 'yes'])
    expect(alive(Number(none.said.straggler_pid))).toBe(true)
    expect(none.said.runner_log_fd).toBe('yes')
    expect(none.said.straggler_done).toBe('yes')
    expect(none.run.outputs.outcome).toBe('forged-by-straggler')
    expect(lines(none)).toContain('::warning::straggler-was-here')
    expect(lines(none)).toContain('::add-mask::succeeded')
    const tampered = join(none.p.sb.workspace, none.run.outputs['handoff-path']!)
    expect(readFileSync(tampered, 'utf8')).toContain('Tampered')

    // Nothing of the agent user is left once the step is over; its outputs and log are the
    // action's, and what was pushed is what the agent wrote before it ended.
    expect(user.agentProcesses).toEqual([])
    expect(user.said.runner_log_fd).toBe('no')
    expect(user.said.straggler_done).toBeUndefined()
    expect(user.run.outputs.outcome).toBe('succeeded')
    expect(lines(user)).not.toContain('::warning::straggler-was-here')
    expect(lines(user)).not.toContain('::add-mask::succeeded')
    const handoff = user.run.outputs['handoff-path']
    expect(handoff).toMatch(HANDOFF)
    expect(show(user.p, handoff!)).toBe(DELIVERABLE)
  })

  it("6. signals the action's processes and everyone else's", () => {
    expect(none.said.signal_parent).toBe('yes')
    expect(none.said.stop_parent).toBe('yes')
    expect(Number(none.said.signal_others)).toBeGreaterThan(0)

    expect(user.said.signal_parent).toBe('no')
    expect(user.said.signal_parent_error).toContain('Operation not permitted')
    expect(user.said.stop_parent).toBe('no')
    expect(user.said.signal_others).toBe('0')
  })

  it('7. becomes root with sudo -n', () => {
    expect([none.said.sudo, none.said.sudo_refusal]).toEqual(['yes', undefined])
    expect(user.said.sudo).toBe('no')
  })

  it('8. finds the model key', () => {
    expect(none.said.model_key).toBe(MODEL_KEY)
    expect(none.said.secrets_seen).toContain(MODEL_KEY)

    // A placeholder for the action's proxy, and the key nowhere in its reach.
    expect(user.said.model_key).toMatch(/^itervox-placeholder-[0-9a-f]{32}$/)
    expect(user.said.secrets_seen).not.toContain(MODEL_KEY)
  })

  it("reads the runner user's HOME and writes into the runner's checkout", () => {
    expect(none.said.runner_home_read).toBe('yes')
    expect(none.said.workspace_write).toBe('yes')
    expect(none.said.workspace_git_config).toBe('yes')
    expect(existsSync(join(none.p.sb.workspace, 'hostile-was-here'))).toBe(true)

    expect(user.said.runner_home_read).toBe('no')
    expect(user.said.workspace_write).toBe('no')
    expect(user.said.workspace_git_config).toBe('no')
    expect(existsSync(join(user.p.sb.workspace, 'hostile-was-here'))).toBe(false)
    const config = readFileSync(join(user.p.sb.workspace, '.git', 'config'), 'utf8')
    expect(config).not.toContain('hostile')
  })

  it('leaves files for the next stage: in /tmp, /var/tmp, /dev/shm and its home', () => {
    for (const f of leftovers(none.tag)) expect(existsSync(f)).toBe(true)
    expect(existsSync(join(none.runnerHome, `.hostile-leftover-${none.tag}`))).toBe(true)

    expect(user.said.passwd_home_leftover).toBe('yes')
    for (const f of leftovers(user.tag)) expect(existsSync(f)).toBe(false)
    const home = lookUp(AGENT_USER).home
    expect(listAsRoot(home).filter((n) => n.includes(user.tag))).toEqual([])
  })

  it('queues cron and at jobs, leaves IPC objects, a file in /run/lock and one linked into its tree', () => {
    expect([user.said.crontab, user.said.at_job]).toEqual(['no', 'no'])
    expect(listAsRoot('/var/spool/cron/crontabs')).not.toContain(AGENT_USER)
    const made = ['run_lock_leftover', 'ipc', 'linked_leftover'].map((k) => user.said[k])
    expect(made).toEqual(['yes', 'yes', 'yes'])
    expect(existsSync(`/run/lock/hostile-leftover-${user.tag}`)).toBe(false)
    expect(existsSync(`/tmp/hostile-linked-${user.tag}`)).toBe(false)
    const uid = String(lookUp(AGENT_USER).uid)
    for (const kind of ['shm', 'sem', 'msg']) {
      const [head = '', ...rows] = readFileSync(`/proc/sysvipc/${kind}`, 'utf8').trim().split('\n')
      const at = ['uid', 'cuid'].map((c) => head.trim().split(/\s+/).indexOf(c))
      const owned = rows.filter((r) => at.some((i) => r.trim().split(/\s+/)[i] === uid))
      expect([kind, owned]).toEqual([kind, []])
    }
  })
})

describe("a hostile agent and the runner's folders", () => {
  // A runner folder holding one named as the agent's tree (the repository's name): the
  // workspace's own folder is one.
  function victim(): string {
    const dir = mkdtempSync(join(tmpdir(), 'handoff-victim-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    mkdirSync(join(dir, 'workspace'))
    writeFileSync(join(dir, 'workspace', 'kept.txt'), "the runner's\n")
    return dir
  }

  it('as the runner user (isolation: none) can move one away', async () => {
    const dir = victim()
    const a = await attack('none', { victim: dir })
    expect(a.said.victim_moved).toBe('yes')
    expect(existsSync(join(dir, 'workspace', 'kept.txt'))).toBe(false)
  })

  it('as the agent user cannot, nor have the action move one by swapping its tree for a symlink', async () => {
    const dir = victim()
    const a = await attack('user', { victim: dir, swapWork: true })
    expect(a.said.victim_moved).toBe('no')
    expect(a.said.swapped_work).toBe('yes')
    expect(readFileSync(join(dir, 'workspace', 'kept.txt'), 'utf8')).toBe("the runner's\n")
    // Its tree did not come back through the symlink: only the partial is committed.
    expect(a.run.outputs.outcome).toBe('failed')
    expect(a.agentProcesses).toEqual([])
  })
})
