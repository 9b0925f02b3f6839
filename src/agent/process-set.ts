import {
  endGroup,
  groupAlive,
  groupProcesses,
  signalGroup,
  type GroupProcess
} from './process-group.js'

/**
 * The processes that make up one agent run, whose CPU time the watchdog reads and which all
 * end before anything the agent wrote is read: its process group when it runs as our user,
 * every process of the agent user when it runs as another (src/isolation).
 */
export interface ProcessSet {
  /** The live members; undefined when they cannot be listed (no /proc). */
  members(): GroupProcess[] | undefined
  alive(): boolean
  /** Ends every member (TERM, grace, KILL); resolves with the pids that outlived it all. */
  end(graceMs: number): Promise<number[]>
  /** SIGKILL to every member at once, for a process about to exit. */
  killNow(): void
}

export function processGroup(pgid: number): ProcessSet {
  return {
    members: () => groupProcesses(pgid),
    alive: () => groupAlive(pgid),
    end: (graceMs) => endGroup(pgid, graceMs),
    killNow: () => signalGroup(pgid, 'SIGKILL')
  }
}

/** Agent runs this process started and has not yet seen end. */
const running = new Set<ProcessSet>()

/** Remembers a run's processes until the returned function is called. */
export function track(set: ProcessSet): () => void {
  running.add(set)
  return () => running.delete(set)
}

/**
 * SIGKILL to every run this process started, synchronously: for a second Ctrl-C, when the
 * user will not wait for a graceful end and this process is about to exit.
 */
export function killTracked(): void {
  for (const set of running) set.killNow()
}
