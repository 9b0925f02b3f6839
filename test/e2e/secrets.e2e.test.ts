// A prompt-injected agent publishes every secret it can reach: its model key and the job token
// (with isolation: none it reads the token from the action's /proc/<pid>/environ), in its
// deliverable, another committed file, its comment request and its output. None of it may
// leave the runner: not in the bare origin's commits, not in a comment the fake GitHub
// received, not in the log, outputs or job summary; the summary and the status comment say
// what was withheld, naming the file and the kind but never the value.
import { afterEach, describe, expect, it } from '@jest/globals'
import { git, runAction, shownLog, type ActionRun } from '../harness/action-run.js'
import { keyShaped } from '../secrets/key-samples.js'
import { startPipeline, type Pipeline } from './pipeline-fixture.js'

const MODEL_KEY = keyShaped.anthropic
const JOB_TOKEN = 'ghs_test_token'
const MARKER = 'AGENT-CHATTER'

/** Every form of each secret the agent writes, and the obvious others. */
function forms(value: string): string[] {
  return [
    value,
    encodeURIComponent(value),
    Buffer.from(value).toString('base64').replace(/=+$/, ''),
    Buffer.from(`x-access-token:${value}`).toString('base64').replace(/=+$/, '')
  ]
}
const LEAKS = [...forms(MODEL_KEY), ...forms(JOB_TOKEN)]

let current: Pipeline | undefined
afterEach(async () => {
  await current?.gh.stop()
  current = undefined
})

// isolation: none, where the agent holds the key and can read the action's environment.
const step = (p: Pipeline, inputs: Record<string, string> = {}, mode = 'leak') => ({
  event: 'issues.labeled' as const,
  eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada' },
  inputs: { isolation: 'none', ...inputs },
  env: { ITERVOX_FAKE_AGENT_MODE: mode, ANTHROPIC_API_KEY: MODEL_KEY }
})

async function leakyRun(
  inputs: Record<string, string> = {}
): Promise<{ p: Pipeline; run: ActionRun }> {
  const p = await startPipeline({ researcher: 'commit_paths: ["docs/**"]' })
  current = p
  return { p, run: await runAction('main', p.sb, p.gh, step(p, inputs)) }
}

/** Everything the origin holds: every commit's message and every file of every ref. */
function originText(p: Pipeline): string {
  return git(p.sb.origin, 'log', '--all', '-p', '--format=%H%n%B')
}

function expectNoLeak(where: string, text: string) {
  for (const leak of LEAKS) {
    if (text.includes(leak)) throw new Error(`${where} holds a secret (${leak.slice(0, 6)}…)`)
  }
}

describe('a hostile agent that publishes the secrets it holds', () => {
  it('gets none of them out, keeps its output out of the log, and the summary and status comment say what was withheld', async () => {
    const { p, run } = await leakyRun()
    expect(run.outputs.outcome).toBe('succeeded')
    expectNoLeak('the origin', originText(p))
    const files = git(p.sb.origin, 'ls-tree', '-r', '--name-only', 'refs/heads/itervox/1')
    // The rest of the agent's work is kept: the clean file and the redacted deliverable.
    expect(files).toContain('docs/ok.md')
    expect(files).not.toContain('docs/leak.md')
    const deliverable = git(
      p.sb.origin,
      'show',
      `refs/heads/itervox/1:${run.outputs['handoff-path']}`
    )
    expect(deliverable).toContain('Key: (redacted ANTHROPIC_API_KEY)')
    expect(deliverable).toContain('Token, URL-encoded: (redacted github-token)')

    const comments = p.gh.commentsOf(p.issue).map((c) => c.body)
    for (const c of comments) expectNoLeak('a comment', c)
    for (const pr of p.gh.pulls()) expectNoLeak('the pull request', `${pr.title}\n${pr.body}`)
    const agentComment = comments.find((c) => c.includes('researcher (agent)'))
    expect(agentComment).toContain('The key is (redacted ANTHROPIC_API_KEY)')

    // Without show-agent-output the agent's output stays out of the log; its result is shown,
    // masked.
    const log = shownLog(run)
    expectNoLeak('the log', log)
    expect(log).not.toContain(MARKER)
    expect(log).toContain('show-agent-output: true prints it here')
    expect(log).toContain('agent result (researcher, secrets masked)')
    expect(log).toContain('│ Done. The key is (redacted ANTHROPIC_API_KEY).')
    expectNoLeak('the summary', run.summary)
    expectNoLeak('the outputs', JSON.stringify(run.outputs))

    // Which file and which kind; the values never.
    expect(run.summary).toContain(
      'docs/leak.md: not committed, it holds the value of github-token (base64)'
    )
    expect(run.summary).toMatch(
      /_researcher\.md: the value of ANTHROPIC_API_KEY, an Anthropic API key and the value of github-token redacted/
    )
    const status = comments.find((c) => c.includes('itervox:status'))!
    expect(status).toContain('**Secrets withheld** (researcher, run 1001/1):')
    expect(status).toContain('docs/leak.md: not committed, it holds the value of github-token')
  })

  it('keeps them out of the partial the post step pushes after the main step was killed', async () => {
    const p = await startPipeline({ researcher: 'commit_paths: ["docs/**"]' })
    current = p
    const main = await runAction('main', p.sb, p.gh, {
      // Its output, once printed, says the agent runs and has written its files.
      ...step(p, { 'show-agent-output': 'true' }, 'leak-hang'),
      interrupt: { when: /AGENT-CHATTER/, signal: 'SIGKILL' }
    })
    expect(main.signal).toBe('SIGKILL')
    const post = await runAction('post', p.sb, p.gh, { ...step(p), state: main.state })
    expect(post.code).toBe(0)
    const files = git(p.sb.origin, 'ls-tree', '-r', '--name-only', 'refs/heads/itervox/1')
    expect(files).toMatch(/_researcher\.partial\.md/)
    expectNoLeak('the origin', originText(p))
    for (const c of p.gh.commentsOf(p.issue)) expectNoLeak('a comment', c.body)
    expectNoLeak('the post log', shownLog(post))
    expectNoLeak('the post summary', post.summary)
    expect(post.summary).toContain('### Secrets withheld')
    expect(post.summary).toMatch(
      /_researcher\.partial\.md: the value of ANTHROPIC_API_KEY, an Anthropic API key and the value of github-token redacted/
    )
    const said = p.gh.commentsOf(p.issue).find((c) => c.body.includes('did not finish'))
    expect(said?.body).toContain('**Secrets withheld:**')
  })

  it("with show-agent-output: true, shows the agent's output in the log, masked", async () => {
    const loud = await leakyRun({ 'show-agent-output': 'true' })
    const shown = shownLog(loud.run)
    expect(shown).toContain(MARKER)
    expect(shown).toContain('(redacted ANTHROPIC_API_KEY)')
    expect(shown).toContain('debug: the token is (redacted github-token)')
    expectNoLeak('the full log', shown)
  })
})
