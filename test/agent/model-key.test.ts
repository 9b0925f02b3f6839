// Whether a preset's CLI has a way to its model before its stage starts: any key the proxy
// carries, another login the CLI accepts, or (for an agent that runs as the user) a login
// saved in the user's HOME.
import { describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { missingModelKey } from '../../src/agent/model-access.js'

function homeWith(file: string): string {
  const home = mkdtempSync(join(tmpdir(), 'model-key-'))
  mkdirSync(join(home, file, '..'), { recursive: true })
  writeFileSync(join(home, file), '{}')
  return home
}

describe('missingModelKey', () => {
  it('names the secret each preset reads when it has no way to its model', () => {
    const empty = mkdtempSync(join(tmpdir(), 'model-key-'))
    expect(missingModelKey('claude', {}, empty)).toBe(
      "claude has no model key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN, CLAUDE_CODE_OAUTH_TOKEN); in CI, a repository secret passed in the action step's env:"
    )
    expect(missingModelKey('codex', { CODEX_API_KEY: ' \n' }, empty)).toMatch(
      /^codex has no model key: set CODEX_API_KEY \(or OPENAI_API_KEY\);/
    )
    expect(missingModelKey('gemini', {}, undefined)).toMatch(
      /^gemini has no model key: set GEMINI_API_KEY \(or GOOGLE_API_KEY\);/
    )
    expect(missingModelKey('generic', {}, undefined)).toBeNull()
  })

  it('accepts every key the proxy carries and the logins the CLIs accept besides', () => {
    for (const [preset, env] of [
      ['claude', { ANTHROPIC_AUTH_TOKEN: 't' }],
      ['claude', { CLAUDE_CODE_OAUTH_TOKEN: 't' }],
      ['claude', { CLAUDE_CODE_USE_BEDROCK: '1' }],
      ['claude', { CLAUDE_CODE_USE_VERTEX: '1' }],
      ['codex', { OPENAI_API_KEY: 'k' }],
      ['gemini', { GOOGLE_API_KEY: 'k' }],
      ['gemini', { GOOGLE_GENAI_USE_VERTEXAI: 'true' }]
    ] as const) {
      expect([preset, env, missingModelKey(preset, env, undefined)]).toEqual([preset, env, null])
    }
  })

  it("counts a login saved in the user's HOME only for an agent that runs as the user", () => {
    const claude = homeWith('.claude/.credentials.json')
    expect(missingModelKey('claude', {}, claude)).toBeNull()
    expect(missingModelKey('claude', {}, undefined)).not.toBeNull()
    const moved = homeWith('elsewhere/.credentials.json')
    expect(missingModelKey('claude', {}, moved)).not.toBeNull()
    const env = { CLAUDE_CONFIG_DIR: join(moved, 'elsewhere') }
    expect(missingModelKey('claude', env, moved)).toBeNull()
    expect(missingModelKey('codex', {}, homeWith('.codex/auth.json'))).toBeNull()
    expect(missingModelKey('gemini', {}, homeWith('.gemini/oauth_creds.json'))).toBeNull()
  })
})
