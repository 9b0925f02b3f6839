// The CLI's conventions, run from source: --version, help, did-you-mean, usage errors on
// stderr with exit 2, --json on the read commands, and WORKFLOW.md found from a subfolder.
// One run per exit status goes through the bundle (--version, an unknown command, a bad
// WORKFLOW.md); the rest, top level (src/cli/main.ts) or a command's, is read in-process.
import { describe, expect, it } from '@jest/globals'
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliFromSource as cli, git, repoWith, ROOT } from './helpers.js'
import { cliInProcess } from './in-process.js'

const SEED = join(ROOT, 'test', 'fixtures', 'workflows', 'seed')
const KEY = { LINEAR_API_KEY: 'lin_test' }

function seedRepo(files: Record<string, string> = {}): string {
  const repo = repoWith(files)
  cpSync(SEED, repo, { recursive: true })
  return repo
}

const lines = (text: string) => text.trimEnd().split('\n')

describe('itervox-handoff conventions', () => {
  it('prints its version from package.json', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      version: string
    }
    for (const flag of ['--version', '-V']) {
      expect(await (flag === '--version' ? cli : cliInProcess)(ROOT, [flag])).toEqual({
        code: 0,
        stdout: `itervox-handoff ${version}\n`,
        stderr: ''
      })
    }
  })

  it('shows help on stdout with exit 0, for the CLI and for one command', async () => {
    const top = await cliInProcess(ROOT, ['--help'])
    expect(top.code).toBe(0)
    expect(top.stdout).toContain('\nCommands:\n  init ')
    expect(await cliInProcess(ROOT, ['help'])).toEqual(top)
    const run = await cliInProcess(ROOT, ['help', 'run'])
    expect(run).toEqual(await cliInProcess(ROOT, ['run', '--help']))
    expect(run.stdout.split('\n')[0]).toBe(
      'Usage: itervox-handoff run --issue ID [--until-idle] [--reply TEXT | --comment TEXT | --restart [--state STATE]] [--workflow FILE] [--json]'
    )
  })

  it('ends a usage mistake with one line saying what to change, after the usage if any, exit 2', async () => {
    const repo = seedRepo()
    // A name the CLI does not know: that one line alone, no help text before it.
    const unknown: [string[], string][] = [
      [['valdate'], 'unknown command "valdate"; did you mean validate?'],
      [['help', 'promt'], 'unknown command "promt"; did you mean prompt?'],
      [
        ['--jsn'],
        'unknown option --jsn before a command; the commands are init, labels, validate, prompt, run, reconcile, demo'
      ],
      [['--verison'], 'unknown option --verison before a command; did you mean --version (or -V)?'],
      [['-v'], 'unknown option -v before a command; did you mean --version (or -V)?'],
      [['version'], 'unknown command "version"; did you mean --version (or -V)?']
    ]
    for (const [i, [args, line]] of unknown.entries()) {
      // The first case through the bundle, the rest in-process.
      const r = await (i === 0 ? cli : cliInProcess)(repo, args, KEY)
      expect([args, r.code, r.stdout, r.stderr]).toEqual([args, 2, '', `${line}\n`])
    }
    const cases: [string[], string, string][] = [
      [
        [],
        'Exit status',
        'no command given; name one of the commands above, e.g. itervox-handoff validate'
      ],
      [
        ['validate', '--jsn'],
        'Usage: itervox-handoff validate [--workflow FILE] [--json]',
        'validate: unknown option --jsn; did you mean --json?'
      ],
      [
        ['run', '--isue', 'ENG-1'],
        'Usage: itervox-handoff run --issue ID',
        'run: unknown option --isue; did you mean --issue?'
      ],
      [
        ['validate', '--workflow'],
        'Usage: itervox-handoff validate',
        'validate: --workflow needs a value: --workflow FILE'
      ],
      [
        ['validate', '--json=yes'],
        'Usage: itervox-handoff validate',
        'validate: --json takes no value; write --json alone'
      ],
      [
        ['prompt', 'researcher'],
        'Usage: itervox-handoff prompt',
        'prompt: unexpected argument "researcher"; prompt takes options only (see itervox-handoff help prompt)'
      ],
      [
        ['prompt'],
        'Usage: itervox-handoff prompt',
        'prompt: --profile NAME is required, e.g. --profile researcher'
      ],
      [
        ['init', '--tracker', 'jira'],
        'Usage: itervox-handoff init',
        'init: --tracker must be github or local, not "jira"'
      ]
    ]
    for (const [args, usage, last] of cases) {
      const r = await cliInProcess(repo, args, KEY)
      expect([args, r.code, r.stdout]).toEqual([args, 2, ''])
      expect(r.stderr).toContain(usage)
      expect(lines(r.stderr).at(-1)).toBe(last)
      expect(r.stderr).not.toMatch(/\n\s+at /)
    }
  })

  it('keeps exit 1 for a mistake in a file, one line at file:line:col', async () => {
    const repo = seedRepo()
    const text = readFileSync(join(repo, 'WORKFLOW.md'), 'utf8')
    writeFileSync(join(repo, 'WORKFLOW.md'), text.replace('tracker:', 'trackr:'))
    const r = await cli(repo, ['validate'], KEY)
    expect(r.code).toBe(1)
    expect(lines(r.stderr).at(-1)).toMatch(
      /^WORKFLOW\.md:\d+:1: unknown key "trackr"; did you mean "tracker"\?$/
    )
  })

  it('validate --json: every problem as data, exit 1 when there are errors', async () => {
    const repo = seedRepo()
    const good = await cliInProcess(repo, ['validate', '--json'], KEY)
    expect(good.code).toBe(0)
    const ok = JSON.parse(good.stdout) as Record<string, unknown>
    expect(Object.keys(ok)).toEqual([
      'file',
      'valid',
      'errors',
      'warnings',
      'profiles',
      'automations'
    ])
    expect(ok).toMatchObject({
      file: 'WORKFLOW.md',
      valid: true,
      errors: [],
      profiles: ['researcher', 'implementer', 'reviewer'],
      automations: [{ states: ['Todo'], profile: 'researcher', moveToState: 'Researching' }, {}, {}]
    })
    expect(ok.warnings).toContainEqual({
      file: 'WORKFLOW.md',
      line: expect.any(Number),
      col: expect.any(Number),
      message: expect.stringContaining('used only by the itervox daemon')
    })

    const text = readFileSync(join(repo, 'WORKFLOW.md'), 'utf8')
    writeFileSync(join(repo, 'WORKFLOW.md'), text.replace('tracker:', 'trackr:'))
    const bad = await cliInProcess(repo, ['validate', '--json'], KEY)
    expect(bad.code).toBe(1)
    expect(bad.stderr).toBe('')
    expect(JSON.parse(bad.stdout)).toEqual({
      file: 'WORKFLOW.md',
      valid: false,
      errors: expect.arrayContaining([
        {
          file: 'WORKFLOW.md',
          line: expect.any(Number),
          col: 1,
          message: 'unknown key "trackr"; did you mean "tracker"?'
        }
      ]),
      warnings: [],
      profiles: [],
      automations: []
    })
    const missing = await cliInProcess(repo, ['validate', '--json', '--workflow', 'NOPE.md'], KEY)
    expect(missing.code).toBe(1)
    expect(JSON.parse(missing.stdout)).toMatchObject({
      valid: false,
      errors: [
        {
          file: null,
          line: null,
          col: null,
          message: 'NOPE.md not found; run itervox-handoff init, or pass --workflow FILE'
        }
      ]
    })
  })

  it('prompt --json: the prompt and what went into it', async () => {
    const repo = seedRepo({
      '.itervox/issues/ENG-7.md': '---\ntitle: Add CSV export\nstate: Researching\n---\nBody\n'
    })
    const r = await cliInProcess(
      repo,
      [
        'prompt',
        '--profile',
        'researcher',
        '--issue',
        'ENG-7',
        '--timestamp',
        '2026-05-26T14-30-45.000Z',
        '--json'
      ],
      KEY
    )
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as Record<string, unknown>
    expect(Object.keys(out)).toEqual([
      'profile',
      'issue',
      'state',
      'automation',
      'timestamp',
      'handoffPath',
      'priorHandoffs',
      'droppedHandoffs',
      'bytes',
      'notes',
      'warnings',
      'prompt'
    ])
    expect(out).toMatchObject({
      profile: 'researcher',
      issue: 'ENG-7',
      state: 'Researching',
      timestamp: '2026-05-26T14-30-45.000Z',
      handoffPath: '.itervox/handoff/2026-05-26T14-30-45.000Z_researcher.md',
      priorHandoffs: [],
      droppedHandoffs: 0,
      notes: [],
      warnings: []
    })
    const plain = await cliInProcess(
      repo,
      [
        'prompt',
        '--profile',
        'researcher',
        '--issue',
        'ENG-7',
        '--timestamp',
        '2026-05-26T14-30-45.000Z'
      ],
      KEY
    )
    expect(out.prompt).toBe(plain.stdout.replace(/\n$/, ''))
    expect(out.bytes).toBe(Buffer.byteLength(out.prompt as string))
  })

  it('finds WORKFLOW.md from a subfolder, and stops at the repository top level', async () => {
    const repo = seedRepo()
    mkdirSync(join(repo, 'src/deep'), { recursive: true })
    const r = await cliInProcess(join(repo, 'src/deep'), ['validate'], KEY)
    expect(r.code).toBe(0)
    expect(r.stdout.split('\n')[0]).toBe(
      '../../WORKFLOW.md is valid: 3 profiles (researcher, implementer, reviewer), 3 automations'
    )
    // A WORKFLOW.md above the repository is another project's.
    const outer = seedRepo()
    const inner = join(outer, 'vendor/lib')
    mkdirSync(inner, { recursive: true })
    repoInside(inner)
    const none = await cliInProcess(join(inner), ['validate'], KEY)
    expect(none).toEqual({
      code: 1,
      stdout: '',
      stderr: 'no WORKFLOW.md here; run itervox-handoff init, or pass --workflow FILE\n'
    })
    mkdirSync(join(inner, 'src'))
    const below = await cliInProcess(join(inner, 'src'), ['validate'], KEY)
    expect(below.stderr).toBe(
      `no WORKFLOW.md here or in a folder above, up to ${inner}; run itervox-handoff init, or pass --workflow FILE\n`
    )
  })
})

/** A git repository of its own at `dir`. */
function repoInside(dir: string): void {
  git(dir, 'init', '--quiet', '--initial-branch=main')
}
