import type { ProcessSet } from './process-set.js'

/** Every way one agent run can end. */
export const AGENT_OUTCOMES = [
  'succeeded',
  'failed',
  'stalled',
  'timed_out',
  'cancelled',
  'input_required',
  'rate_limited'
] as const

/** How one agent run ended. */
export type AgentOutcome = (typeof AGENT_OUTCOMES)[number]

/** Which command line and event-stream reader a run uses, chosen by the command's basename. */
export type PresetName = 'claude' | 'codex' | 'gemini' | 'generic'

/** The agent contract variables (DESIGN.md, "Agent contract"). */
export interface AgentContract {
  handoffPath: string
  runTimestamp: string
  profile: string
  issue: string
  promptFile: string
}

/**
 * Something the agent did. `output` carries the raw decoded text (it may hold workflow
 * commands such as `::set-output`, so an adapter must neutralise it before printing);
 * `event` a one-line description of a parsed stream event; `cpu` busy CPU with no output.
 */
export interface AgentActivity {
  kind: 'output' | 'cpu' | 'event'
  text?: string
}

/** How an agent runs as another Unix user (src/isolation builds one). */
export interface AgentSandbox {
  /** The agent's home: HOME, and where its prompt file already is. */
  home: string
  /** Model access through the action's proxy: variables set, and the real ones withheld. */
  env: { set: Record<string, string>; unset: string[] }
  /** The command line and options that start `file args` as the agent user, in `cwd`. */
  launch(
    file: string,
    args: string[],
    env: Record<string, string>,
    cwd: string
  ): {
    file: string
    args: string[]
    env: Record<string, string>
    cwd: string
    uid?: number
    gid?: number
  }
  /** Why the agent user cannot run this file, or null when it can. */
  cannotRun(file: string): string | null
  /** Every process of the agent user. */
  processes: ProcessSet
}

export interface RunAgentOptions {
  /** The profile's command as words: no shell ever sees them. */
  argv: string[]
  /** The repository root. */
  cwd: string
  prompt: string
  contract: AgentContract
  /**
   * Usually `process.env`. The agent gets only an allow-list of it (see agentEnvironment):
   * never the runner's secrets and control variables.
   */
  parentEnv: Record<string, string | undefined>
  /** Names it may also take from `parentEnv` (the profile's `env`), on top of its preset's. */
  declaredEnv?: string[]
  /** The agent's HOME; default: the parent's. */
  home?: string
  /** stdout and stderr are appended here, never to our own stdout. */
  logPath: string
  /** Silence (no output and no busy CPU in the group) that counts as stalled; <= 0 turns it off. */
  stallTimeoutMs: number
  /** Hard limit for the whole run (`agent.turn_timeout_ms`); <= 0 turns it off. */
  deadlineMs: number
  maxTurns: number
  /** Dollars the run may spend, for a CLI that enforces a budget itself (Claude Code). */
  maxBudgetUsd?: number
  signal?: AbortSignal
  /** Time between SIGTERM and SIGKILL to the group; default 5000. */
  killGraceMs?: number
  /** How often the group's CPU time and the stall clock are checked; default 1000. */
  pollMs?: number
  onActivity?: (e: AgentActivity) => void
  /** Run as another user; without it the agent runs as we do, in its own process group. */
  sandbox?: AgentSandbox
  /**
   * Called once the agent is running: its pid, which is also its process group id (a post
   * step can end a group its main step could not), and the full command line it was given.
   */
  onStart?: (info: { pid: number; argv: string[] }) => void
}

export interface AgentStats {
  turns?: number
  inputTokens?: number
  outputTokens?: number
  costUsd?: number
}

export interface AgentRunResult {
  outcome: AgentOutcome
  /** One line for humans: `exit code 1`, `API error 529`, `killed by signal SIGSEGV`, ... */
  reason: string
  exitCode: number | null
  signal: string | null
  durationMs: number
  stats: AgentStats
  /** The agent's question when the outcome is `input_required`. */
  question?: string
  /** The agent's final text (capped). */
  resultText?: string
  logPath: string
  /** ISO time of the last output or busy CPU seen from the agent's process group. */
  lastActivityAt: string
  preset: PresetName
}

/** What an agent's event stream said, read once the stream has ended. */
export interface StreamFindings {
  stats: AgentStats
  resultText?: string
  /** The stream ended in an error result; one line (e.g. `API error 529`). */
  error?: string
  /** A rate limit was reported; it decides the outcome only when the run failed. */
  rateLimited?: boolean
  /** The agent asked for input (the itervox sentinel, or the CLI's own question tool). */
  needsInput?: { question: string }
}

/** Reads one agent's stdout, line by line; every line, however malformed, is accepted. */
export interface StreamParser {
  /** One stdout line without its line ending; returns a short description of a known event. */
  line(text: string): string | undefined
  /** Called once, after the last line. */
  finish(): StreamFindings
}
