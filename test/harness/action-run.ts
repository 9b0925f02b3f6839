// Runs the bundled action (the script action.yml names, dist/index.js) the way the GitHub runner does: a `node`
// process with the runner's GITHUB_*, RUNNER_* and INPUT_* environment, file commands in temp
// files, and saved state handed from the main step to the post step as STATE_* variables.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { installFakeAgents } from '../agent/fake-agents.js'
import { EVENT_NAME, makeEvent, writeEvent, type EventName, type EventOptions } from './events.js'
import type { FakeGitHub } from './fake-github.js'
import { parse } from 'yaml'

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const OWNER = 'octo-org'
export const REPO = 'demo'

/**
 * A user name of this checkout's jest worker: ending an agent ends every process of its user,
 * so two workers, or two checkouts testing on one machine, never share one.
 */
export function testUser(role: string): string {
  const checkout = createHash('sha256').update(ROOT).digest('hex').slice(0, 6)
  return `itervox-${role}${process.env.JEST_WORKER_ID ?? '0'}-${checkout}`
}

export interface Sandbox {
  dir: string
  /** A stand-in for GITHUB_SERVER_URL: `<serverUrl>/octo-org/demo.git` is the bare origin. */
  serverUrl: string
  origin: string
  workspace: string
  agentsBin: string
  home: string
}

export function git(cwd: string, ...args: string[]): string {
  return run(cwd, 'git', args)
}

function run(cwd: string, command: string, args: string[]): string {
  return execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    // A failing call throws with its stderr; nothing is printed into the test log.
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'ada@example.com'
    }
  }).trim()
}

/** Bare origins already built in this worker, by the files on their default branch. */
const origins = new Map<string, string>()

/**
 * A bare origin whose default branch holds `files`, built once per worker for each set of files and then
 * copied: most suites start many sandboxes from the same files, and each git process forked
 * from a jest worker of a few hundred MB costs more than the copy.
 */
function originHolding(files: Record<string, string>): string {
  const key = JSON.stringify(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)))
  const known = origins.get(key)
  if (known) return known
  const dir = mkdtempSync(join(tmpdir(), 'handoff-origin-'))
  const origin = join(dir, 'origin.git')
  const seed = join(dir, 'seed')
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(seed, path)), { recursive: true })
    writeFileSync(join(seed, path), text)
  }
  mkdirSync(seed, { recursive: true })
  // One process from the worker; the shell forks the git commands.
  const script = [
    'set -e',
    'git init --quiet --bare --initial-branch=main "$1"',
    'cd "$2"',
    'git init --quiet --initial-branch=main',
    'git add -A',
    'git commit --quiet -m seed',
    'git push --quiet "$1" main'
  ].join('\n')
  run(dir, 'sh', ['-c', script, 'sh', origin, seed])
  origins.set(key, origin)
  return origin
}

/** The line a stage prints when the agent got a clone rather than the checkout's own files. */
export const CLONED = "the agent got a clone of the branch, not the checkout's own files"

/**
 * Where sandboxes go: on the file system of the agent users' homes, where the action hands an
 * isolated agent the checkout's own files (test/global-setup.js).
 */
const agentHomesDisk = () => process.env.ITERVOX_E2E_DIR ?? tmpdir()

/**
 * A bare origin whose default branch holds `files`, and an empty workspace, on the agent
 * users' homes' file system unless `at` names another folder (a tmpfs: the clone fallback).
 * With `sharing`, a bare repository, the origin is a clone of it that borrows its objects
 * (`--shared`) and `files` are not used: how the scale bench starts many stages from one large
 * repository.
 */
export function makeSandbox(files: Record<string, string>, sharing?: string, at?: string): Sandbox {
  const dir = mkdtempSync(join(at ?? agentHomesDisk(), 'handoff-e2e-'))
  const server = join(dir, 'server')
  const origin = join(server, OWNER, `${REPO}.git`)
  mkdirSync(dirname(origin), { recursive: true })
  if (sharing) git(dir, 'clone', '--quiet', '--bare', '--shared', sharing, origin)
  else cpSync(originHolding(files), origin, { recursive: true })
  const workspace = join(dir, 'workspace')
  mkdirSync(workspace)
  const home = join(dir, 'home')
  mkdirSync(home)
  return {
    dir,
    serverUrl: `file://${server}`,
    origin,
    workspace,
    agentsBin: installFakeAgents(),
    home
  }
}

/**
 * A folder the agent and the test can both write (world-writable, sticky, outside the
 * sandbox the action closes to other users): how a scripted agent is told what to do, or
 * reports its pids, when it runs as the agent user.
 */
export function sharedDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'handoff-shared-'))
  chmodSync(dir, 0o1777)
  return dir
}

/**
 * A file in a shared folder that the agent may write and that outlives the stage: the
 * action removes the agent user's own files from /tmp when a stage ends, not this one, which
 * the test owns.
 */
export function sharedFile(dir: string, name: string): string {
  const file = join(dir, name)
  writeFileSync(file, '', { mode: 0o666 })
  chmodSync(file, 0o666)
  return file
}

/** What actions/checkout with `fetch-depth: 1` leaves: a shallow clone of the default branch. */
export function checkoutShallow(sb: Sandbox): void {
  git(sb.dir, 'clone', '--quiet', '--depth', '1', `file://${sb.origin}`, sb.workspace)
}

export interface ActionRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  state: Record<string, string>
  summary: string
}

interface ActionYml {
  runs: { main: string; post: string }
}

export interface RunOptions {
  event: EventName
  eventOptions?: EventOptions
  inputs?: Record<string, string>
  env?: Record<string, string>
  /** STATE_* from a main step, for the post step. */
  state?: Record<string, string>
  /** Send this signal once stdout contains `when` (e.g. the agent's output group). */
  interrupt?: { when: RegExp; signal: NodeJS.Signals }
  /**
   * Run the action as this user, as a hosted runner runs it as `runner`: the whole sandbox
   * (origin, workspace, HOME, RUNNER_TEMP, file-command files) becomes the user's first. Read
   * the origin afterwards with `git --git-dir`, which root's git accepts from another owner.
   */
  runAs?: { uid: number; gid: number }
  /**
   * The action's folder, holding action.yml and the dist/ it names: this checkout unless
   * given (the stage bench runs an older commit's beside it).
   */
  action?: string
}

/**
 * Runs the action's script (action.yml's `runs`) to its end, as the runner would: the post step
 * is told apart by the main step's saved state (`isPost`), which `o.state` hands on.
 */
export async function runAction(
  entry: 'main' | 'post',
  sb: Sandbox,
  gh: FakeGitHub,
  o: RunOptions
): Promise<ActionRun> {
  if ((entry === 'post') !== (o.state?.isPost === 'true')) {
    throw new Error(`a ${entry} step is told by the saved state: isPost is ${o.state?.isPost}`)
  }
  const run = mkdtempSync(join(sb.dir, `run-${entry}-`))
  const files = {
    GITHUB_OUTPUT: join(run, 'output'),
    GITHUB_STATE: join(run, 'state'),
    GITHUB_STEP_SUMMARY: join(run, 'summary'),
    GITHUB_ENV: join(run, 'env'),
    GITHUB_PATH: join(run, 'path')
  }
  for (const f of Object.values(files)) writeFileSync(f, '')
  const eventPath = writeEvent(
    run,
    makeEvent(o.event, { owner: OWNER, repo: REPO, ...o.eventOptions })
  )
  const inputs: Record<string, string> = {
    'github-token': 'ghs_test_token',
    'workflow-file': 'WORKFLOW.md',
    chain: 'dispatch',
    'dry-run': 'false',
    // One agent user per jest worker: ending an agent ends every process of its user.
    'agent-user': testUser('t'),
    ...o.inputs
  }
  const runnerTemp = join(sb.dir, 'runner-temp')
  const env: Record<string, string> = {
    PATH: `${sb.agentsBin}:${process.env.PATH}`,
    HOME: sb.home,
    LANG: 'C.UTF-8',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: EVENT_NAME[o.event],
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
    GITHUB_REPOSITORY_OWNER: OWNER,
    GITHUB_WORKSPACE: sb.workspace,
    GITHUB_API_URL: gh.url,
    GITHUB_SERVER_URL: sb.serverUrl,
    GITHUB_RUN_ID: '1001',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_ACTOR: 'ada',
    GITHUB_TOKEN: 'ghs_should_never_reach_the_agent',
    ACTIONS_RUNTIME_TOKEN: 'runtime_should_never_reach_the_agent',
    RUNNER_TEMP: runnerTemp,
    RUNNER_OS: 'Linux',
    // As on GitHub's own runners, whose machine goes with the job.
    RUNNER_ENVIRONMENT: 'github-hosted',
    // Claude Code does not start without a way to its model. A key would point the fake claude
    // at the model proxy, and through it at a model API there is none of; Bedrock needs none.
    CLAUDE_CODE_USE_BEDROCK: '1',
    ...files,
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
    ...Object.fromEntries(Object.entries(o.state ?? {}).map(([k, v]) => [`STATE_${k}`, v])),
    ...o.env
  }
  mkdirSync(env.RUNNER_TEMP ?? runnerTemp, { recursive: true })
  if (o.runAs) execFileSync('chown', ['-R', `${o.runAs.uid}:${o.runAs.gid}`, '--', sb.dir])
  const action = o.action ?? ROOT
  const runs = (parse(readFileSync(join(action, 'action.yml'), 'utf8')) as ActionYml).runs
  const child = spawn(process.execPath, [join(action, runs[entry])], {
    cwd: sb.workspace,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...o.runAs
  })
  let stdout = ''
  let stderr = ''
  let interrupted = false
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString()
    if (o.interrupt && !interrupted && o.interrupt.when.test(stdout)) {
      interrupted = true
      child.kill(o.interrupt.signal)
    }
  })
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((res) =>
    child.on('close', (c, s) => res([c, s]))
  )
  return {
    code,
    signal,
    stdout,
    stderr,
    outputs: parseFileCommand(readFileSync(files.GITHUB_OUTPUT, 'utf8')),
    state: parseFileCommand(readFileSync(files.GITHUB_STATE, 'utf8')),
    summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8')
  }
}

/**
 * The step's log as the runner shows it: the runner takes `::add-mask::` commands (which name
 * the secret to mask) out of the log and masks that secret from then on.
 */
export function shownLog(run: Pick<ActionRun, 'stdout' | 'stderr'>): string {
  return (run.stdout + run.stderr)
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n')
}

/** `name<<delimiter\nvalue\ndelimiter` records, as @actions/core writes them. */
function parseFileCommand(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i] ?? '')
    if (!m) continue
    const value: string[] = []
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i] ?? '')
    out[m[1]!] = value.join('\n')
  }
  return out
}
