// The CLI from source (not dist/): a profile's `env` reaches its agent through the whole
// stage (WORKFLOW.md, the stage, the runner), and nothing else of the job's environment does.
import { describe, expect, it } from '@jest/globals'
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scaffoldFiles } from '../../src/cli/scaffold.js'
import { cliFromSource, git, repoWith } from './helpers.js'

/** A plain-text agent whose deliverable is its environment, as JSON after a heading. */
function envDumpAgent(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'agent-env-')), 'env-agent.mjs')
  writeFileSync(
    path,
    `#!${process.execPath}
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
readFileSync(0)
const out = process.env.ITERVOX_HANDOFF_PATH
mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, '# env\\n\\n' + JSON.stringify(process.env) + '\\n')
`
  )
  chmodSync(path, 0o755)
  return path
}

describe("the agent's environment in a stage", () => {
  it('holds the names its profile declares, and no other variable of the job', async () => {
    const files: Record<string, string> = {
      '.itervox/issues/ENG-1.md': '---\ntitle: Add CSV export\nstate: Todo\n---\n\nBody.\n'
    }
    for (const f of scaffoldFiles({
      tracker: 'local',
      command: envDumpAgent(),
      implementerPaths: []
    })) {
      files[f.path] = f.text
    }
    const researcher = '      allowed_actions: ["comment"]\n    implementer:'
    expect(files['WORKFLOW.md']).toContain(researcher)
    files['WORKFLOW.md'] = files['WORKFLOW.md']!.replace(
      researcher,
      '      allowed_actions: ["comment"]\n      env: [DECLARED_TOKEN]\n    implementer:'
    )
    const repo = repoWith(files)
    const r = await cliFromSource(repo, ['run', '--issue', 'ENG-1', '--json'], {
      DECLARED_TOKEN: 'declared',
      NPM_TOKEN: 'npm_must_not_leak',
      AWS_SECRET_ACCESS_KEY: 'aws_must_not_leak',
      SSH_AUTH_SOCK: '/tmp/ssh-agent.must_not_leak',
      OP_SESSION_my: 'op_must_not_leak',
      // A generic agent gets no model variables.
      ANTHROPIC_API_KEY: 'model_must_not_leak',
      GITHUB_TOKEN: 'ghs_must_not_leak'
    })
    expect(r).toMatchObject({ code: 0, stderr: '' })
    const { stages } = JSON.parse(r.stdout) as { stages: { handoffPath: string }[] }
    const deliverable = git(repo, 'show', `itervox/ENG-1:${stages[0]!.handoffPath}`)
    const env = JSON.parse(deliverable.split('\n').at(-1)!) as Record<string, string>
    // The declared token reached the agent; the secret scan redacted it from the deliverable.
    expect(env).toMatchObject({
      DECLARED_TOKEN: '(redacted DECLARED_TOKEN)',
      HOME: repo,
      ITERVOX_PROFILE: 'researcher'
    })
    // The scan would redact a leaked value too, so the names themselves must be absent.
    for (const name of [
      'NPM_TOKEN',
      'AWS_SECRET_ACCESS_KEY',
      'SSH_AUTH_SOCK',
      'OP_SESSION_my',
      'ANTHROPIC_API_KEY',
      'GITHUB_TOKEN'
    ]) {
      expect(Object.keys(env)).not.toContain(name)
    }
    expect(JSON.stringify(env)).not.toContain('must_not_leak')
  })
})
