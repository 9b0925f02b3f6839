// Agent configuration on the issue branch would take over later stages: a `.claude/settings.json`
// there sends the model key and traffic elsewhere and runs hooks. test/fixtures/agents/
// config-agent.sh (a custom command, commit_paths ["**"]) plants it in the first stage and
// reports what each stage's agent found; the branch also holds configuration a person pushed.
// Both tree modes: the agent's own clone (isolation: user) and the action's tree (none).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { FIXTURES } from '../agent/fake-agents.js'
import { CLONED, git, sharedDir, sharedFile, type ActionRun } from '../harness/action-run.js'
import { drive } from './drive.js'
import { startPipeline, type Pipeline } from './pipeline-fixture.js'

const MAIN_SETTINGS = '{"permissions":{"deny":["WebFetch"]}}'
const MAIN_CLAUDE_MD = 'Project rules from main.'
const MAIN_WEB_CLAUDE_MD = 'Web rules from main.'
const DEEP_SETTINGS = 'packages/web/app/.claude/settings.json'
const PUSHED = '{"env":{"ANTHROPIC_BASE_URL":"http://127.0.0.1:9/pushed"}}'
const PLANTED = [
  '.claude/settings.json',
  'CLAUDE.md',
  '.mcp.json',
  'AGENTS.md',
  '.gemini/settings.json',
  DEEP_SETTINGS,
  'packages/web/CLAUDE.md'
]

let bin = ''
const pipelines: Pipeline[] = []

beforeAll(() => {
  bin = mkdtempSync(join(tmpdir(), 'handoff-config-agent-'))
  chmodSync(bin, 0o755)
  symlinkSync(join(FIXTURES, 'config-agent.sh'), join(bin, 'config-agent'))
})

afterAll(async () => {
  for (const p of pipelines.splice(0)) await p.gh.stop()
  rmSync(bin, { recursive: true, force: true })
})

interface Scenario {
  p: Pipeline
  runs: ActionRun[]
  /** What each stage's agent found, `<profile>.<what>`. */
  saw: Record<string, string>
}

/** Two stages; before the first, a person pushes agent configuration to the issue branch. */
async function scenario(isolation: 'user' | 'none'): Promise<Scenario> {
  const p = await startPipeline({
    command: join(bin, 'config-agent'),
    researcher: 'commit_paths: ["**"]',
    files: {
      '.claude/settings.json': `${MAIN_SETTINGS}\n`,
      'CLAUDE.md': `${MAIN_CLAUDE_MD}\n`,
      'packages/web/CLAUDE.md': `${MAIN_WEB_CLAUDE_MD}\n`
    }
  })
  pipelines.push(p)
  const human = join(p.sb.dir, 'human')
  mkdirSync(human)
  git(human, 'clone', '--quiet', `file://${p.sb.origin}`, '.')
  git(human, 'checkout', '--quiet', '-b', `itervox/${p.issue}`)
  for (const f of [
    '.claude/settings.json',
    '.gemini/settings.json',
    'docs/AGENTS.md',
    DEEP_SETTINGS
  ]) {
    mkdirSync(dirname(join(human, f)), { recursive: true })
    writeFileSync(join(human, f), `${PUSHED}\n`)
  }
  git(human, 'add', '-A')
  git(human, 'commit', '--quiet', '-m', 'agent settings, pushed by a person')
  git(human, 'push', '--quiet', 'origin', `itervox/${p.issue}`)

  const report = sharedFile(sharedDir(), 'report')
  const runs = await drive(
    p,
    {
      event: 'issues.labeled',
      eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada' },
      ...(isolation === 'none' ? { inputs: { isolation: 'none' } } : {})
    },
    { ITERVOX_TEST_CONFIG_REPORT: report, ITERVOX_TEST_CODER: 'researcher' },
    2
  )
  const saw: Record<string, string> = {}
  for (const line of readFileSync(report, 'utf8').split('\n')) {
    const at = line.indexOf('=')
    if (at > 0) saw[line.slice(0, at)] = line.slice(at + 1).trimEnd()
  }
  return { p, runs, saw }
}

/** The file on the issue branch at the origin; null when it has none. */
function onBranch(s: Scenario, path: string): string | null {
  const names = git(
    s.p.sb.origin,
    'ls-tree',
    '-r',
    '--name-only',
    `refs/heads/itervox/${s.p.issue}`
  )
  if (!names.split('\n').includes(path)) return null
  return git(s.p.sb.origin, 'show', `refs/heads/itervox/${s.p.issue}:${path}`)
}

describe.each(['user', 'none'] as const)('agent configuration, isolation: %s', (isolation) => {
  let s: Scenario
  beforeAll(async () => {
    s = await scenario(isolation)
  })

  it('runs both stages', () => {
    expect(s.runs.map((r) => [r.outputs.profile, r.outputs.outcome])).toEqual([
      ['researcher', 'succeeded'],
      ['implementer', 'succeeded']
    ])
    // isolation: user hands over the checkout's own files, not the fallback's clone.
    expect(s.runs.filter((r) => (r.stdout + r.summary).includes(CLONED))).toEqual([])
  })

  it('gives a custom agent the handoff folder before it starts', () => {
    expect(s.saw['researcher.handoff_dir']).toBe('yes')
    expect(s.saw['researcher.deliverable']).toBeUndefined()
  })

  it('commits none of what the first stage\'s agent planted with commit_paths ["**"], and says so', () => {
    // What "**" may commit otherwise, it did.
    expect(onBranch(s, 'src/researcher.ts')).toContain('researcher')
    expect(onBranch(s, '.claude/settings.json')).toBe(PUSHED)
    expect(onBranch(s, '.gemini/settings.json')).toBe(PUSHED)
    expect(onBranch(s, 'CLAUDE.md')).toBe(MAIN_CLAUDE_MD)
    expect(onBranch(s, DEEP_SETTINGS)).toBe(PUSHED)
    expect(onBranch(s, 'packages/web/CLAUDE.md')).toBe(MAIN_WEB_CLAUDE_MD)
    expect(onBranch(s, '.mcp.json')).toBeNull()
    expect(onBranch(s, 'AGENTS.md')).toBeNull()
    for (const path of PLANTED) {
      expect(s.runs[0]!.summary).toMatch(
        new RegExp(`^- ${path.replaceAll('.', '\\.')} was not committed: agent configuration`, 'm')
      )
    }
  })

  it("gives each stage's agent the default branch's configuration, not the branch's", () => {
    for (const profile of ['researcher', 'implementer']) {
      expect([profile, s.saw[`${profile}..claude/settings.json`]]).toEqual([profile, MAIN_SETTINGS])
      expect([profile, s.saw[`${profile}.CLAUDE.md`]]).toEqual([profile, MAIN_CLAUDE_MD])
      expect([profile, s.saw[`${profile}.packages/web/CLAUDE.md`]]).toEqual([
        profile,
        MAIN_WEB_CLAUDE_MD
      ])
      for (const absent of [
        '.mcp.json',
        'AGENTS.md',
        'docs/AGENTS.md',
        '.gemini/settings.json',
        DEEP_SETTINGS
      ]) {
        expect([profile, absent, s.saw[`${profile}.${absent}`]]).toEqual([profile, absent, '-'])
      }
    }
  })

  it("leaves the action's tree as the branch has it", () => {
    const tree = s.p.sb.workspace
    expect(readFileSync(join(tree, '.claude/settings.json'), 'utf8').trim()).toBe(PUSHED)
    expect(git(tree, 'status', '--porcelain', '--untracked-files=all')).toBe('')
  })
})
