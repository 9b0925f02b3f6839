// Runs one real agent CLI through the stage's own runner (runAgent, with its preset's argv and
// environment) against a loopback model API, the way a stage does with isolation: the model
// proxy holds the key and the CLI's settings files are written into a fresh HOME.
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { setUpModelAccess } from '../../src/agent/model-access.js'
import { runAgent } from '../../src/agent/run.js'
import type { AgentRunResult } from '../../src/agent/types.js'
import { closedPort } from '../agent/fake-model-api.js'
import type { CliName } from './agent-clis.js'
import type { Reply } from './model-replies.js'
import { startReplayModelApi } from './replay-model-api.js'
import { HANDOFF_ABSOLUTE, HANDOFF_RELATIVE } from './scenarios.js'

const HANDOFF_PATH = '.itervox/handoff/2026-12-01T10-00-00.000Z_planner.md'
// Silence after which the stage's watchdog ends the run. A scenario whose model API stops
// answering is meant to end that way, soon; in any other, the watchdog only catches a real
// hang, as a CLI on a busy 2-core machine was seen quiet for over 4 s.
const STALL_MS = 4000
const QUIET_MS = 30_000

const KEY = 'contract-key-not-a-secret'

export interface ScenarioRun {
  result: AgentRunResult
  /** `METHOD route` of each request the model API got. */
  seen: string[]
  /** What the runner logged: stdout alone when `stderrFile` was given, else both. */
  log: string
  stderr?: string
  /** The deliverable after the run, or null when there is none. */
  deliverable: string | null
  /** Replaces the run's own paths in text with stable names. */
  normalise: (text: string) => string
}

/** Extra environment and settings per CLI: short retries, and no traffic beyond the model. */
function tuning(cli: CliName): { env: Record<string, string>; settings?: Record<string, unknown> } {
  switch (cli) {
    case 'claude':
      // One retry, so a rate limit shows the CLI's retry event and then its give-up.
      return {
        env: { CLAUDE_CODE_MAX_RETRIES: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' }
      }
    case 'codex':
      return { env: {} }
    case 'gemini':
      return {
        env: {},
        settings: { general: { maxAttempts: 1 }, privacy: { usageStatisticsEnabled: false } }
      }
  }
}

export async function runScenario(opts: {
  cli: CliName
  binDir: string
  replies: Record<string, Reply[]>
  /** Record stderr apart from stdout (a wrapper sends it to this file). */
  recordStderr?: boolean
  /** The budget left, passed as a stage passes it (claude's preset turns it into a flag). */
  maxBudgetUsd?: number
}): Promise<ScenarioRun> {
  const { cli } = opts
  const root = mkdtempSync(join(tmpdir(), `itervox-contract-${cli}-`))
  const repo = join(root, 'repo')
  const home = join(root, 'home')
  const tmp = join(root, 'tmp')
  for (const d of [repo, home, tmp]) mkdirSync(d, { recursive: true })
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' })
  git('init', '-q', '-b', 'main')
  writeFileSync(join(repo, 'README.md'), '# A repository\n')
  git('add', '.')
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'init')

  const absolute = join(repo, HANDOFF_PATH)
  const api = await startReplayModelApi(opts.replies, (t) =>
    t.split(HANDOFF_ABSOLUTE).join(absolute).split(HANDOFF_RELATIVE).join(HANDOFF_PATH)
  )
  // Anything the CLI sends beyond the model proxy goes to a proxy nothing listens on.
  const nowhere = `http://127.0.0.1:${await closedPort()}`
  const keyVar = { claude: 'ANTHROPIC_API_KEY', codex: 'CODEX_API_KEY', gemini: 'GEMINI_API_KEY' }[
    cli
  ]
  const urlVar = {
    claude: 'ANTHROPIC_BASE_URL',
    codex: 'OPENAI_BASE_URL',
    gemini: 'GOOGLE_GEMINI_BASE_URL'
  }[cli]
  const jobEnv = { [keyVar]: KEY, [urlVar]: cli === 'codex' ? `${api.url}/v1` : api.url }
  const access = await setUpModelAccess(cli, jobEnv)
  if (!access || 'missing' in access) throw new Error(`no model access for ${cli}`)
  const { env: extra, settings } = tuning(cli)
  for (const f of access.files) {
    const path = join(home, f.path)
    mkdirSync(dirname(path), { recursive: true })
    const content =
      settings && f.path.endsWith('.json')
        ? JSON.stringify({ ...(JSON.parse(f.content) as object), ...settings })
        : f.content
    writeFileSync(path, content)
  }

  let path = `${opts.binDir}:${process.env.PATH ?? ''}`
  const stderrFile = join(root, 'stderr.txt')
  if (opts.recordStderr) {
    const wrappers = join(root, 'bin')
    mkdirSync(wrappers)
    const wrapper = join(wrappers, cli)
    writeFileSync(
      wrapper,
      `#!/bin/sh\nexec ${JSON.stringify(join(opts.binDir, cli))} "$@" 2>>"$ITERVOX_CONTRACT_STDERR"\n`
    )
    chmodSync(wrapper, 0o755)
    path = `${wrappers}:${path}`
  }
  const parentEnv: Record<string, string> = {
    PATH: path,
    LANG: 'C.UTF-8',
    TMPDIR: tmp,
    HTTPS_PROXY: nowhere,
    HTTP_PROXY: nowhere,
    ...extra,
    ...access.env,
    ...(opts.recordStderr ? { ITERVOX_CONTRACT_STDERR: stderrFile } : {})
  }
  const logPath = join(root, 'agent.log')
  try {
    const result = await runAgent({
      argv: [cli],
      cwd: repo,
      prompt: `Write the plan for issue 7 to ${HANDOFF_PATH}.\n`,
      contract: {
        handoffPath: HANDOFF_PATH,
        runTimestamp: '2026-12-01T10-00-00.000Z',
        profile: 'planner',
        issue: '7',
        promptFile: '.itervox/prompt.md'
      },
      parentEnv,
      declaredEnv: Object.keys(extra),
      home,
      logPath,
      stallTimeoutMs: Object.values(opts.replies).some((rs) => rs.some((r) => r.stall))
        ? STALL_MS
        : QUIET_MS,
      deadlineMs: 120_000,
      maxTurns: 5,
      ...(opts.maxBudgetUsd !== undefined ? { maxBudgetUsd: opts.maxBudgetUsd } : {}),
      pollMs: 200,
      killGraceMs: 1000
    })
    const normalise = (text: string) =>
      text
        .split(root)
        .join('<ROOT>')
        .split(api.url)
        .join('<MODEL_API>')
        .split(access.proxy.url)
        .join('<MODEL_PROXY>')
        .split(nowhere)
        .join('<NOWHERE>')
    return {
      result,
      seen: [...api.seen],
      log: readFileSync(logPath, 'utf8'),
      ...(opts.recordStderr && existsSync(stderrFile)
        ? { stderr: readFileSync(stderrFile, 'utf8') }
        : {}),
      deliverable: existsSync(absolute) ? readFileSync(absolute, 'utf8') : null,
      normalise
    }
  } finally {
    await access.proxy.close()
    await api.close()
    rmSync(root, { recursive: true, force: true })
  }
}
