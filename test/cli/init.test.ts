import { describe, expect, it } from '@jest/globals'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { AGENT_CLI_VERSIONS } from '../../src/agent/cli-versions.js'
import { parse } from 'yaml'
import { profileFiles } from '../e2e/pipeline-fixture.js'
import { cliFromSource, git, repoWith, ROOT } from './helpers.js'
import { cliInProcess as cli } from './in-process.js'

const WORKFLOW = '.github/workflows/itervox.yml'

const PLACED = [
  'WORKFLOW.md',
  '.itervox/agents/researcher/SOUL.md',
  '.itervox/agents/researcher/INSTRUCTIONS.md',
  '.itervox/agents/implementer/SOUL.md',
  '.itervox/agents/implementer/INSTRUCTIONS.md',
  '.itervox/agents/reviewer/SOUL.md',
  '.itervox/agents/reviewer/INSTRUCTIONS.md'
]

function ignored(repo: string, path: string): boolean {
  try {
    git(repo, 'check-ignore', '--no-index', '--quiet', path)
    return true
  } catch {
    return false
  }
}

describe('itervox-handoff init', () => {
  it('patches a .gitignore that hides .itervox/, and a second run changes nothing', async () => {
    const repo = repoWith({ '.gitignore': 'node_modules/\n.itervox/\n' })
    // The bundled CLI, for real, on each exit path (0 here, 1 and 2 below); the rest run in-process.
    const first = await cliFromSource(repo, ['init'])
    expect(first.code).toBe(0)
    expect(first.stdout.split('\n').slice(0, 9)).toEqual([
      ...PLACED.map((p) => `created   ${p}`),
      `created   ${WORKFLOW}`,
      'patched   .gitignore'
    ])
    expect(readFileSync(join(repo, '.gitignore'), 'utf8')).toBe(
      'node_modules/\n.itervox/\n' +
        '# itervox-handoff: profiles, handoffs and local issues are committed; the rest of .itervox/ is not\n' +
        '!/.itervox/\n/.itervox/*\n!/.itervox/agents/\n!/.itervox/handoff/\n!/.itervox/issues/\n'
    )
    git(repo, 'add', '--all')
    git(repo, 'commit', '--quiet', '-m', 'init')
    expect(git(repo, 'ls-files', '.itervox').split('\n')).toEqual(PLACED.slice(1).sort())
    expect(ignored(repo, '.itervox/handoff/2026-05-26T14-30-45Z_researcher.md')).toBe(false)
    expect(ignored(repo, '.itervox/issues/ENG-1.md')).toBe(false)
    expect(ignored(repo, '.itervox/runs/ENG-1.json')).toBe(true)

    const second = await cli(repo, ['init'])
    expect(second.code).toBe(0)
    expect(second.stdout.split('\n').slice(0, 9)).toEqual([
      ...PLACED.map((p) => `kept      ${p}`),
      `kept      ${WORKFLOW}`,
      'unchanged .gitignore'
    ])
    expect(second.stderr).toBe('')
    expect(git(repo, 'status', '--porcelain')).toBe('')
    // The closing line names the one repository setting a first run needs.
    expect(second.stdout.split('\n\n').at(-1)).toBe(
      'Next: commit these files, add the secret ANTHROPIC_API_KEY to the repository, tick "Allow GitHub Actions to create and approve pull requests" in\n' +
        'Settings → Actions → General → Workflow permissions (else a stage opens no pull request),\n' +
        'and label an issue "Todo".\n'
    )
  })

  it('writes a GitHub workflow for the states of WORKFLOW.md, and one for Linear', async () => {
    const repo = repoWith({})
    expect((await cli(repo, ['init'])).stdout).toContain('created   .gitignore')
    const yml = () => readFileSync(join(repo, WORKFLOW), 'utf8')
    expect(yml()).toContain(
      `contains(fromJSON('["Todo","Implementing","Reviewing"]'), github.event.label.name)`
    )
    const { pkg, version } = AGENT_CLI_VERSIONS.claude
    expect(yml()).toContain(`run: npm install -g ${pkg}@${version}\n`)
    expect(yml()).toContain('ANTHROPIC_API_KEY: ${{ secrets.ANTHROPIC_API_KEY }}')
    expect(yml()).toContain('timeout-minutes: 75')
    // docs/operations.md shows this very file (without its header comment) as the workflow.
    const page = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8')
    const shown = /```yaml\n(name: itervox\n[\s\S]*?)```/.exec(page)?.[1]
    expect(shown).toBe(yml().slice(yml().indexOf('name: itervox\n')))
    // The workflow suite (test/workflows/workflows.test.ts) lints what init writes for these
    // three WORKFLOW.md files, in its one actionlint run.

    // A state whose name holds a quote, and a kept workflow that no longer matches.
    const edited = readFileSync(join(repo, 'WORKFLOW.md'), 'utf8').replace(
      /"Todo"/g,
      `"Won't wait"`
    )
    writeFileSync(join(repo, 'WORKFLOW.md'), edited)
    const kept = await cli(repo, ['init'])
    expect(kept.stdout).toContain(`kept      ${WORKFLOW}`)
    expect(kept.stderr).toBe(
      `note: ${WORKFLOW} differs from what WORKFLOW.md calls for; run itervox-handoff init --workflow-only to rewrite it\n`
    )
    expect(readFileSync(join(repo, 'WORKFLOW.md'), 'utf8')).toBe(edited)
    // The next step names the start state WORKFLOW.md has now.
    expect(kept.stdout).toContain(`and label an issue "Won't wait".\n`)
    const soul = join(repo, '.itervox/agents/reviewer/SOUL.md')
    writeFileSync(soul, '# my reviewer\n')
    const again = await cli(repo, ['init', '--workflow-only'])
    expect(again).toEqual({
      code: 0,
      stdout: `rewritten ${WORKFLOW}\n\nNext: commit ${WORKFLOW}.\n`,
      stderr: ''
    })
    expect(readFileSync(soul, 'utf8')).toBe('# my reviewer\n')
    expect(readFileSync(join(repo, 'WORKFLOW.md'), 'utf8')).toBe(edited)
    expect((await cli(repo, ['init', '--workflow-only'])).stdout).toBe(`unchanged ${WORKFLOW}\n`)
    expect(yml()).toContain(`contains(fromJSON('["Won''t wait","Implementing","Reviewing"]')`)

    // Linear sends no events: the schedule starts its stages, and both jobs get the key.
    const lin = repoWith({
      'WORKFLOW.md': readFileSync(join(ROOT, 'test/fixtures/workflows/seed/WORKFLOW.md'), 'utf8'),
      ...profileFiles()
    })
    expect(await cli(lin, ['init', '--workflow-only'])).toMatchObject({ code: 0 })
    const linear = parse(readFileSync(join(lin, WORKFLOW), 'utf8')) as {
      on: Record<string, unknown>
      jobs: Record<string, { if: string; steps: { uses?: string; with?: object; env?: object }[] }>
    }
    expect(Object.keys(linear.on).sort()).toEqual([
      'repository_dispatch',
      'schedule',
      'workflow_dispatch'
    ])
    expect(linear.on.schedule).toEqual([{ cron: '*/15 * * * *' }])
    expect(linear.jobs.reconcile?.if).toBe("github.event_name == 'schedule'")
    for (const job of ['stage', 'reconcile']) {
      const step = linear.jobs[job]!.steps.find((s) => s.uses?.startsWith('itervox/handoff-action'))
      expect(step?.env).toMatchObject({ LINEAR_API_KEY: '${{ secrets.LINEAR_API_KEY }}' })
    }
    expect(linear.jobs.reconcile!.steps.find((s) => s.with)?.with).toMatchObject({
      mode: 'reconcile'
    })
  })

  it('init --workflow-only keeps pinned actions, and shows a hand edit it would undo before --force', async () => {
    const repo = repoWith({})
    await cli(repo, ['init'])
    const path = join(repo, WORKFLOW)
    const checkout = 'actions/checkout@0123456789abcdef0123456789abcdef01234567 # v6'
    const action = 'itervox/handoff-action@89abcdef0123456789abcdef0123456789abcdef # v1'
    const pin = (text: string) =>
      text.replace('actions/checkout@v6', checkout).replaceAll('itervox/handoff-action@v1', action)
    writeFileSync(path, pin(readFileSync(path, 'utf8')))
    const states = (from: string, to: string) => {
      const md = join(repo, 'WORKFLOW.md')
      writeFileSync(md, readFileSync(md, 'utf8').replaceAll(from, to))
    }
    states('"Todo"', '"Ready"')
    const rewritten = await cli(repo, ['init', '--workflow-only'])
    expect([rewritten.code, rewritten.stderr]).toEqual([0, ''])
    expect(readFileSync(path, 'utf8')).toContain(`contains(fromJSON('["Ready",`)
    expect(readFileSync(path, 'utf8').match(/uses: .*/g)).toEqual([
      `uses: ${checkout}`,
      `uses: ${action}`,
      `uses: ${action}`
    ])

    // Any other edit is the user's: shown, kept, and undone only with --force.
    const edited = readFileSync(path, 'utf8').replace('timeout-minutes: 10', 'timeout-minutes: 20')
    writeFileSync(path, edited)
    states('"Ready"', '"Queued"')
    const refused = await cli(repo, ['init', '--workflow-only'])
    expect(refused.code).toBe(1)
    expect(readFileSync(path, 'utf8')).toBe(edited)
    const lines = refused.stderr.trimEnd().split('\n')
    expect(lines[0]).toBe(`${WORKFLOW} was edited since init wrote it; rewriting it would change:`)
    expect(lines.slice(1, -1).map((l) => l.replace(/^ {2}([-+])\d+: /, '$1'))).toEqual([
      expect.stringMatching(/^-# itervox-handoff init fingerprint: /),
      expect.stringMatching(/^\+# itervox-handoff init fingerprint: /),
      expect.stringMatching(/^-.*"Ready"/),
      expect.stringMatching(/^\+.*"Queued"/),
      expect.stringMatching(/^-.*"Ready"/),
      expect.stringMatching(/^\+.*"Queued"/),
      '-    timeout-minutes: 20',
      '+    timeout-minutes: 10'
    ])
    expect(lines.at(-1)).toBe(
      `${WORKFLOW} was edited by hand, so it is kept; make the changes above yourself, or run itervox-handoff init --workflow-only --force to rewrite it (the actions' refs are kept)`
    )
    expect((await cli(repo, ['init', '--workflow-only', '--force'])).code).toBe(0)
    const forced = readFileSync(path, 'utf8')
    expect(forced).toContain('timeout-minutes: 10')
    expect(forced).toContain(`uses: ${checkout}`)
    expect((await cli(repo, ['init', '--workflow-only'])).stdout).toBe(`unchanged ${WORKFLOW}\n`)
  })

  it('sets up the local tracker without a GitHub workflow, and what it writes validates', async () => {
    const repo = repoWith({ 'README.md': '# app\n' })
    const r = await cli(repo, ['init', '--tracker', 'local'])
    expect(r.code).toBe(0)
    expect(existsSync(join(repo, WORKFLOW))).toBe(false)
    expect(r.stdout).toContain('run --issue <ID> --until-idle')
    const valid = await cli(repo, ['validate'])
    expect(valid.stdout).toBe(
      'WORKFLOW.md is valid: 3 profiles (researcher, implementer, reviewer), 3 automations\n' +
        '  Todo → researcher → Implementing\n' +
        '  Implementing → implementer → Reviewing\n' +
        '  Reviewing → reviewer → Done\n'
    )
    for (const p of ['researcher', 'implementer', 'reviewer']) {
      const text = readFileSync(join(repo, `.itervox/agents/${p}/INSTRUCTIONS.md`), 'utf8')
      expect(text).toMatch(/\n## Handoff Protocol\n(- .*\n| {2}.*\n)+$/)
      expect(text).toContain('`{{ run.handoff_path }}`')
      expect(text).toContain('a line holding only `<!-- itervox:needs-input -->`')
    }
  })

  it('keeps edited files unless --force', async () => {
    const repo = repoWith({})
    await cli(repo, ['init'])
    const soul = join(repo, '.itervox/agents/reviewer/SOUL.md')
    const workflow = join(repo, 'WORKFLOW.md')
    const original = readFileSync(workflow, 'utf8')
    writeFileSync(soul, '# my reviewer\n')
    writeFileSync(workflow, original.replace('max_retries: 2', 'max_retries: 1'))
    await cli(repo, ['init'])
    expect(readFileSync(soul, 'utf8')).toBe('# my reviewer\n')
    expect(readFileSync(workflow, 'utf8')).toContain('max_retries: 1')
    const forced = await cli(repo, ['init', '--force'])
    expect(forced.stdout).toContain('rewritten WORKFLOW.md')
    expect(readFileSync(soul, 'utf8')).toMatch(/^# reviewer\n\n## Who you are\n/)
    expect(readFileSync(workflow, 'utf8')).toBe(original)
  })

  it("writes a profile's missing SOUL.md and INSTRUCTIONS.md to start from, keeping the rest", async () => {
    const repo = repoWith({})
    await cli(repo, ['init', '--tracker', 'local'])
    const workflow = join(repo, 'WORKFLOW.md')
    const designer = [
      '    designer:',
      '      soul_file: .itervox/agents/designer/SOUL.md',
      '      instructions_file: .itervox/agents/designer/INSTRUCTIONS.md',
      '    reviewer:'
    ].join('\n')
    writeFileSync(workflow, readFileSync(workflow, 'utf8').replace('    reviewer:', designer))
    writeFileSync(join(repo, '.itervox/agents/reviewer/SOUL.md'), '# my reviewer\n')
    rmSync(join(repo, '.itervox/agents/reviewer/INSTRUCTIONS.md'))
    const r = await cli(repo, ['init', '--tracker', 'local'])
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(r.stdout).toContain(
      [
        'created   .itervox/agents/reviewer/INSTRUCTIONS.md',
        'created   .itervox/agents/designer/SOUL.md',
        'created   .itervox/agents/designer/INSTRUCTIONS.md',
        ''
      ].join('\n')
    )
    expect(r.stdout.match(/designer/g)).toHaveLength(2)
    const at = (p: string) => readFileSync(join(repo, '.itervox/agents', p), 'utf8')
    expect(at('reviewer/SOUL.md')).toBe('# my reviewer\n')
    expect(at('designer/SOUL.md')).toMatch(/^# designer\n\n## Who you are\n/)
    expect(at('designer/INSTRUCTIONS.md')).toMatch(/^# designer instructions\n/)
    expect(at('designer/INSTRUCTIONS.md')).toMatch(/\n## Handoff Protocol\n(- .*\n| {2}.*\n)+$/)
    expect((await cli(repo, ['validate'])).stdout).toMatch(/^WORKFLOW\.md is valid: 4 profiles/)
  })

  it('names the rule that still hides the profiles when no line of its own can', async () => {
    const repo = repoWith({})
    mkdirSync(join(repo, '.itervox'), { recursive: true })
    writeFileSync(join(repo, '.itervox/.gitignore'), 'agents/\n')
    const r = await cliFromSource(repo, ['init'])
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      '.itervox/.gitignore:1: the rule "agents/" still ignores .itervox/agents/researcher/SOUL.md; remove that rule, or re-include the path after it\n'
    )
    const bad = await cliFromSource(repo, ['init', '--tracker', 'jira'])
    expect([bad.code, bad.stderr.split('\n').slice(1)]).toEqual([
      2,
      ['init: --tracker must be github or local, not "jira"', '']
    ])
  })

  it('exits 0 having written everything, and warns when a rule would leave WORKFLOW.md out of a commit', async () => {
    const repo = repoWith({
      '.gitignore': 'node_modules/\n/*.md\n!README.md\n',
      'README.md': '# app\n'
    })
    const r = await cli(repo, ['init'])
    expect(r.code).toBe(0)
    expect(r.stderr).toBe(
      '.gitignore:2: warning: the rule "/*.md" ignores WORKFLOW.md, so git add leaves it out; remove the rule, or add "!/WORKFLOW.md" after it\n'
    )
    for (const p of [...PLACED, WORKFLOW]) expect(existsSync(join(repo, p))).toBe(true)
    // Once committed, a file is tracked whatever the rules say.
    git(repo, 'add', '--force', 'WORKFLOW.md')
    expect((await cli(repo, ['init'])).stderr).toBe('')
  })

  it('finds the repository root from a subfolder, and --workflow-only needs a github WORKFLOW.md', async () => {
    const repo = repoWith({ 'src/app.js': '' })
    const r = await cli(join(repo, 'src'), ['init', '--tracker', 'local'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('(title, state: Todo)')
    expect(existsSync(join(repo, 'WORKFLOW.md'))).toBe(true)
    const only = await cli(join(repo, 'src'), ['init', '--workflow-only'])
    expect(only).toMatchObject({
      code: 1,
      stderr:
        'WORKFLOW.md: WORKFLOW.md uses the local tracker, which runs no GitHub workflow; --workflow-only is for tracker.kind: github or linear\n'
    })
    expect(existsSync(join(repo, WORKFLOW))).toBe(false)
    const both = await cli(repo, ['init', '--workflow-only', '--tracker', 'github'])
    expect(both.code).toBe(2)
    const none = await cli(repoWith({}), ['init', '--workflow-only'])
    expect(none.code).toBe(1)
    expect(none.stderr).toMatch(
      /^no WORKFLOW\.md at the repository root \S+; run itervox-handoff init first\n$/
    )
  })
})
