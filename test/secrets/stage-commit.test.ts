// A stage's commit, made by finaliseStage in a real repository, after an agent wrote secrets
// into its deliverable, into other files it may commit, into a file name and a symlink, and
// into the last line it printed (the reason, which goes into the commit message).
import { afterAll, beforeEach, describe, expect, it } from '@jest/globals'
import { symlinkSync } from 'node:fs'
import path from 'node:path'
import { prepareIssueBranch } from '../../src/git/branch.js'
import type { StageContext } from '../../src/pipeline/stage/stage-context.js'
import { finaliseStage } from '../../src/pipeline/stage/stage.js'
import { SecretScanner } from '../../src/secrets/scanner.js'
import { cleanup, makeOrigin, sh, shallowCheckout, write } from '../git/repos.js'
import { keyShaped } from './key-samples.js'

afterAll(cleanup)

const MODEL_KEY = keyShaped.anthropic
const TOKEN = 'ghs_job_token_for_tests'
const secrets = new SecretScanner([
  { name: 'GITHUB_TOKEN', value: TOKEN },
  { name: 'ANTHROPIC_API_KEY', value: MODEL_KEY }
])
const HANDOFF = '.itervox/handoff/2026-02-02T10-00-00.000Z_researcher.md'
const PARTIAL = '.itervox/handoff/2026-02-02T10-00-00.000Z_researcher.partial.md'

let repo: string
let ctx: StageContext

beforeEach(async () => {
  repo = shallowCheckout(makeOrigin())
  const { baseSha } = await prepareIssueBranch({ repo, branch: 'itervox/5', base: 'main' })
  ctx = {
    stage: {
      issue: { id: '5' },
      profile: { name: 'researcher', requiredSections: [], commitPaths: ['docs/**'], env: [] },
      branch: { repo, branch: 'itervox/5', baseSha, created: true },
      run: '9/1',
      startedAt: new Date(),
      timestamp: '2026-02-02T10-00-00.000Z',
      handoffReason: 'specialization'
    },
    job: {
      config: { handoff: { maxFileBytes: 1024 * 1024 }, agent: {} },
      workflowPath: 'WORKFLOW.md'
    }
  }
  write(repo, HANDOFF, `# Findings\n\nThe key: ${MODEL_KEY}\nA stray ${keyShaped.aws} too.\n`)
  write(repo, 'docs/leak.md', `token=${Buffer.from(TOKEN).toString('base64')}\n`)
  write(repo, 'docs/ok.md', '# Clean\n\nCommit 3f786850e387550fdab836ed7e6dc881de23001b.\n')
  write(repo, `docs/${TOKEN}.md`, 'named after the token\n')
  symlinkSync(`../${TOKEN}`, path.join(repo, 'docs/link'))
})

const show = (ref: string) => sh(repo, 'show', ref)
const everything = (sha: string) => sh(repo, 'log', '-p', '--format=%B', '-1', sha)

describe('a stage commit with secrets in what the agent left', () => {
  it('redacts the deliverable in place, refuses every other file holding one, and says so', async () => {
    const done = await finaliseStage(ctx, { outcome: 'succeeded', reason: 'exit code 0' }, secrets)
    const sha = done.commit.sha!
    expect(done.handoffPath).toBe(HANDOFF)
    expect(show(`${sha}:${HANDOFF}`)).toBe(
      '# Findings\n\nThe key: (redacted ANTHROPIC_API_KEY)\nA stray (redacted AWS access key) too.'
    )
    expect(done.commit.committed).toEqual([HANDOFF, 'docs/ok.md'])
    const text = everything(sha)
    expect(text).not.toContain(TOKEN)
    expect(text).not.toContain(MODEL_KEY)
    expect(text).not.toContain(Buffer.from(TOKEN).toString('base64').slice(0, 20))
    expect(done.withheld).toEqual([
      `${HANDOFF}: the value of ANTHROPIC_API_KEY, an Anthropic API key and an AWS access key redacted`,
      'a file was not committed: its path holds the value of GITHUB_TOKEN',
      'docs/leak.md: not committed, it holds the value of GITHUB_TOKEN (base64)',
      'docs/link: not committed, it holds the value of GITHUB_TOKEN'
    ])
    expect(done.commit.dropped.map((d) => d.reason)).toEqual([
      'its path holds the value of GITHUB_TOKEN',
      'it holds the value of GITHUB_TOKEN (base64)',
      'it holds the value of GITHUB_TOKEN'
    ])
  })

  it("keeps secrets out of a failed stage's partial and out of the commit message", async () => {
    const done = await finaliseStage(
      ctx,
      { outcome: 'failed', reason: `Error: bad credentials ${TOKEN}` },
      secrets
    )
    const sha = done.commit.sha!
    expect(done.handoffPath).toBe(PARTIAL)
    expect(show(`${sha}:${PARTIAL}`)).toContain('The key: (redacted ANTHROPIC_API_KEY)')
    const message = sh(repo, 'log', '-1', '--format=%B', sha)
    expect(message).toContain('Error: bad credentials (redacted GITHUB_TOKEN)')
    expect(done.reason).toBe('Error: bad credentials (redacted GITHUB_TOKEN)')
    expect(everything(sha)).not.toContain(TOKEN)
  })

  it('commits everything as it is when nothing holds a secret', async () => {
    const none = new SecretScanner([{ name: 'OTHER_TOKEN', value: 'not-in-any-file' }])
    write(repo, HANDOFF, '# Findings\n\nNothing secret.\n')
    const done = await finaliseStage(ctx, { outcome: 'succeeded', reason: 'exit code 0' }, none)
    expect(done.withheld).toEqual([])
    expect(done.commit.committed).toEqual([
      HANDOFF,
      `docs/${TOKEN}.md`,
      'docs/leak.md',
      'docs/link',
      'docs/ok.md'
    ])
  })
})
