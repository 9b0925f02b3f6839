import { execFile, spawnSync } from 'node:child_process'
import { closeSync, openSync, readdirSync, readSync } from 'node:fs'
import type { GroupProcess } from '../agent/process-group.js'
import type { ProcessSet } from '../agent/process-set.js'
import type { AgentUser } from './agent-user.js'
import { systemProgram, type Privilege } from './privilege.js'

const buffer = Buffer.alloc(4096)

function read(file: string): string | undefined {
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch {
    return undefined
  }
  try {
    return buffer.toString('latin1', 0, readSync(fd, buffer, 0, buffer.length, 0))
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}

/**
 * Every live process of `uid` (real, effective or saved), read from /proc. `status` is read
 * rather than the owner of `/proc/<pid>`, which turns to root for a process that made itself
 * non-dumpable. Both files stay readable across the user boundary, so the watchdog keeps
 * seeing the agent's CPU time.
 */
function userProcesses(uid: number): GroupProcess[] {
  const found: GroupProcess[] = []
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return found
  }
  const want = String(uid)
  for (const name of names) {
    const first = name.charCodeAt(0)
    if (first < 48 || first > 57) continue
    const status = read(`/proc/${name}/status`)
    const uids = status && /\nUid:\t(\d+)\t(\d+)\t(\d+)/.exec(status)
    if (!uids || !uids.slice(1).includes(want)) continue
    const stat = read(`/proc/${name}/stat`)
    if (!stat) continue
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (fields[0] === 'Z' || fields[0] === 'X') continue
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0)
    found.push({ pid: Number(name), cpuTicks: ticks })
  }
  return found
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const KILL_WAIT_MS = 10_000

/**
 * All processes of the agent user, however they were started (`setsid`, double forks,
 * daemons): the agent user is the job's own, so everything it runs belongs to the agent.
 * They are signalled by `kill -1` run as that user, which reaches every process the user
 * owns in one call; the runner's user could not signal them itself.
 */
export class UserProcesses implements ProcessSet {
  private readonly kill: string

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

  /** SIGTERM to all, `graceMs` to exit, then SIGKILL until none is left. */
  async end(graceMs: number): Promise<number[]> {
    if (!this.alive()) return []
    await this.signal('TERM')
    const until = Date.now() + graceMs
    while (Date.now() < until) {
      if (!this.alive()) return []
      await sleep(25)
    }
    const stop = Date.now() + KILL_WAIT_MS
    for (;;) {
      await this.signal('KILL')
      const left = this.members()
      if (left.length === 0) return []
      if (Date.now() >= stop) return left.map((p) => p.pid)
      await sleep(25)
    }
  }

  /** SIGKILL to all at once, for a process about to exit. */
  killNow(): void {
    const [file = '', ...args] = this.argv('KILL')
    spawnSync(file, args, { stdio: 'ignore', ...this.ids() })
  }

  private signal(name: 'TERM' | 'KILL'): Promise<void> {
    const [file = '', ...args] = this.argv(name)
    return new Promise((resolve) => {
      // Exit status 1 only says some process was gone already.
      execFile(file, args, { ...this.ids() }, () => resolve())
    })
  }

  private argv(name: string): string[] {
    const kill = [this.kill, `-${name}`, '--', '-1']
    return this.privilege.kind === 'root'
      ? kill
      : [this.privilege.sudo, '-n', '-u', this.user.name, '--', ...kill]
  }

  private ids(): { uid?: number; gid?: number } {
    return this.privilege.kind === 'root' ? { uid: this.user.uid, gid: this.user.gid } : {}
  }
}
