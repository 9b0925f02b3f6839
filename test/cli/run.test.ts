// `itervox-handoff run`: each way it ends (success, a stage that failed for good, a question, a usage
// mistake, a user mistake) once through the bundled CLI; everything else in-process.
import { describe, expect, it } from '@jest/globals'
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  writeFileSync
} from 'node:fs'
import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scaffoldFiles } from '../../src/cli/scaffold.js'
import { parseLocalIssue } from '../../src/tracker/local.js'
import { keyShaped } from '../secrets/key-samples.js'
import { cli, git, ISSUE, localPipeline, repoWith, ROOT } from './helpers.js'
import { cliInProcess } from './in-process.js'

const issueIn = (repo: string, id = 'ENG-1') =>
  parseLocalIssue(readFileSync(join(repo, `.itervox/issues/${id}.md`), 'utf8'), id, id)

const handoffsOn = (repo: string, branch: string) =>
  git(repo, 'ls-tree', '--name-only', `${branch}:.itervox/handoff`).split('\n').filter(Boolean)

interface Json {
  issue: string
  state: string | null
  branch: string | null
  idle?: { reason: string; question?: string }
  stages: {
    profile: string
    state: string
    attempt: number
    outcome: string
    handoffPath: string | null
    commit: string | null
    next: { kind: string; to?: string }
    refused: string[]
    stateAfter: string
  }[]
}

describe('itervox-handoff run', () => {
  it('runs the seed pipeline with scripted agents to its completion state, three deliverables on the branch', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'cli-seed-'))
    cpSync(join(ROOT, 'test/fixtures/workflows/seed'), repo, { recursive: true })
    mkdirSync(join(repo, '.itervox/issues'), { recursive: true })
    writeFileSync(join(repo, '.itervox/issues/ENG-42.md'), ISSUE('Todo'))
    git(repo, 'init', '--quiet', '--initial-branch=main')
    git(repo, 'add', '--all')
    git(repo, 'commit', '--quiet', '-m', 'seed')
    // The seed's profiles run `claude`: the scripted Claude stand-in, whose reviewer asks to
    // move the issue to the completion state (the seed's last automation stops at Reviewing).
    const bin = mkdtempSync(join(tmpdir(), 'cli-bin-'))
    const fake = join(ROOT, 'test/fixtures/agents/fake-claude.mjs')
    writeFileSync(
      join(bin, 'claude'),
      `#!/bin/sh\nif [ "$ITERVOX_PROFILE" = reviewer ]; then\n  ITERVOX_FAKE_AGENT_DELIVERABLE="$(printf -- '---\\nmove_state: Done\\n---\\n# Review\\n\\nNo findings.\\n')"\n  export ITERVOX_FAKE_AGENT_DELIVERABLE\nfi\nexec '${process.execPath}' '${fake}' "$@"\n`
    )
    chmodSync(join(bin, 'claude'), 0o755)

    const r = await cli(repo, ['run', '--issue', 'ENG-42', '--until-idle', '--json'], {
      PATH: `${bin}:${process.env.PATH}`,
      LINEAR_API_KEY: 'lin_test',
      ANTHROPIC_API_KEY: 'test-model-key'
    })
    expect(r.stderr).not.toMatch(/\n\s+at /)
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as Json
    expect(out.stages.map((s) => [s.profile, s.state, s.outcome, s.stateAfter])).toEqual([
      ['researcher', 'Todo', 'succeeded', 'Researching'],
      ['implementer', 'Researching', 'succeeded', 'Implementing'],
      ['reviewer', 'Implementing', 'succeeded', 'Done']
    ])
    expect(out.state).toBe('Done')
    expect(out.branch).toBe('itervox/ENG-42')
    expect(issueIn(repo, 'ENG-42').state).toBe('Done')
    const files = handoffsOn(repo, 'itervox/ENG-42')
    expect(files).toHaveLength(3)
    expect(files.map((f) => f.replace(/^.*_/, ''))).toEqual([
      'researcher.md',
      'implementer.md',
      'reviewer.md'
    ])
    // Each stage is one commit with its trailers; the tracker's files are in none of them.
    const log = git(
      repo,
      'log',
      '--format=%s|%(trailers:key=Itervox-Outcome,valueonly)',
      'main..itervox/ENG-42'
    )
    expect(log.split('\n').filter(Boolean)).toEqual([
      'itervox(reviewer): succeeded stage for ENG-42|succeeded',
      'itervox(implementer): succeeded stage for ENG-42|succeeded',
      'itervox(researcher): succeeded stage for ENG-42|succeeded'
    ])
    expect(git(repo, 'diff', '--name-only', 'main', 'itervox/ENG-42')).not.toContain(
      '.itervox/issues'
    )
    expect(git(repo, 'status', '--porcelain')).toBe('M .itervox/issues/ENG-42.md')
  })

  it('runs one stage per call and resumes a failed attempt from its partial', async () => {
    const { repo, prompts } = localPipeline()
    const env = {
      ITERVOX_TEST_AGENT: JSON.stringify({ implementer: 'crash-once' }),
      ITERVOX_TEST_AGENT_PROMPTS: prompts
    }

    const first = await cliInProcess(repo, ['run', '--issue', 'ENG-1'], env)
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(
      /^── Deciding\n── Preparing itervox\/ENG-1\nresearcher in "Todo": running\n── Running researcher\n── Publishing\n✓ researcher in "Todo" · succeeded · \d+\.\ds · moved to "Implementing" \(automation research\)\n/
    )
    expect(first.stdout).toContain('ENG-1 is in "Implementing" on branch itervox/ENG-1\n')
    expect(issueIn(repo).state).toBe('Implementing')

    const second = await cliInProcess(repo, ['run', '--issue', 'ENG-1'], env)
    expect(second.code).toBe(0)
    expect(second.stdout).toContain('✗ implementer in "Implementing" · failed (exit code 1)')
    expect(second.stdout).toContain('retry next (attempt 2)')
    expect(second.stdout).toMatch(/agent log: .*agent\.log/)
    expect(issueIn(repo).state).toBe('Implementing')
    const partial = handoffsOn(repo, 'itervox/ENG-1').find((f) =>
      f.endsWith('_implementer.partial.md')
    )
    expect(partial).toBeDefined()

    const third = await cliInProcess(repo, ['run', '--issue', 'ENG-1', '--json'], env)
    expect(third.code).toBe(0)
    const out = JSON.parse(third.stdout) as Json
    expect(out.stages).toHaveLength(1)
    expect(out.stages[0]).toMatchObject({
      profile: 'implementer',
      attempt: 1,
      outcome: 'succeeded',
      stateAfter: 'Reviewing'
    })
    const retryPrompt = readFileSync(join(prompts, readdirSync(prompts).sort().at(-1)!), 'utf8')
    expect(retryPrompt).toContain(
      `### ${partial} (partial — prior agent exited before completing this deliverable)`
    )

    const fourth = await cliInProcess(repo, ['run', '--issue', 'ENG-1'], env)
    expect(fourth.stdout).toContain('moved to "Done" (automation review)')
    const fifth = await cliInProcess(repo, ['run', '--issue', 'ENG-1'], env)
    expect(fifth.code).toBe(0)
    expect(fifth.stdout).toBe(
      'ENG-1 is in "Done"; nothing to run: "Done" starts no automation: the pipeline is done\n'
    )
  })

  it('escalates to the failed state when retries are spent, and says where the partial is', async () => {
    const { repo } = localPipeline({ retries: 1 })
    const r = await cli(repo, ['run', '--issue', 'ENG-1', '--until-idle', '--json'], {
      ITERVOX_TEST_AGENT: JSON.stringify({ implementer: 'fail' })
    })
    expect(r.code).toBe(1)
    const out = JSON.parse(r.stdout) as Json
    expect(out.stages.map((s) => [s.profile, s.attempt, s.outcome, s.next.kind])).toEqual([
      ['researcher', 0, 'succeeded', 'move'],
      ['implementer', 0, 'failed', 'retry'],
      ['implementer', 1, 'failed', 'escalate']
    ])
    expect(out.state).toBe('Blocked')
    const last = out.stages[2]!
    expect(last.handoffPath).toMatch(/_implementer\.partial\.md$/)
    const issue = issueIn(repo)
    expect(issue.state).toBe('Blocked')
    const note = issue.comments.at(-1)!
    expect(note.author).toBe('itervox-handoff')
    expect(note.body).toContain(
      '**The itervox pipeline stopped.** implementer failed 2 times, retries spent'
    )
    expect(note.body).toContain(last.handoffPath!)
    expect(note.body).toContain('branch itervox/ENG-1')
  })

  it('runs a run_failed automation after the stage that failed for good, in the same run', async () => {
    const { repo, prompts } = localPipeline({
      retries: 1,
      workflow: (text) =>
        text.replace(
          'automations:\n',
          'automations:\n  - id: triage\n    trigger: { type: run_failed }\n    profile: reviewer\n'
        )
    })
    const r = await cli(repo, ['run', '--issue', 'ENG-1', '--until-idle', '--json'], {
      ITERVOX_TEST_AGENT: JSON.stringify({ implementer: 'fail' }),
      ITERVOX_TEST_AGENT_PROMPTS: prompts
    })
    expect(r.code).toBe(1)
    const out = JSON.parse(r.stdout) as Json
    expect(out.stages.map((s) => [s.profile, s.state, s.outcome, s.next.kind])).toEqual([
      ['researcher', 'Todo', 'succeeded', 'move'],
      ['implementer', 'Implementing', 'failed', 'retry'],
      ['implementer', 'Implementing', 'failed', 'escalate'],
      ['reviewer', 'Implementing', 'succeeded', 'stop']
    ])
    // The helper moved nothing: the pipeline stays stopped in the failed state.
    expect(out.state).toBe('Blocked')
    expect(issueIn(repo).state).toBe('Blocked')
    expect(out.stages[3]!.handoffPath).toMatch(/_reviewer\.md$/)
    const prompt = readFileSync(join(prompts, readdirSync(prompts).sort().at(-1)!), 'utf8')
    expect(prompt).toContain('## Automation triage (run_failed)')
    expect(prompt).toContain('ended failed after its retries')
  })

  it('waits for an answer, then resumes the stage on the same handoff path with the reply', async () => {
    const { repo, prompts } = localPipeline()
    const env = {
      ITERVOX_TEST_AGENT: JSON.stringify({ researcher: 'ask' }),
      ITERVOX_TEST_AGENT_PROMPTS: prompts
    }
    const asked = await cli(repo, ['run', '--issue', 'ENG-1', '--until-idle'], env)
    expect(asked.code).toBe(0)
    expect(asked.stdout).toContain('? researcher in "Todo" · input_required')
    expect(asked.stdout).toContain(
      'The agent asks:\n\n    Should the export target Postgres or SQLite?\n'
    )
    expect(asked.stdout).toContain('Answer with: itervox-handoff run --issue ENG-1 --reply "..."')
    expect(issueIn(repo).state).toBe('Todo')
    expect(issueIn(repo).comments.at(-1)).toMatchObject({ author: 'itervox-handoff' })

    const again = await cliInProcess(repo, ['run', '--issue', 'ENG-1'], env)
    expect(again.stdout).toContain('nothing to run: the researcher stage waits for an answer')

    const resumed = await cliInProcess(
      repo,
      ['run', '--issue', 'ENG-1', '--reply', 'Postgres, please.', '--json'],
      env
    )
    expect(resumed.code).toBe(0)
    const out = JSON.parse(resumed.stdout) as Json
    expect(out.stages[0]).toMatchObject({
      profile: 'researcher',
      outcome: 'succeeded',
      stateAfter: 'Implementing'
    })
    const first = readdirSync(prompts).sort()
    const paused = readFileSync(join(prompts, first[0]!), 'utf8')
    const resumedPrompt = readFileSync(join(prompts, first[1]!), 'utf8')
    expect(resumedPrompt).toMatch(
      /## Reply from @\S+\n\nYou asked for input and a person allowed to run this pipeline answered\./
    )
    expect(resumedPrompt).toContain('Postgres, please.')
    const path = (p: string) => /run\.handoff_path: `([^`]+)`/.exec(p)?.[1]
    expect(path(resumedPrompt)).toBe(path(paused))
    expect(out.stages[0]!.handoffPath).toBe(path(paused))
    expect(issueIn(repo).comments.map((c) => c.body)).toContain('Postgres, please.')

    const stray = await cliInProcess(repo, ['run', '--issue', 'ENG-1', '--reply', 'hello'], env)
    expect(stray.code).toBe(1)
    expect(stray.stderr).toBe('--reply: no stage of this issue is waiting for input\n')
  })

  it('carries out the requests the profile allows, refuses the rest, and puts the tracker copy of the issue file back after each stage', async () => {
    const { repo, prompts } = localPipeline()
    const env = {
      ITERVOX_TEST_AGENT: JSON.stringify({
        researcher: 'front:comment: The CSV code is in src/report.\nmove_state: Done',
        implementer: 'edit-issue'
      }),
      ITERVOX_TEST_AGENT_PROMPTS: prompts
    }
    const r = await cliInProcess(repo, ['run', '--issue', 'ENG-1', '--until-idle', '--json'], env)
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as Json
    expect(out.stages[0]!.refused).toEqual([
      'request refused: move_state: the profile may not move the issue'
    ])
    expect(out.stages[0]!.stateAfter).toBe('Implementing')
    expect(readFileSync(join(prompts, '00-researcher.md'), 'utf8')).toContain(
      'Your profile may request: `comment` (comment on the issue). Anything else is refused.'
    )
    // The implementer rewrote the issue file; the tracker's copy came back, so the state and
    // the comment are the pipeline's.
    const issue = issueIn(repo)
    expect(issue.title).toBe('Add CSV export')
    expect(issue.state).toBe('Done')
    expect(issue.comments[0]).toMatchObject({
      author: 'researcher (agent)',
      body: 'The CSV code is in src/report.'
    })
    expect(out.stages.map((s) => s.outcome)).toEqual(['succeeded', 'succeeded', 'succeeded'])
  })

  it('carries out requests whose values held a secret: the redaction keeps the front matter valid YAML', async () => {
    const { repo } = localPipeline()
    const key = keyShaped.anthropic
    const env = {
      ITERVOX_TEST_AGENT: JSON.stringify({
        researcher: `front:comment: here is ${key} for you`,
        implementer: `front:comment: "${key} is the key, quoted"`,
        reviewer: `front:move_state: Done\ncomment: ${key}`
      })
    }
    const r = await cliInProcess(repo, ['run', '--issue', 'ENG-1', '--until-idle', '--json'], env)
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as Json
    expect(out.stages.map((s) => s.refused.filter((x) => x.startsWith('request')))).toEqual([
      [],
      [],
      []
    ])
    const issue = issueIn(repo)
    expect(issue.state).toBe('Done')
    expect(issue.comments.map((c) => c.body)).toEqual([
      'here is (redacted Anthropic API key) for you',
      '(redacted Anthropic API key) is the key, quoted',
      '(redacted Anthropic API key)'
    ])
    expect(git(repo, 'log', '-p', '--all')).not.toContain(key.slice(0, 20))
    expect(readFileSync(join(repo, '.itervox/issues/ENG-1.md'), 'utf8')).not.toContain(key)
  })

  it('reports refused requests whole, no tracker file the agent left alone, and a file with a secret once', async () => {
    const { repo } = localPipeline()
    // Issue files the user never committed: every stage finds them in the tree.
    for (let n = 2; n <= 9; n++)
      writeFileSync(join(repo, `.itervox/issues/ENG-${n}.md`), ISSUE('Todo'))
    const env = {
      ITERVOX_TEST_AGENT: JSON.stringify({ researcher: 'front:move_state: Done' }),
      ITERVOX_TEST_AGENT_FILES: JSON.stringify({
        researcher: { '.itervox/issues/ENG-3.md': ISSUE('Done') },
        implementer: { 'leak.txt': `key ${keyShaped.anthropic}\n` }
      })
    }
    const r = await cliInProcess(repo, ['run', '--issue', 'ENG-1', '--until-idle'], env)
    expect(r.code).toBe(0)
    const lines = r.stdout.split('\n')
    const of = (profile: string) => {
      const at = lines.findIndex((l) => l.startsWith(`✓ ${profile} `))
      const end = lines.findIndex((l, i) => i > at && !l.startsWith('    '))
      // The first indented line names the deliverable.
      return lines.slice(at + 2, end)
    }
    expect(of('researcher')).toEqual([
      '    request refused: move_state: the profile may not move the issue',
      '    .itervox/issues/ENG-3.md was not committed: forbidden path'
    ])
    expect(of('implementer')).toEqual([
      '    warning: secret withheld: leak.txt: not committed, it holds an Anthropic API key'
    ])
    expect(of('reviewer')).toEqual([])
  })

  it("prompt shows the issue branch's handoffs from any branch, and says so off it", async () => {
    const { repo } = localPipeline()
    const args = ['prompt', '--profile', 'reviewer', '--issue', 'ENG-1']
    args.push('--timestamp', '2026-05-26T14-30-45.000Z')
    expect((await cliInProcess(repo, args)).stderr).toBe('')
    await cliInProcess(repo, ['run', '--issue', 'ENG-1'])
    const onMain = await cliInProcess(repo, args)
    expect(onMain.stderr).toBe(
      "note: the prompt shows the handoffs on itervox/ENG-1, the issue's branch, not on main\n"
    )
    expect(onMain.stdout).toContain('_researcher.md')
    git(repo, 'switch', '--quiet', 'itervox/ENG-1')
    const onBranch = await cliInProcess(repo, args)
    expect(onBranch.stderr).toBe('')
    expect(onBranch.stdout).toBe(onMain.stdout)
  })

  it('stops before a claude stage with one line naming the secret when it has no way to its model', async () => {
    const { repo } = localPipeline()
    const workflow = join(repo, 'WORKFLOW.md')
    const bin = mkdtempSync(join(tmpdir(), 'cli-bin-'))
    const text = readFileSync(workflow, 'utf8')
    const agent = /command: (\S+)/.exec(text)![1]!
    // The scripted agent under claude's name: the claude preset, with no key in the environment.
    execFileSync('ln', ['-s', agent, join(bin, 'claude')])
    writeFileSync(workflow, text.replace(`command: ${agent}`, 'command: claude'))
    git(repo, 'commit', '--quiet', '-am', 'claude')
    const env = { PATH: `${bin}:${process.env.PATH}` }
    const line = (await cliInProcess(repo, ['run', '--issue', 'ENG-1'], env)).stderr
    const at = text.split('\n').findIndex((l) => l.includes(`command: ${agent}`)) + 1
    expect(line).toBe(
      `WORKFLOW.md:${at}: the researcher stage cannot start: claude has no model key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN, CLAUDE_CODE_OAUTH_TOKEN); in CI, a repository secret passed in the action step's env:\n`
    )
    expect(issueIn(repo).state).toBe('Todo')
    expect(git(repo, 'branch', '--list', 'itervox/*')).toBe('')
    // A login saved by claude /login in the user's HOME.
    const home = mkdtempSync(join(tmpdir(), 'cli-home-'))
    mkdirSync(join(home, '.claude'))
    writeFileSync(join(home, '.claude/.credentials.json'), '{}')
    const r = await cliInProcess(repo, ['run', '--issue', 'ENG-1'], { ...env, HOME: home })
    expect(r.stdout).toContain('✓ researcher in "Todo" · succeeded')
  })

  it("commits as the user's git identity, as git itself would", async () => {
    const { repo } = localPipeline()
    git(repo, 'config', 'user.name', 'Grace Hopper')
    git(repo, 'config', 'user.email', 'grace@example.com')
    const by = (n: number) =>
      git(repo, 'log', '-1', '--format=%an <%ae> / %cn <%ce>', `itervox/ENG-1~${n}`)
    await cliInProcess(repo, ['run', '--issue', 'ENG-1'])
    expect(by(0)).toBe('Grace Hopper <grace@example.com> / Grace Hopper <grace@example.com>')
    // GIT_AUTHOR_* and GIT_COMMITTER_* come before the configuration, as for git commit.
    await cliInProcess(repo, ['run', '--issue', 'ENG-1'], {
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@example.com'
    })
    expect(by(0)).toBe('Ada <ada@example.com> / Grace Hopper <grace@example.com>')
    expect(by(1)).toBe('Grace Hopper <grace@example.com> / Grace Hopper <grace@example.com>')
  })

  it('finds the issue whatever the case of its identifier', async () => {
    const { repo } = localPipeline()
    const r = await cliInProcess(repo, ['run', '--issue', 'eng-1'])
    expect(r.stdout).toContain('ENG-1 is in "Implementing" on branch itervox/ENG-1')
    expect(issueIn(repo).state).toBe('Implementing')
    const prompt = await cliInProcess(repo, ['prompt', '--profile', 'reviewer', '--issue', 'eng-1'])
    expect(prompt.stdout).toContain('_researcher.md')
  })

  it('puts back an issue file that an interrupted run left set aside', async () => {
    const { repo } = localPipeline()
    mkdirSync(join(repo, '.itervox/runs'), { recursive: true })
    writeFileSync(join(repo, '.itervox/runs/ENG-1.issue.md'), ISSUE('Reviewing'))
    writeFileSync(join(repo, '.itervox/issues/ENG-1.md'), ISSUE('Todo').replace('CSV', 'PDF'))
    const r = await cliInProcess(repo, ['run', '--issue', 'ENG-1'])
    expect(r.stderr).toBe(
      'warning: put back .itervox/issues/ENG-1.md, which an interrupted run had set aside\n'
    )
    expect(r.stdout).toContain('✓ reviewer in "Reviewing" · succeeded')
    expect(issueIn(repo)).toMatchObject({ state: 'Done', title: 'Add CSV export' })
  })

  it('refuses to start over uncommitted changes, which a stage would sweep in or discard', async () => {
    const { repo } = localPipeline()
    writeFileSync(join(repo, 'README.md'), '# changed\n')
    const r = await cliInProcess(repo, ['run', '--issue', 'ENG-1'])
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      'the working tree has uncommitted changes (README.md); commit or stash them first, because a stage commits or discards whatever it finds\n'
    )
    expect(git(repo, 'branch', '--list', 'itervox/*')).toBe('')
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('# changed\n')
  })

  it('reports every user mistake as one line', async () => {
    const { repo } = localPipeline()
    const usage = [
      [['run'], 'run: --issue ID is required, e.g. --issue DEMO-1'],
      [['run', '--issue', 'ENG-1', '--reply', ' '], 'run: --reply needs the text of your answer']
    ]
    // The first of each exit status through the bundle, the rest in-process.
    for (const [i, [args, message]] of usage.entries()) {
      const r = await (i === 0 ? cli : cliInProcess)(repo, args as string[])
      expect([r.code, r.stderr.split('\n').slice(1)]).toEqual([2, [message, '']])
    }
    const cases: [string[], string][] = [
      [
        ['run', '--issue', 'ENG-9'],
        'no local issue ENG-9; create .itervox/issues/ENG-9.md with title and state in its front matter'
      ],
      [
        ['run', '--issue', '../x'],
        'issue "../x" is not a local issue identifier; use the form PREFIX-N, e.g. DEMO-1'
      ]
    ]
    for (const [i, [args, message]] of cases.entries()) {
      const r = await (i === 0 ? cli : cliInProcess)(repo, args)
      expect([r.code, r.stderr]).toEqual([1, message + '\n'])
    }
    writeFileSync(join(repo, '.itervox/issues/ENG-2.md'), ISSUE('Implemnting'))
    const typo = await cliInProcess(repo, ['run', '--issue', 'ENG-2'])
    expect(typo.stderr).toBe(
      'ENG-2 is in "Implemnting", which is not a state of WORKFLOW.md; did you mean "Implementing"?\n'
    )
    writeFileSync(join(repo, '.itervox/issues/ENG-3.md'), '---\ntitle: x\n---\n')
    const stateless = await cliInProcess(repo, ['run', '--issue', 'ENG-3'])
    expect(stateless.stderr).toBe(
      'ENG-3 has no state; add "state: Todo" to the front matter of its issue file\n'
    )
    // Without its front matter, the file says so rather than that the issue has no state.
    writeFileSync(join(repo, '.itervox/issues/ENG-4.md'), 'title: x\nstate: Todo\n\nBody\n')
    const bare = await cliInProcess(repo, ['run', '--issue', 'ENG-4'])
    expect([bare.code, bare.stderr]).toEqual([
      1,
      '.itervox/issues/ENG-4.md:1:1: the issue file has no front matter (line 1 is not exactly "---"); start it with a "---" line, then title: and state: lines, then a closing "---"\n'
    ])
    // A byte-order mark (as some Windows editors write) is no mistake.
    writeFileSync(join(repo, '.itervox/issues/ENG-5.md'), `\uFEFF${ISSUE('Done')}`)
    const bom = await cliInProcess(repo, ['run', '--issue', 'ENG-5'])
    expect(bom.code).toBe(0)
    expect(bom.stdout).toMatch(/^ENG-5 is in "Done"; nothing to run: /)
  })
})

describe('itervox-handoff run and agent configuration', () => {
  it("never commits what an agent planted, gives every stage main's configuration, and keeps your own", async () => {
    const files: Record<string, string> = {
      'README.md': '# app\n',
      '.itervox/issues/ENG-1.md': ISSUE('Todo'),
      'CLAUDE.md': 'Rules from main.\n',
      '.gitignore': '.claude/settings.local.json\n'
    }
    const agent = join(ROOT, 'test/fixtures/agents/config-agent.sh')
    for (const f of scaffoldFiles({ tracker: 'local', command: agent, implementerPaths: ['**'] })) {
      files[f.path] = f.path === '.gitignore' ? `${f.text}${files[f.path]}` : f.text
    }
    const repo = repoWith(files)
    // The issue branch already holds settings someone committed there.
    git(repo, 'checkout', '--quiet', '-b', 'itervox/ENG-1')
    mkdirSync(join(repo, '.gemini'))
    writeFileSync(join(repo, '.gemini/settings.json'), 'pushed\n')
    git(repo, 'add', '.gemini/settings.json')
    git(repo, 'commit', '--quiet', '-m', 'gemini settings')
    git(repo, 'checkout', '--quiet', 'main')
    mkdirSync(join(repo, '.claude'))
    writeFileSync(join(repo, '.claude/settings.local.json'), 'mine\n')
    const report = join(mkdtempSync(join(tmpdir(), 'cli-config-')), 'report')

    const r = await cliInProcess(repo, ['run', '--issue', 'ENG-1', '--until-idle', '--json'], {
      ITERVOX_TEST_CONFIG_REPORT: report,
      ITERVOX_TEST_CODER: 'implementer'
    })
    expect(r.stderr).toBe('')
    const out = JSON.parse(r.stdout) as Json
    expect(out.stages.map((s) => [s.profile, s.outcome])).toEqual([
      ['researcher', 'succeeded'],
      ['implementer', 'succeeded'],
      ['reviewer', 'succeeded']
    ])
    const implementer = out.stages[1]!
    for (const path of ['.claude/settings.json', 'CLAUDE.md', '.mcp.json', 'AGENTS.md']) {
      expect(implementer.refused).toContainEqual(
        expect.stringMatching(
          new RegExp(`^${path.replaceAll('.', '\\.')} was not committed: agent configuration`)
        )
      )
    }
    const tree = git(repo, 'ls-tree', '-r', '--name-only', 'itervox/ENG-1').split('\n')
    expect(tree).toContain('src/implementer.ts')
    expect(tree).not.toContain('.claude/settings.json')
    expect(tree).not.toContain('AGENTS.md')
    expect(git(repo, 'show', 'itervox/ENG-1:CLAUDE.md')).toBe('Rules from main.')
    expect(git(repo, 'show', 'itervox/ENG-1:.gemini/settings.json')).toBe('pushed')

    const saw = readFileSync(report, 'utf8')
    for (const profile of ['researcher', 'implementer', 'reviewer']) {
      expect(saw).toContain(`${profile}.handoff_dir=yes\n`)
      expect(saw).toContain(`${profile}.CLAUDE.md=Rules from main. \n`)
      expect(saw).toContain(`${profile}..claude/settings.json=-\n`)
      expect(saw).toContain(`${profile}..gemini/settings.json=-\n`)
      expect(saw).toContain(`${profile}.AGENTS.md=-\n`)
    }
    // Your own untracked settings stay, and you are back on main with a clean checkout (the
    // tracker's issue file aside): the branch's settings are not left in it.
    expect(readFileSync(join(repo, '.claude/settings.local.json'), 'utf8')).toBe('mine\n')
    const status = git(repo, 'status', '--porcelain', '--untracked-files=all')
    expect(status.trim()).toBe('M .itervox/issues/ENG-1.md')
    expect(git(repo, 'branch', '--show-current').trim()).toBe('main')
    expect(existsSync(join(repo, '.gemini/settings.json'))).toBe(false)
  })
})
