import { describe, expect, it } from '@jest/globals'
import { execFile, execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { cli, git, ROOT, type Run } from './helpers.js'
import { cliInProcess } from './in-process.js'

const README_COMMANDS = ['npx itervox-handoff demo', 'npm ci && npm test']

/** The commands of the README's first code block. */
function readmeCommands(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const block = /```sh\n([\s\S]*?)```/.exec(readme)
  return (block?.[1] ?? '').split('\n').filter(Boolean)
}

/**
 * What a clone of this repository holds once the working tree is committed: every file git
 * tracks or would add, nothing it ignores (no node_modules).
 */
function cleanClone(): string {
  const dir = mkdtempSync(join(tmpdir(), 'handoff-clone-'))
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: ROOT,
      encoding: 'utf8'
    }
  )
  for (const file of new Set(files.split('\0').filter(Boolean))) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    try {
      copyFileSync(join(ROOT, file), join(dir, file))
    } catch (err) {
      // A tracked file deleted in the working tree is not in the clone either.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    }
  }
  git(dir, 'init', '--quiet', '--initial-branch=main')
  git(dir, 'add', '--all')
  git(dir, 'commit', '--quiet', '-m', 'clone')
  return dir
}

function shell(cwd: string, command: string): Promise<Run> {
  const env = { ...process.env }
  // Jest's own switches are not part of a fresh shell.
  delete env.NODE_OPTIONS
  // The README's demo installs nothing: npx runs the clone's own bin, the committed bundle.
  // Offline, npx fails rather than fetch a package, so this holds it to that.
  env.npm_config_offline = 'true'
  return new Promise((done) => {
    execFile(
      'bash',
      ['-c', command],
      { cwd, env, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (err as { code?: unknown }).code : 0
        done({ code: typeof code === 'number' ? code : 1, stdout, stderr })
      }
    )
  })
}

interface Trail {
  repository: string
  state: string
  branch: string
  stages: {
    profile: string
    attempt: number
    outcome: string
    handoffPath: string | null
    deliverable: string | null
    summary: string
  }[]
  comments: { author: string; body: string }[]
  commits: string[]
  diagram: string
}

describe('itervox-handoff demo', () => {
  it('runs from a clean clone exactly as the README says', async () => {
    expect(readmeCommands()).toEqual(README_COMMANDS)
    const clone = cleanClone()
    try {
      const r = await shell(clone, README_COMMANDS[0]!)
      expect(r.code).toBe(0)
      const out = r.stdout
      expect(out).toContain('issue       DEMO-1 "Add a slugify helper", in "Todo"')
      expect(out).toMatch(/✓ researcher in "Todo" · succeeded · \d+\.\ds · moved to "Implementing"/)
      expect(out).toMatch(
        /✓ implementer in "Implementing" · succeeded · \d+\.\ds · moved to "Reviewing"/
      )
      expect(out).toMatch(/✓ reviewer in "Reviewing" · succeeded · \d+\.\ds · moved to "Done"/)
      expect(out).toContain('     │ verdict: PASS')
      expect(out).toContain(
        'DEMO-1 is in "Done": "Done" starts no automation: the pipeline is done.'
      )
      expect(out).toContain('flowchart LR')
      const kept = /Look around: cd (\S+) && git log --stat itervox\/DEMO-1/.exec(out)?.[1]
      expect(kept).toBeDefined()
      expect(git(kept!, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('itervox/DEMO-1')
      rmSync(kept!, { recursive: true, force: true })
    } finally {
      rmSync(clone, { recursive: true, force: true })
    }
  }, 600_000)

  it("shows each stage's phases as headings: deciding, preparing, running, publishing", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'cli-demo-')), 'repo')
    const r = await cliInProcess(ROOT, ['demo', '--dir', dir])
    expect(r.code).toBe(0)
    const researcher = r.stdout.slice(r.stdout.indexOf('── Deciding'))
    expect(researcher).toMatch(
      /^── Deciding\n── Preparing itervox\/DEMO-1\nresearcher in "Todo": running\n── Running researcher\n── Publishing\n✓ researcher in "Todo"/
    )
    expect(r.stdout).toContain('── Running implementer\n')
    expect(r.stdout).toContain('── Running reviewer\n')
    rmSync(dirname(dir), { recursive: true, force: true })
  }, 120_000)

  it('shows the partial a crashed stage leaves and the retry that recovers from it', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'cli-demo-')), 'repo')
    // In-process: the README's run above is the bundle's; its agent still runs through the bundle.
    const r = await cliInProcess(ROOT, ['demo', '--fail-at', 'implementer', '--json', '--dir', dir])
    expect(r.code).toBe(0)
    const trail = JSON.parse(r.stdout) as Trail
    expect(trail.repository).toBe(dir)
    expect(trail.stages.map((s) => [s.profile, s.attempt, s.outcome])).toEqual([
      ['researcher', 0, 'succeeded'],
      ['implementer', 0, 'failed'],
      ['implementer', 1, 'succeeded'],
      ['reviewer', 0, 'succeeded']
    ])
    const [, crashed, recovered, review] = trail.stages
    expect(crashed!.handoffPath).toMatch(
      /^\.itervox\/handoff\/[0-9T.Z-]+_implementer\.partial\.md$/
    )
    expect(crashed!.deliverable).toBe(
      '# implementer: work in progress\n\n- [x] read the prior handoffs\n- [ ] finish the implementer deliverable\n'
    )
    expect(crashed!.summary).toBe('retry next (attempt 2)')
    const partialName = crashed!.handoffPath!.split('/').pop()
    expect(recovered!.deliverable).toContain(
      `- Picked up from \`${partialName}\`, which an earlier run left unfinished.`
    )
    expect(review!.deliverable).toMatch(/^---\nverdict: PASS\n/)
    expect(trail.state).toBe('Done')
    expect(trail.branch).toBe('itervox/DEMO-1')
    expect(trail.commits).toHaveLength(5)
    expect(trail.comments).toEqual([
      expect.objectContaining({
        author: 'reviewer (agent)',
        body: 'Reviewed the change; no critical or important findings.'
      })
    ])
    expect(trail.diagram).toMatch(/^flowchart LR\n/)
    expect(readFileSync(join(dir, 'src/slugify.js'), 'utf8')).toContain(
      'export function slugify(text)'
    )
  })

  it('reports every mistake in its options as one line', async () => {
    const full = mkdtempSync(join(tmpdir(), 'cli-demo-'))
    writeFileSync(join(full, 'x'), '')
    const usage =
      'Usage: itervox-handoff demo [--fail-at PROFILE] [--agent claude|codex|gemini] [--dir DIR] [--json]\n'
    // A usage mistake exits 2 with the usage first; a machine that cannot run it exits 1.
    const cases: [string[], number, string][] = [
      [
        ['demo', '--fail-at', 'tester'],
        2,
        usage + 'demo: --fail-at takes one of researcher, implementer, reviewer, not "tester"'
      ],
      [
        ['demo', '--agent', 'cursor'],
        2,
        usage + 'demo: --agent takes one of claude, codex, gemini, not "cursor"'
      ],
      [
        ['demo', '--agent', 'codex'],
        1,
        'demo: --agent codex: codex is not installed (not found on PATH)'
      ],
      [
        ['demo', '--agent', 'claude', '--fail-at', 'reviewer'],
        2,
        usage + 'demo: --fail-at works with the scripted agent only; leave out --agent'
      ],
      [['demo', '--dir', full], 1, `demo: --dir ${full} is not empty; give a new or empty folder`]
    ]
    for (const [i, [args, code, message]] of cases.entries()) {
      // One of each exit status through the bundle, the rest in-process.
      const r = await (i === 0 || i === 2 ? cli : cliInProcess)(full, args, {
        PATH: '/nonexistent'
      })
      expect([r.code, r.stderr]).toEqual([code, message + '\n'])
    }
  })
})
