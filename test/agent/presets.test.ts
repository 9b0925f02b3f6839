import { describe, expect, it } from '@jest/globals'
import { allowedNames, modelVariables, presetFor } from '../../src/agent/presets.js'

const opts = { maxTurns: 60, isRoot: false }

describe('presetFor', () => {
  it('runs claude in print mode with the JSON event stream, a turn limit and no prompts', () => {
    const p = presetFor(['claude'], opts)
    expect(p.name).toBe('claude')
    expect(p.argv).toEqual([
      'claude',
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--max-turns',
      '60',
      '--dangerously-skip-permissions'
    ])
    expect(p.env).toEqual({})
  })

  it('tells claude it is sandboxed only when running as root', () => {
    expect(presetFor(['claude'], { maxTurns: 1, isRoot: true }).env).toEqual({ IS_SANDBOX: '1' })
    expect(presetFor(['claude'], { maxTurns: 1, isRoot: false }).env).toEqual({})
  })

  it("keeps the user's claude flags and does not add them twice", () => {
    const p = presetFor(
      [
        '/opt/bin/claude',
        '--model',
        'opus',
        '--print',
        '--max-turns=5',
        '--permission-mode',
        'acceptEdits'
      ],
      opts
    )
    expect(p.name).toBe('claude')
    expect(p.argv).toEqual([
      '/opt/bin/claude',
      '--model',
      'opus',
      '--print',
      '--max-turns=5',
      '--permission-mode',
      'acceptEdits',
      '--output-format',
      'stream-json',
      '--verbose'
    ])
  })

  it('runs codex exec with JSON events and the prompt from stdin', () => {
    expect(presetFor(['codex'], opts).argv).toEqual([
      'codex',
      'exec',
      '--json',
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      '-'
    ])
    const own = presetFor(
      ['codex', 'exec', '-m', 'o3', '--sandbox', 'workspace-write', '--json'],
      opts
    )
    expect(own.name).toBe('codex')
    expect(own.argv).toEqual([
      'codex',
      'exec',
      '-m',
      'o3',
      '--sandbox',
      'workspace-write',
      '--json',
      '--skip-git-repo-check',
      '-'
    ])
  })

  it('does not take --full-auto, which codex 0.171 rejects, for a sandbox choice', () => {
    expect(presetFor(['codex', '--full-auto'], opts).argv).toContain(
      '--dangerously-bypass-approvals-and-sandbox'
    )
  })

  it('runs gemini headless with the stream-json output, tools allowed, in a trusted workspace', () => {
    const p = presetFor(['gemini'], opts)
    expect(p.argv).toEqual(['gemini', '--output-format', 'stream-json', '--yolo'])
    expect(p.env).toEqual({ GEMINI_CLI_TRUST_WORKSPACE: 'true' })
    expect(
      presetFor(['gemini', '-m', 'gemini-2.5-pro', '-y', '-o', 'stream-json'], opts).argv
    ).toEqual(['gemini', '-m', 'gemini-2.5-pro', '-y', '-o', 'stream-json'])
  })

  it('runs any other command exactly as given, as plain text', () => {
    const argv = ['./scripts/agent.sh', '--flag', 'claude']
    const p = presetFor(argv, opts)
    expect(p.name).toBe('generic')
    expect(p.argv).toEqual(argv)
    expect(presetFor(['claude-wrapper'], opts).name).toBe('generic')
    expect(presetFor(['npx', 'claude'], opts).name).toBe('generic')
  })

  it('gives every run its own parser', () => {
    expect(presetFor(['claude'], opts).parser).not.toBe(presetFor(['claude'], opts).parser)
  })
})

describe('allowedNames', () => {
  it("adds the profile's names to its preset's model variables, each once", () => {
    expect(allowedNames(['NPM_TOKEN', 'ANTHROPIC_API_KEY', 'NPM_TOKEN'], 'claude')).toEqual([
      ...modelVariables('claude'),
      'NPM_TOKEN'
    ])
    expect(modelVariables('claude')).toContain('CLAUDE_CODE_OAUTH_TOKEN')
    expect(allowedNames([], 'codex')).toEqual([
      'CODEX_API_KEY',
      'OPENAI_API_KEY',
      'OPENAI_BASE_URL',
      'CODEX_HOME'
    ])
    expect(allowedNames([], 'gemini')).toContain('GEMINI_API_KEY')
    expect(allowedNames(['MY_KEY'], 'generic')).toEqual(['MY_KEY'])
  })
})

describe('the budget a preset passes on', () => {
  it('gives claude the rest of the budget as --max-budget-usd, unless the user set one', () => {
    const o = { maxTurns: 5, isRoot: false, maxBudgetUsd: 0.123456 }
    expect(presetFor(['claude'], o).argv).toContain('--max-budget-usd')
    expect(presetFor(['claude'], o).argv.slice(-3, -1)).toEqual(['--max-budget-usd', '0.1235'])
    const own = presetFor(['claude', '--max-budget-usd=1'], o).argv
    expect(own.filter((a) => a.startsWith('--max-budget-usd'))).toEqual(['--max-budget-usd=1'])
    // Codex and Gemini CLI have no such flag: their spend is priced afterwards.
    expect(presetFor(['codex'], o).argv.join(' ')).not.toContain('budget')
  })
})
