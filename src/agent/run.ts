import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { Readable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import { classify, type EndCause } from './classify.js'
import { resolveCommand } from './command.js'
import { agentEnvironment, parentIdentity } from './environment.js'
import { LineSplitter } from './lines.js'
import { CpuMeter, Liveness } from './liveness.js'
import { LogFile } from './log-file.js'
import { processGroup, track, type ProcessSet } from './process-set.js'
import { allowedNames, derivedVariables, presetFor, type Preset } from './presets.js'
import type { AgentActivity, AgentRunResult, RunAgentOptions } from './types.js'

const DEFAULT_KILL_GRACE_MS = 5000
const DEFAULT_POLL_MS = 1000
// setTimeout fires at once for delays past 2^31-1 ms; such a deadline means "none" anyway.
const MAX_TIMER_MS = 2 ** 31 - 1

type Exit = { code: number | null; signal: string | null } | Error

/** A spawned agent: its process, its group and where its output goes. */
interface Started {
  child: ChildProcessWithoutNullStreams
  processes: ProcessSet
  exited: Promise<Exit>
  log: LogFile
  preset: Preset
  startedAt: number
}

/**
 * Runs one agent to its end (DESIGN.md story step 3). The command runs without a shell as
 * the leader of its own process group, in the repository root, with a scrubbed environment
 * and the prompt on stdin (also written to the contract's prompt file). Its stdout and
 * stderr go to `logPath` only. A stall watchdog, a deadline and `signal` can end it: SIGTERM
 * to the whole group, then SIGKILL after the grace period. The promise settles only once no
 * process of the group is left, and never rejects: every failure is an outcome.
 */
export async function runAgent(opts: RunAgentOptions): Promise<AgentRunResult> {
  const startedAt = Date.now()
  const isRoot = process.getuid?.() === 0
  const preset = presetFor(opts.argv, {
    maxTurns: opts.maxTurns,
    isRoot,
    ...(opts.maxBudgetUsd !== undefined ? { maxBudgetUsd: opts.maxBudgetUsd } : {})
  })
  const allowed = allowedNames(opts.declaredEnv ?? [], preset.name)
  const home = opts.sandbox?.home ?? opts.home ?? opts.parentEnv.HOME
  const given = { ...parentIdentity(opts.parentEnv), allowed, home }
  const env = { ...agentEnvironment(opts.parentEnv, opts.contract, given), ...preset.env }
  Object.assign(env, derivedVariables(preset.name, env))
  if (opts.sandbox) {
    // The proxy holds the model key: the agent gets its placeholder, never the key itself.
    for (const name of opts.sandbox.env.unset) delete env[name]
    Object.assign(env, opts.sandbox.env.set)
  }
  const endedEarly = (cause: EndCause): AgentRunResult => ({
    ...classify({ cause, exitCode: null, signal: null, findings: { stats: {} } }),
    exitCode: null,
    signal: null,
    durationMs: Date.now() - startedAt,
    stats: {},
    logPath: opts.logPath,
    lastActivityAt: new Date(startedAt).toISOString(),
    preset: preset.name
  })

  if (opts.signal?.aborted) return endedEarly({ kind: 'cancelled', why: abortReason(opts.signal) })
  const command = preset.argv[0] ?? ''
  const profile = opts.contract.profile
  const found = resolveCommand(command, opts.cwd, env.PATH, profile)
  if ('error' in found) return endedEarly({ kind: 'spawn_failed', error: found.error })
  const barred = opts.sandbox?.cannotRun(found.path)
  if (barred) {
    const error = `command "${command}" of profile "${profile}" is at ${found.path}, ${barred}`
    return endedEarly({ kind: 'spawn_failed', error })
  }

  let log: LogFile
  try {
    // An isolated agent's prompt file was put in its home when the home was handed over.
    if (!opts.sandbox) {
      const promptFile = resolve(opts.cwd, opts.contract.promptFile)
      mkdirSync(dirname(promptFile), { recursive: true })
      writeFileSync(promptFile, opts.prompt, { mode: 0o600 })
    }
    log = new LogFile(opts.logPath)
  } catch (e) {
    const error = `cannot prepare the agent run: ${(e as Error).message}`
    return endedEarly({ kind: 'spawn_failed', error })
  }

  const start = opts.sandbox
    ? opts.sandbox.launch(found.path, preset.argv.slice(1), env, opts.cwd)
    : { file: found.path, args: preset.argv.slice(1), env, cwd: opts.cwd, argv0: command }
  const { file, args, ...how } = start
  const child = spawn(file, args, {
    ...how,
    detached: true, // setsid(): the agent leads a new process group, pgid = its pid
    stdio: ['pipe', 'pipe', 'pipe']
  })
  const exited = new Promise<Exit>((done) => {
    child.once('exit', (code, signal) => done({ code, signal }))
    child.once('error', done)
  })
  if (child.pid === undefined) {
    const err = (await exited) as NodeJS.ErrnoException
    log.close()
    const error = `cannot start command "${command}" of profile "${profile}": ${err.code ?? err.message}`
    return endedEarly({ kind: 'spawn_failed', error })
  }
  try {
    opts.onStart?.({ pid: child.pid, argv: preset.argv })
  } catch {
    // The caller's bookkeeping must not leave a started agent unsupervised.
  }
  const processes = opts.sandbox?.processes ?? processGroup(child.pid)
  return supervise({ child, processes, exited, log, preset, startedAt }, opts)
}

async function supervise(run: Started, opts: RunAgentOptions): Promise<AgentRunResult> {
  const { child, processes, log, preset, startedAt } = run
  const untrack = track(processes)
  const graceMs = opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS
  const notify = (e: AgentActivity) => {
    try {
      opts.onActivity?.(e)
    } catch {
      // How the adapter shows progress must never end or crash the run.
    }
  }
  const liveness = new Liveness(
    new CpuMeter(() => processes.members(), startedAt),
    opts.stallTimeoutMs,
    startedAt
  )
  const lines = new LineSplitter((line) => {
    const event = preset.parser.line(line)
    if (event) notify({ kind: 'event', text: event })
  })
  const stderrText = new StringDecoder('utf8')
  const take = (chunk: Buffer, fromStdout: boolean) => {
    log.write(chunk)
    liveness.output(Date.now())
    const text = fromStdout ? lines.push(chunk) : stderrText.write(chunk)
    if (text) notify({ kind: 'output', text })
  }
  child.stdout.on('data', (c: Buffer) => take(c, true))
  child.stderr.on('data', (c: Buffer) => take(c, false))
  // An agent that never reads its stdin (or exits early) breaks the pipe: that is fine.
  child.stdin.on('error', () => {})
  child.stdin.end(opts.prompt)

  let cause: EndCause | undefined
  let ending: Promise<number[]> = Promise.resolve([])
  let leaderExited = false
  const endRun = (c: EndCause) => {
    if (cause || leaderExited) return
    cause = c
    ending = processes.end(graceMs)
  }
  const poll = setInterval(
    () => {
      const now = Date.now()
      const { cpuBusy, stalled } = liveness.check(now)
      if (cpuBusy) notify({ kind: 'cpu' })
      if (stalled) endRun({ kind: 'stalled', silentMs: opts.stallTimeoutMs })
    },
    Math.max(10, opts.pollMs ?? DEFAULT_POLL_MS)
  )
  const deadline =
    opts.deadlineMs > 0
      ? setTimeout(
          () => endRun({ kind: 'timed_out', deadlineMs: opts.deadlineMs }),
          Math.min(opts.deadlineMs, MAX_TIMER_MS)
        )
      : undefined
  const onAbort = () => endRun({ kind: 'cancelled', why: abortReason(opts.signal) })
  opts.signal?.addEventListener('abort', onAbort, { once: true })

  const exit = await run.exited
  leaderExited = true
  clearInterval(poll)
  clearTimeout(deadline)
  opts.signal?.removeEventListener('abort', onAbort)
  await ending
  // Whatever the leader left running (a dev server, a test watcher) goes too.
  const survivors = await processes.end(graceMs)
  untrack()
  await drained([child.stdout, child.stderr], graceMs)
  lines.end()
  log.close()

  const findings = preset.parser.finish()
  const exitCode = exit instanceof Error ? null : exit.code
  const signal = exit instanceof Error ? null : exit.signal
  const verdict = classify({ cause, exitCode, signal, findings })
  const reason = survivors.length
    ? `${verdict.reason}; ${survivors.length} process(es) of the agent outlived SIGKILL`
    : verdict.reason
  return {
    outcome: verdict.outcome,
    reason,
    exitCode,
    signal,
    durationMs: Date.now() - startedAt,
    stats: findings.stats,
    ...(verdict.outcome === 'input_required' && findings.needsInput
      ? { question: findings.needsInput.question }
      : {}),
    ...(findings.resultText !== undefined ? { resultText: findings.resultText } : {}),
    logPath: opts.logPath,
    lastActivityAt: new Date(liveness.lastActivityAt).toISOString(),
    preset: preset.name
  }
}

// The pipes close once every holder is gone; a process that left the group with setsid()
// could hold them open forever, so after a grace period they are closed from our side.
async function drained(streams: Readable[], graceMs: number): Promise<void> {
  const open = streams.filter((s) => !s.closed)
  if (!open.length) return
  let timer: NodeJS.Timeout | undefined
  await Promise.race([
    Promise.all(open.map((s) => new Promise((done) => s.once('close', done)))),
    new Promise((done) => (timer = setTimeout(done, graceMs)))
  ])
  clearTimeout(timer)
  for (const s of open) s.destroy()
}

function abortReason(signal: AbortSignal | undefined): string | undefined {
  const why: unknown = signal?.reason
  if (typeof why === 'string') return why
  if (why instanceof Error && why.name !== 'AbortError') return why.message
  return undefined
}
