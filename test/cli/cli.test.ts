import { beforeAll, describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { git, ROOT } from '../harness/action-run.js'
import { installFakeAgents } from '../agent/fake-agents.js'
import { cliInProcess } from './in-process.js'

const CLI = join(ROOT, 'dist', 'cli', 'index.js')
const SEED = join(ROOT, 'test', 'fixtures', 'workflows', 'seed')

interface Run {
  code: number
  stdout: string
  stderr: string
}

/** Runs the bundled CLI, as `npx itervox-handoff` would. */
function cli(cwd: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env } },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0
        resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr })
      }
    )
  })
}

function seedRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cli-'))
  cpSync(SEED, dir, { recursive: true })
  git(dir, 'init', '--quiet', '--initial-branch=main')
  mkdirSync(join(dir, '.itervox/issues'), { recursive: true })
  mkdirSync(join(dir, '.itervox/handoff'), { recursive: true })
  writeFileSync(
    join(dir, '.itervox/issues/ENG-42.md'),
    '---\ntitle: Add CSV export\nstate: Researching\n---\n\nUsers want CSV.\u200b\n'
  )
  // An earlier issue's trail, merged to main with its pull request: never this issue's.
  writeFileSync(
    join(dir, '.itervox/handoff/2026-05-01T09-00-00Z_researcher.md'),
    '# Research for an earlier issue\n'
  )
  git(dir, 'add', '-A')
  git(dir, 'commit', '--quiet', '-m', 'seed')
  git(dir, 'checkout', '--quiet', '-b', 'itervox/ENG-42')
  writeFileSync(
    join(dir, '.itervox/handoff/2026-05-26T14-30-45Z_researcher.md'),
    '# Research\n\nUse csv-stringify.\n'
  )
  writeFileSync(
    join(dir, '.itervox/handoff/2026-05-26T14-31-00.000Z_reviewer.partial.md'),
    'half\n'
  )
  git(dir, 'add', '-A')
  git(dir, 'commit', '--quiet', '-m', 'stages')
  return dir
}

const KEY = { LINEAR_API_KEY: 'lin_test' }

describe('itervox-handoff CLI (dist)', () => {
  let repo: string
  beforeAll(() => {
    repo = seedRepo()
  })

  it('validates the seed example, warning about daemon-only keys', async () => {
    // With its agent CLI installed: validate warns about a command it cannot find.
    const r = await cli(repo, ['validate'], {
      ...KEY,
      PATH: `${installFakeAgents()}:${process.env.PATH}`
    })
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(
      'WORKFLOW.md is valid: 3 profiles (researcher, implementer, reviewer), 3 automations\n' +
        '  Todo → researcher → Researching\n' +
        '  Researching → implementer → Implementing\n' +
        '  Implementing → reviewer → Reviewing\n'
    )
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(3)
    expect(r.stderr).toContain(
      'WORKFLOW.md:12:3: warning: workspace.root: used only by the itervox daemon'
    )
  })

  it('reports a mistake as one file:line:col line and exits 1, without a stack trace', async () => {
    const r = await cli(repo, ['validate'])
    expect(r.code).toBe(1)
    const errors = r.stderr.split('\n').filter((l) => l && !l.includes('warning:'))
    expect(errors).toEqual([
      'WORKFLOW.md:5:12: tracker.api_key: environment variable LINEAR_API_KEY is not set or is empty; set it, or write $$ for a literal $'
    ])
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  it('prints the exact prompt a stage would get from the handoffs HEAD added since main', async () => {
    const r = await cli(
      repo,
      [
        'prompt',
        '--profile',
        'implementer',
        '--issue',
        'ENG-42',
        '--timestamp',
        '2026-05-26T14-58-12.000Z'
      ],
      KEY
    )
    expect(r.code).toBe(0)
    const ts = '2026-05-26T14-58-12.000Z'
    expect(r.stdout).toBe(
      [
        'Implement issue ENG-42: Add CSV export.',
        'Users want CSV.',
        [
          '## Prior Agent Handoffs',
          '',
          "Listed in chronological order (oldest first). Each file is one prior agent's deliverable on this issue's branch.",
          '',
          '### 2026-05-26T14-30-45Z_researcher.md',
          '',
          '# Research',
          '',
          'Use csv-stringify.',
          '',
          '### 2026-05-26T14-31-00.000Z_reviewer.partial.md (partial — prior agent exited before completing this deliverable)',
          '',
          'half'
        ].join('\n'),
        [
          '## Run Context',
          '',
          `- run.timestamp: \`${ts}\``,
          `- run.handoff_path: \`.itervox/handoff/${ts}_implementer.md\``,
          '',
          'Write your deliverable Markdown to `run.handoff_path` before exiting.',
          'It will be visible to every subsequent agent on this branch as a prior handoff.'
        ].join('\n'),
        '# implementer SOUL\n\nYou are a pragmatic engineer who makes the smallest change that fully solves the problem.',
        [
          '# implementer INSTRUCTIONS',
          '',
          "- Build on the researcher's handoff instead of exploring again.",
          '- Add or update tests with the change and run them.',
          `- Summarise files changed, commands run and open risks in \`.itervox/handoff/${ts}_implementer.md\`.`
        ].join('\n')
      ].join('\n\n') + '\n'
    )
    expect(r.stderr).toContain("warning: the issue's text: removed 1 invisible character")
  })

  it('suggests the profile meant', async () => {
    // A command's own messages are read in-process; each exit status has its bundled runs here.
    const r = await cliInProcess(repo, ['prompt', '--profile', 'implementr'], KEY)
    expect(r.code).toBe(1)
    expect(r.stderr.trim().split('\n').pop()).toBe(
      '--profile: WORKFLOW.md has no profile named "implementr"; did you mean "implementer"?'
    )
  })

  it('refuses a malformed timestamp and a path-like issue id', async () => {
    const ts = await cliInProcess(
      repo,
      ['prompt', '--profile', 'researcher', '--timestamp', '2026-05-26 14:58'],
      KEY
    )
    // A bad option value is a usage mistake.
    expect(ts.code).toBe(2)
    expect(ts.stderr).toContain(
      '--timestamp "2026-05-26 14:58" is not of the form YYYY-MM-DDTHH-MM-SS.mmmZ'
    )
    const id = await cliInProcess(
      repo,
      ['prompt', '--profile', 'researcher', '--issue', '../../etc/passwd'],
      KEY
    )
    expect(id.code).toBe(1)
    expect(id.stderr.trim().split('\n').pop()).toBe(
      'issue "../../etc/passwd" is not a local issue identifier; use the form PREFIX-N, e.g. DEMO-1'
    )
  })

  it('outside a git repository says where to run it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-nogit-'))
    cpSync(SEED, dir, { recursive: true })
    const r = await cliInProcess(dir, ['prompt', '--profile', 'researcher'], KEY)
    expect(r.code).toBe(1)
    expect(r.stderr.trim()).toBe(
      `${dir} is not inside a git repository; run this in your project's checkout`
    )
  })

  it('has --help for every command and rejects unknown ones', async () => {
    for (const command of ['validate', 'prompt']) {
      const r = await cliInProcess(repo, [command, '--help'])
      expect(r.code).toBe(0)
      expect(r.stdout).toMatch(new RegExp(`^Usage: itervox-handoff ${command}`))
    }
    const top = await cliInProcess(repo, ['--help'])
    expect(top.stdout).toContain('validate')
    // A usage mistake: the usage (for a command's), then one line saying what to change; exit 2.
    const last = (stderr: string) => stderr.trimEnd().split('\n').at(-1)
    const bad = await cli(repo, ['frobnicate'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe(
      'unknown command "frobnicate"; the commands are init, labels, validate, prompt, run, reconcile, demo\n'
    )
    const flag = await cliInProcess(repo, ['validate', '--wokflow', 'x'])
    expect(flag.code).toBe(2)
    expect(flag.stderr).toBe(
      'Usage: itervox-handoff validate [--workflow FILE] [--json]\nvalidate: unknown option --wokflow; did you mean --workflow?\n'
    )
    const far = await cliInProcess(repo, ['run', '--frobnicate'])
    expect(last(far.stderr)).toBe('run: unknown option --frobnicate; see itervox-handoff help run')
  })
})
