import { closeSync, existsSync, openSync, readdirSync, readSync } from 'node:fs'

/** One live process of a group, with the CPU time it and its reaped children have used. */
export interface GroupProcess {
  pid: number
  /** utime + stime + cutime + cstime, in clock ticks. */
  cpuTicks: number
}

// Without /proc (macOS when the CLI runs locally) a group can still be signalled and probed
// with kill(-pgid, 0), but its members and their CPU time are unknown.
const hasProc = existsSync('/proc/self/stat')

/**
 * Every live process whose process group is `pgid`, read from /proc. `undefined` when /proc
 * cannot be read.
 */
export function groupProcesses(pgid: number): GroupProcess[] | undefined {
  return liveProcesses({ stat: (fields) => Number(fields[2]) === pgid })
}

/** Which processes a scan keeps; a test left out keeps all. */
export interface ProcessPick {
  /**
   * Given the pid alone, before the process's stat is read: a scan that picks by another file
   * need not read two files of every process on the machine.
   */
  pid?: (pid: string) => boolean
  /** Given the /proc stat fields after the command name. */
  stat?: (fields: string[]) => boolean
}

/**
 * Every live process `pick` keeps. Zombies are left out: they run nothing, and one whose
 * parent never reaps it (some container init processes do not) would otherwise be waited for
 * forever.
 */
export function liveProcesses(pick: ProcessPick): GroupProcess[] | undefined {
  if (!hasProc) return undefined
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return undefined
  }
  const found: GroupProcess[] = []
  for (const name of names) {
    const first = name.charCodeAt(0)
    if (first < 48 || first > 57) continue // not a pid
    if (pick.pid && !pick.pid(name)) continue
    const stat = readProc(`/proc/${name}/stat`)
    if (stat === undefined) continue // it ended between readdir and read
    // The command name (field 2) may hold spaces and parentheses; fields after it do not.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const state = fields[0]
    if (state === 'Z' || state === 'X' || (pick.stat && !pick.stat(fields))) continue
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0)
    found.push({ pid: Number(name), cpuTicks: ticks })
  }
  return found
}

// One shared buffer and a plain read: this runs for every process on the machine each
// watchdog tick, and readFileSync's stat-and-allocate costs about three times as much.
const procBuffer = Buffer.alloc(4096)

/** The first 4 KiB of a /proc file (all of `stat`, the head of `status`), or undefined. */
export function readProc(path: string): string | undefined {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch {
    return undefined
  }
  try {
    return procBuffer.toString('latin1', 0, readSync(fd, procBuffer, 0, procBuffer.length, 0))
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}

/** The pids of a group's live processes (empty when /proc cannot be read). */
export function groupPids(pgid: number): number[] {
  return (groupProcesses(pgid) ?? []).map((p) => p.pid)
}

/** True while any process of the group is alive. */
export function groupAlive(pgid: number): boolean {
  const members = groupProcesses(pgid)
  if (members) return members.length > 0
  try {
    process.kill(-pgid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Sends a signal to every process of the group; a group that is already gone is fine. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until the group is gone or `timeoutMs` has passed; true when it is gone. */
async function waitGroupGone(
  pgid: number,
  timeoutMs: number,
  everyMs = 25,
  meanwhile?: () => void
): Promise<boolean> {
  const until = Date.now() + timeoutMs
  for (;;) {
    if (!groupAlive(pgid)) return true
    if (Date.now() >= until) return false
    meanwhile?.()
    await sleep(everyMs)
  }
}

// How long processes get to die after SIGKILL. Only one stuck in the kernel (state D on a
// dead network mount) outlives it; waiting longer would only eat the time left to finalise.
const KILL_WAIT_MS = 10_000

/**
 * Ends a process group: SIGTERM to all of it, `graceMs` to exit, then SIGKILL (repeated, so
 * a process forked in between is caught too) until every member is gone. Returns the pids
 * still alive after all that, which is empty unless the kernel held one.
 */
export async function endGroup(pgid: number, graceMs: number): Promise<number[]> {
  if (!groupAlive(pgid)) return []
  signalGroup(pgid, 'SIGTERM')
  if (await waitGroupGone(pgid, graceMs)) return []
  signalGroup(pgid, 'SIGKILL')
  if (await waitGroupGone(pgid, KILL_WAIT_MS, 25, () => signalGroup(pgid, 'SIGKILL'))) return []
  return groupPids(pgid)
}
