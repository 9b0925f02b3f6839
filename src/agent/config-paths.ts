import picomatch from 'picomatch'

// What the agent CLIs read from the project tree as their own configuration: settings that can
// set environment variables (a model base URL, so the key and the traffic go elsewhere), hooks
// and MCP servers that run commands, and instruction files. A file an agent leaves here is
// obeyed by the next stage's CLI, so a stage never commits one unless its profile names it,
// and the agent is given these paths as the trusted commit (the default branch) has them.

/**
 * Folders read whole, at any depth (Claude Code also finds nested `.claude/skills`); a file or
 * symlink by such a name counts too, or `.claude -> elsewhere` would bring a folder in.
 */
const CONFIG_DIRS = new Set([
  '.claude', // Claude Code: settings*.json (env, hooks, permissions), commands, agents, skills
  '.codex', // Codex: config.toml, agents, prompts
  '.gemini', // Gemini CLI: settings.json, .env, commands, extensions, system.md
  '.agents', // Codex skills (.agents/skills)
  '.cursor' // Cursor's agent: rules, mcp.json
])

/** Files read at any depth: instruction files are looked up directory by directory. */
const CONFIG_FILES = new Set(
  [
    'CLAUDE.md',
    'CLAUDE.local.md',
    '.mcp.json', // Claude Code's project MCP servers
    'AGENTS.md',
    'AGENTS.override.md',
    'GEMINI.md',
    '.geminiignore',
    '.cursorrules'
  ].map((n) => n.toLowerCase())
)

/** Files read at the root only: Gemini CLI loads `.env` from its working directory up. */
const ROOT_FILES = new Set(['.env'])

/**
 * The index of the segment of `path` that makes it agent configuration (the outermost config
 * folder, or the file's own name), or -1 when it is none. Names compare without case: on a
 * case-insensitive file system `.Claude` is `.claude`.
 */
function configSegment(path: string): number {
  const parts = path.split('/')
  for (let i = 0; i < parts.length; i++) {
    const name = (parts[i] ?? '').toLowerCase()
    const last = i === parts.length - 1
    if (CONFIG_DIRS.has(name)) return i
    if (last && (CONFIG_FILES.has(name) || (i === 0 && ROOT_FILES.has(name)))) return i
  }
  return -1
}

export function isAgentConfig(path: string): boolean {
  return configSegment(path) >= 0
}

// A segment with any of these is a pattern, not a name.
const GLOB_CHARS = /[*?[\]{}()!+@\\]/

/**
 * Whether a commit_paths entry names `path` explicitly: the entry matches it and spells the
 * segment that makes it agent configuration literally (`.claude/**`, `CLAUDE.md`,
 * `docs/CLAUDE.md`, `**\/AGENTS.md`), so that no wildcard (`**`, `*.md`, `.*\/**`) lets a stage
 * commit agent configuration by accident.
 */
export function namedExplicitly(globs: readonly string[], path: string): boolean {
  const at = configSegment(path)
  if (at < 0) return false
  const marker = (path.split('/')[at] ?? '').toLowerCase()
  return globs.some(
    (glob) =>
      picomatch(glob, { dot: true })(path) &&
      glob.split('/').some((s) => !GLOB_CHARS.test(s) && s.toLowerCase() === marker)
  )
}
