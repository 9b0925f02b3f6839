import type { GroupProcess } from './process-group.js'

// Linux reports CPU time in USER_HZ ticks, fixed at 100 per second for user space.
const TICK_MS = 10

// The share of one CPU a group must use between two samples to count as working. A CLI
// waiting on a dead socket uses next to nothing (a stray GC or timer tick), a test suite or
// a compiler uses far more; so a few idle ticks never hold off the stall watchdog.
const BUSY_SHARE = 0.05

/**
 * Tells whether an agent's processes used CPU since the last sample. Each process is compared
 * with itself, so processes that end or start between samples do not fake or hide work:
 * a new process counts with all the time it has used, an ended one's time shows up in its
 * parent's reaped-children counters once the parent waits for it.
 */
export class CpuMeter {
  private last = new Map<number, number>()
  private lastAt: number

  constructor(
    private readonly members: () => GroupProcess[] | undefined,
    now: number
  ) {
    this.lastAt = now
  }

  /** True when the group was busy since the previous call. */
  busy(now: number): boolean {
    const members = this.members()
    if (!members) return false
    let used = 0
    const seen = new Map<number, number>()
    for (const p of members) {
      used += Math.max(0, p.cpuTicks - (this.last.get(p.pid) ?? 0))
      seen.set(p.pid, p.cpuTicks)
    }
    const elapsed = Math.max(0, now - this.lastAt)
    this.last = seen
    this.lastAt = now
    return used > 0 && used * TICK_MS >= elapsed * BUSY_SHARE
  }
}

/** The stall clock: silence since the agent's last output or busy CPU. */
export class Liveness {
  private lastActivity: number

  constructor(
    private readonly cpu: CpuMeter,
    private readonly stallTimeoutMs: number,
    now: number
  ) {
    this.lastActivity = now
  }

  get lastActivityAt(): number {
    return this.lastActivity
  }

  output(now: number): void {
    this.lastActivity = now
  }

  /** Samples CPU; returns whether it was busy and whether the agent has now stalled. */
  check(now: number): { cpuBusy: boolean; stalled: boolean } {
    const cpuBusy = this.cpu.busy(now)
    if (cpuBusy) this.lastActivity = now
    const stalled = this.stallTimeoutMs > 0 && now - this.lastActivity >= this.stallTimeoutMs
    return { cpuBusy, stalled }
  }
}
