import { describe, expect, it } from '@jest/globals'
import { isAgentConfig, namedExplicitly } from '../../src/agent/config-paths.js'

describe('isAgentConfig', () => {
  it.each([
    '.claude/settings.json',
    '.claude/settings.local.json',
    '.claude/commands/deploy.md',
    '.claude/agents/x.md',
    '.claude/hooks/start.sh',
    '.claude',
    'packages/web/.claude/skills/s/SKILL.md',
    'CLAUDE.md',
    'CLAUDE.local.md',
    'src/deep/CLAUDE.md',
    '.mcp.json',
    '.codex/config.toml',
    'AGENTS.md',
    'AGENTS.override.md',
    'services/api/AGENTS.md',
    '.agents/skills/review/SKILL.md',
    '.gemini/settings.json',
    '.gemini/.env',
    '.gemini/commands/fix.toml',
    'GEMINI.md',
    'docs/GEMINI.md',
    '.geminiignore',
    '.env',
    '.cursor/rules/a.mdc',
    '.cursorrules',
    // Case does not matter: a case-insensitive file system reads either.
    '.Claude/settings.json',
    'claude.md'
  ])('%s is agent configuration', (p) => {
    expect(isAgentConfig(p)).toBe(true)
  })

  it.each([
    'README.md',
    'src/claude.ts',
    'docs/claude/notes.md',
    'MY_CLAUDE.md',
    'CLAUDE.md.bak',
    'apps/web/.env',
    '.env.example',
    '.itervox/handoff/2026-01-01T00-00-00.000Z_x.md',
    'claude/settings.json'
  ])('%s is not', (p) => {
    expect(isAgentConfig(p)).toBe(false)
  })
})

describe('namedExplicitly', () => {
  it.each([
    [['.claude/**'], '.claude/settings.json'],
    [['.claude/settings.json'], '.claude/settings.json'],
    [['.claude/commands/*.md'], '.claude/commands/deploy.md'],
    [['CLAUDE.md'], 'CLAUDE.md'],
    [['**/AGENTS.md'], 'services/api/AGENTS.md'],
    [['docs/**', 'docs/GEMINI.md'], 'docs/GEMINI.md'],
    [['**/.claude/**'], 'packages/web/.claude/skills/s/SKILL.md'],
    [['.env'], '.env']
  ])('%j names %s', (globs, p) => {
    expect(namedExplicitly(globs, p)).toBe(true)
  })

  it.each([
    [['**'], '.claude/settings.json'],
    [['**'], 'CLAUDE.md'],
    [['*.md'], 'CLAUDE.md'],
    [['**/*.md'], 'docs/CLAUDE.md'],
    [['docs/**'], 'docs/CLAUDE.md'],
    [['.*/**'], '.claude/settings.json'],
    [['.{claude,codex}/**'], '.codex/config.toml'],
    [['.c?aude/**'], '.claude/settings.json'],
    [['[C]LAUDE.md'], 'CLAUDE.md'],
    [['.*'], '.mcp.json'],
    // Named, but the entry does not match the path.
    [['.claude/commands/**'], '.claude/settings.json'],
    // Spells a name deeper than the one that makes the path agent configuration.
    [['**/CLAUDE.md'], '.claude/CLAUDE.md'],
    // Not agent configuration at all: nothing to name.
    [['**'], 'README.md']
  ])('%j does not name %s', (globs, p) => {
    expect(namedExplicitly(globs, p)).toBe(false)
  })
})
