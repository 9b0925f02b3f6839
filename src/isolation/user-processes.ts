import { spawn, spawnSync } from 'node:child_process'
import { liveProcesses, readProc, type GroupProcess } from '../agent/process-group.js'
import type { ProcessSet } from '../agent/process-set.js'
import type { AgentUser } from './agent-user.js'
import { asRoot, systemEnv, systemProgram, type Privilege } from './privilege.js'

/**
 * Every live process of `uid` (real, effective or saved), read from /proc. `status` is read
 * rather than the owner of `/proc/<pid>`, which turns to root for a process that made itself
 * non-dumpable. Both files stay readable across the user boundary, so the watchdog keeps
 * seeing the agent's CPU time.
 */
function userProcesses(uid: number): GroupProcess[] {
  const want = String(uid)
  const owned = (pid: string) => {
    const uids = /\nUid:\t(\d+)\t(\d+)\t(\d+)/.exec(readProc(`/proc/${pid}/status`) ?? '')
    return uids !== null && uids.slice(1).includes(want)
  }
  return liveProcesses({ pid: owned }) ?? []
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const KILL_WAIT_MS = 10_000
// How long a helper may take before it is taken for frozen (SIGSTOP from the agent) and killed.
const HELPER_WAIT_MS = 3000

// Started as root, the helper becomes the agent user and calls kill(-1): the kernel signals every
// process of the user in one pass, also a chain of forks that each exit as soon as the next is
// born, which a scan of /proc can miss. The agent can signal a process of its own user, or read
// its environment, so the helper is the agent user's only from the moment it is one call from
// its signal, and its environment holds nothing.
const SIGNAL_AS_USER = `const [uid, gid, signal] = process.argv.slice(1)
process.setgroups([])
process.setgid(Number(gid))
process.setuid(Number(uid))
try {
  process.kill(-1, signal)
} catch {}`

type Signal = 'SIGTERM' | 'SIGKILL'

/**
 * All processes of the agent user, however they were started (`setsid`, double forks,
 * daemons): the agent user is the job's own, so everything it runs belongs to the agent.
 * Each signal goes twice: from root to every process of the user seen in /proc, which no
 * process of the agent can stop or delay, then by kill(-1) as the agent user (above), which
 * reaches the ones the scan missed. Nothing is ever run as the agent user with the action's
 * environment: the agent could read it there.
 */
export class UserProcesses implements ProcessSet {
  private readonly kill: string
  private readonly setpriv = systemProgram('setpriv')

  constructor(
    private readonly user: AgentUser,
    private readonly privilege: Privilege
  ) {
    this.kill = systemProgram('kill') ?? '/bin/kill'
  }

  members(): GroupProcess[] {
    return userProcesses(this.user.uid)
  }

  alive(): boolean {
    return this.members().length > 0
  }

  /**
   * SIGTERM to all, `graceMs` to exit, then SIGKILL until none is left. SIGKILL goes at least
   * once even when no process is seen: a chain of forks can slip past every scan.
   */
  async end(graceMs: number): Promise<number[]> {
    if (this.alive()) {
      await this.signal('SIGTERM')
      const until = Date.now() + graceMs
      while (Date.now() < until && this.alive()) await sleep(25)
    }
    const stop = Date.now() + KILL_WAIT_MS
    for (;;) {
      await this.signal('SIGKILL')
      const left = this.members()
      if (left.length === 0) return []
      if (Date.now() >= stop) return left.map((p) => p.pid)
      await sleep(25)
    }
  }

  /** SIGKILL to all at once, for a process about to exit. */
  killNow(): void {
    const pids = this.members().map((p) => p.pid)
    if (this.privilege.kind === 'root') {
      for (const pid of pids) signalPid(pid, 'SIGKILL')
    } else if (pids.length > 0) {
      helperSync(this.fromRoot('SIGKILL', pids))
    }
    helperSync(this.asUser('SIGKILL'))
  }

  private async signal(name: Signal): Promise<void> {
    const pids = this.members().map((p) => p.pid)
    if (this.privilege.kind === 'root') {
      for (const pid of pids) signalPid(pid, name)
    } else if (pids.length > 0) {
      await helper(this.fromRoot(name, pids))
    }
    await helper(this.asUser(name))
  }

  /** `kill` run as root, for a runner user that cannot signal the agent user itself. */
  private fromRoot(name: Signal, pids: number[]): string[] {
    return asRoot(this.privilege, [this.kill, `-${name.slice(3)}`, '--', ...pids.map(String)])
  }

  private asUser(name: Signal): string[] {
    const { uid, gid } = this.user
    // setpriv (util-linux, on every Debian and Ubuntu) starts in a few milliseconds where node
    // takes some fifty; a kill it runs that the agent freezes is ended by the helper's timeout
    // like a frozen node helper, and the root-side signals go on meanwhile.
    const argv = this.setpriv
      ? [this.setpriv, `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--'].concat([
          this.kill,
          `-${name.slice(3)}`,
          '--',
          '-1'
        ])
      : [process.execPath, '-e', SIGNAL_AS_USER, String(uid), String(gid), name]
    return asRoot(this.privilege, argv)
  }
}

function signalPid(pid: number, name: Signal): void {
  try {
    process.kill(pid, name)
  } catch {
    // gone already
  }
}

function helperSync(argv: string[]): void {
  const [file = '', ...args] = argv
  spawnSync(file, args, {
    stdio: 'ignore',
    env: systemEnv(),
    timeout: HELPER_WAIT_MS,
    killSignal: 'SIGKILL'
  })
}

/** Runs `argv` with no environment to speak of; one that hangs past its time is killed. */
function helper(argv: string[]): Promise<void> {
  const [file = '', ...args] = argv
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: 'ignore', env: systemEnv() })
    const timer = setTimeout(() => child.kill('SIGKILL'), HELPER_WAIT_MS)
    const done = () => {
      clearTimeout(timer)
      resolve()
    }
    child.once('exit', done)
    child.once('error', done)
  })
}
