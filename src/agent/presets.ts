import { basename } from 'node:path'
import { ClaudeParser } from './parse-claude.js'
import { CodexParser } from './parse-codex.js'
import { GeminiParser } from './parse-gemini.js'
import { TextParser } from './parse-text.js'
import type { PresetName, StreamParser } from './types.js'

export interface Preset {
  name: PresetName
  /** The full command line to run; the user's own words come first and are never dropped. */
  argv: string[]
  /** Variables the CLI needs on top of the agent environment. */
  env: Record<string, string>
  parser: StreamParser
}

/**
 * The command line, extra environment and stream reader for a profile's command, chosen by
 * the command's basename. Flags the user already wrote (in either `--flag value` or
 * `--flag=value` form, or an equivalent) are not added again. Every preset reads the prompt
 * from stdin.
 */
interface PresetOptions {
  maxTurns: number
  isRoot: boolean
  /** The budget left, in dollars; only Claude Code enforces one itself. */
  maxBudgetUsd?: number
}

export function presetFor(argv: string[], opts: PresetOptions): Preset {
  const command = argv[0] ?? ''
  switch (basename(command)) {
    case 'claude':
      return claude(argv, opts)
    case 'codex':
      return codex(argv)
    case 'gemini':
      return gemini(argv)
    default:
      return { name: 'generic', argv: [...argv], env: {}, parser: new TextParser() }
  }
}

function claude(argv: string[], opts: PresetOptions): Preset {
  const out = [...argv]
  const user = argv.slice(1)
  if (!has(user, '-p', '--print')) out.push('-p')
  if (!has(user, '--output-format')) out.push('--output-format', 'stream-json')
  // stream-json in print mode is refused without --verbose.
  if (!has(user, '--verbose')) out.push('--verbose')
  if (!has(user, '--max-turns')) out.push('--max-turns', String(opts.maxTurns))
  // The CLI checks its spend between turns and stops once past it, so a turn already under
  // way can overshoot a little; the action's deadline still ends a hung one.
  if (opts.maxBudgetUsd !== undefined && !has(user, '--max-budget-usd')) {
    out.push('--max-budget-usd', opts.maxBudgetUsd.toFixed(4))
  }
  if (!has(user, '--dangerously-skip-permissions', '--permission-mode')) {
    out.push('--dangerously-skip-permissions')
  }
  return {
    name: 'claude',
    argv: out,
    // As root the CLI refuses --dangerously-skip-permissions unless told it is in a sandbox
    // (containers and CI runners often run as root); as anyone else it needs nothing.
    env: opts.isRoot ? { IS_SANDBOX: '1' } : {},
    parser: new ClaudeParser()
  }
}

function codex(argv: string[]): Preset {
  const user = argv.slice(1)
  const out = [argv[0] as string, ...(has(user, 'exec', 'e') ? [] : ['exec']), ...user]
  if (!has(user, '--json', '--experimental-json')) out.push('--json')
  if (!has(user, '--skip-git-repo-check')) out.push('--skip-git-repo-check')
  // The runner is the sandbox (isolation: user); codex's own would refuse the stage's writes
  // and its approval prompts have nobody to answer them. (`--full-auto` is no such flag: 0.171
  // rejects it as an unexpected argument.)
  if (!has(user, '--dangerously-bypass-approvals-and-sandbox', '--yolo', '--sandbox', '-s')) {
    out.push('--dangerously-bypass-approvals-and-sandbox')
  }
  // `-` makes codex read the prompt from stdin.
  if (!user.includes('-')) out.push('-')
  return { name: 'codex', argv: out, env: {}, parser: new CodexParser() }
}

function gemini(argv: string[]): Preset {
  const out = [...argv]
  const user = argv.slice(1)
  // With stdin not a terminal and no prompt argument, gemini runs headless on stdin's text.
  if (!has(user, '--output-format', '-o')) out.push('--output-format', 'stream-json')
  if (!has(user, '--yolo', '-y', '--approval-mode')) out.push('--yolo')
  return {
    name: 'gemini',
    argv: out,
    // A fresh checkout is never in the user's trusted folders: headless gemini would exit 55
    // before any model call, and --yolo is downgraded there. The variable works across
    // versions (0.61's --skip-trust does not exist in older ones).
    env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    parser: new GeminiParser()
  }
}

/**
 * What each CLI reads its key, endpoint and model from. The agent environment is an
 * allow-list, so these pass by default, on top of the names the profile's `env` adds.
 */
const MODEL_VARIABLES: Record<PresetName, readonly string[]> = {
  claude: [
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_AUTH_TOKEN',
    'CLAUDE_CODE_OAUTH_TOKEN',
    'ANTHROPIC_BASE_URL',
    'ANTHROPIC_MODEL',
    'ANTHROPIC_SMALL_FAST_MODEL',
    'CLAUDE_CODE_USE_BEDROCK',
    'CLAUDE_CODE_USE_VERTEX',
    'AWS_REGION',
    'ANTHROPIC_VERTEX_PROJECT_ID',
    'CLOUD_ML_REGION'
  ],
  codex: ['CODEX_API_KEY', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'CODEX_HOME'],
  gemini: [
    'GEMINI_API_KEY',
    'GOOGLE_API_KEY',
    'GOOGLE_GEMINI_BASE_URL',
    'GOOGLE_CLOUD_PROJECT',
    'GOOGLE_CLOUD_LOCATION',
    'GOOGLE_GENAI_USE_VERTEXAI',
    'GEMINI_MODEL'
  ],
  generic: []
}

/**
 * Variables a preset's CLI needs derived from the ones it was given: `codex exec` reads only
 * CODEX_API_KEY and, given just OPENAI_API_KEY, sends no key at all (every call gets 401).
 */
export function derivedVariables(
  preset: PresetName,
  env: Record<string, string>
): Record<string, string> {
  if (preset !== 'codex' || env.CODEX_API_KEY || !env.OPENAI_API_KEY) return {}
  return { CODEX_API_KEY: env.OPENAI_API_KEY }
}

/** The variables a preset's CLI is given by default. */
export function modelVariables(preset: PresetName): readonly string[] {
  return MODEL_VARIABLES[preset]
}

/**
 * The names an agent may take from the job's environment: its preset's model variables plus
 * the profile's own `env` (which adds to them, never replaces them), each once.
 */
export function allowedNames(profileEnv: readonly string[], preset: PresetName): string[] {
  return [...new Set([...MODEL_VARIABLES[preset], ...profileEnv])]
}

function has(args: string[], ...flags: string[]): boolean {
  return args.some((a) => flags.some((f) => a === f || a.startsWith(`${f}=`)))
}
