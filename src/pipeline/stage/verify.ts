import { closeSync, openSync, readSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { runAgent } from '../../agent/run.js'
import type { AgentSandbox } from '../../agent/types.js'
import type { ProfileConfig } from '../../config/types.js'
import { systemProgram } from '../../isolation/privilege.js'
import type { SecretScanner } from '../../secrets/scanner.js'
import type { VerifyEvidence } from '../record/record.js'
import { clip } from '../untrusted-text.js'

/** A run whose verify commands failed is a `failed` whose reason starts with this. */
export const VERIFY_PROBLEM = 'verification failed: '

// Of a command's output only its end is read back: what a failing test run says last.
const TAIL_BYTES = 16_384
const TAIL_LINES = 30
const TAIL_CHARS = 1800

export interface VerifyInput {
  profile: ProfileConfig
  /** The agent's tree, where the commands run. */
  cwd: string
  /** The agent's sandbox, for an isolated agent: the commands run as its user. */
  sandbox?: AgentSandbox
  parentEnv: Record<string, string | undefined>
  contract: { handoffPath: string; runTimestamp: string; issue: string }
  workDir: string
  secrets: SecretScanner
  signal?: AbortSignal
  killGraceMs?: number
}

/**
 * Runs the profile's verify commands (WORKFLOW.md's, from the trusted commit) one after another
 * in the agent's tree, each as the agent ran: its user, its environment allow-list without
 * the model's key or proxy, its own process group, a deadline. Stops at the first failure.
 * The output is the tree's code speaking, so only its redacted last lines are kept.
 */
export async function runVerify(o: VerifyInput): Promise<VerifyEvidence> {
  const bash = systemProgram('bash')
  // Node's pipes are sockets, which make bash read ~/.bashrc as if started by rshd.
  const shell = bash ? [bash, '--norc', '--noprofile'] : [systemProgram('sh') ?? '/bin/sh']
  // The model's access is the agent's; a verify command has no use for it.
  const sandbox = o.sandbox && {
    ...o.sandbox,
    env: { set: identityOf(o.sandbox.env.set), unset: o.sandbox.env.unset }
  }
  let last: VerifyEvidence = { passed: true, command: '', result: 'no command', tail: '' }
  for (const [i, command] of o.profile.verify.entries()) {
    const logPath = join(o.workDir, `verify-${i + 1}.log`)
    rmSync(logPath, { force: true })
    const run = await runAgent({
      argv: [...shell, '-c', command],
      cwd: o.cwd,
      sandbox,
      prompt: '',
      contract: {
        ...o.contract,
        profile: o.profile.name,
        promptFile: join(o.workDir, 'verify-prompt.md')
      },
      parentEnv: o.parentEnv,
      declaredEnv: o.profile.env,
      logPath,
      stallTimeoutMs: o.profile.verifyTimeoutMs,
      deadlineMs: o.profile.verifyTimeoutMs,
      maxTurns: 0,
      signal: o.signal,
      killGraceMs: o.killGraceMs
    })
    const ended = run.outcome === 'timed_out' || run.outcome === 'cancelled'
    const passed = run.exitCode === 0 && !ended
    const n = o.profile.verify.length
    last = {
      passed,
      command: clip(command, 500),
      result: clip(passed ? `${n} command${n === 1 ? '' : 's'} passed` : run.reason, 300),
      tail: o.secrets.redact(tailOf(logPath)).text
    }
    if (!passed) break
  }
  return last
}

/** The reason a stage whose verify commands failed ends with. */
export function verifyReason(e: VerifyEvidence): string {
  return `${VERIFY_PROBLEM}\`${clip(e.command, 200)}\` ${e.result}`
}

function identityOf(set: Record<string, string>): Record<string, string> {
  const keep = ['USER', 'LOGNAME', 'TMPDIR', 'SHELL']
  return Object.fromEntries(Object.entries(set).filter(([k]) => keep.includes(k)))
}

/** The last lines of a log, without terminal escapes, at most TAIL_CHARS. */
function tailOf(path: string): string {
  let text: string
  try {
    const size = statSync(path).size
    const fd = openSync(path, 'r')
    try {
      const buf = Buffer.alloc(Math.min(size, TAIL_BYTES))
      const got = readSync(fd, buf, 0, buf.length, size - buf.length)
      text = buf.subarray(0, got).toString('utf8')
    } finally {
      closeSync(fd)
    }
  } catch {
    return ''
  }
  const plain = text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\r(?!\n)/g, '\n')
  const lines = plain.trimEnd().split(/\r?\n/).slice(-TAIL_LINES).join('\n')
  const points = Array.from(lines)
  return points.length <= TAIL_CHARS ? lines : '…' + points.slice(-(TAIL_CHARS - 1)).join('')
}
