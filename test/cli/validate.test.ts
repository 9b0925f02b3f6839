// `validate` checks what a run will need, in a repository `init` set up: in-process, but for a
// run through the bundled CLI per exit status.
import { describe, expect, it } from '@jest/globals'
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { installFakeAgents } from '../agent/fake-agents.js'
import { cli as bundled, repoWith } from './helpers.js'
import { cliInProcess as cli } from './in-process.js'

/** A repository with init's GitHub pipeline, and a PATH with (or without) its agent CLI. */
async function initialised(): Promise<{ repo: string; withClaude: Record<string, string> }> {
  const repo = repoWith({ 'README.md': '# app\n' }, 'cli-validate-')
  const r = await cli(repo, ['init'])
  expect(r.code).toBe(0)
  return { repo, withClaude: { PATH: `${installFakeAgents()}:${process.env.PATH}` } }
}

function change(repo: string, path: string, from: string, to: string): void {
  const file = join(repo, path)
  const text = readFileSync(file, 'utf8')
  expect(text).toContain(from)
  writeFileSync(file, text.replace(from, to))
}

const lineOf = (repo: string, path: string, needle: string) =>
  readFileSync(join(repo, path), 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(needle)) + 1

describe('itervox-handoff validate', () => {
  it("passes init's pipeline silently when its agent CLI is installed", async () => {
    const { repo, withClaude } = await initialised()
    const r = await bundled(repo, ['validate'], withClaude)
    expect(r).toMatchObject({ code: 0, stderr: '' })
    expect(r.stdout).toContain('WORKFLOW.md is valid: 3 profiles')
  })

  it('warns, once per command, when the agent CLI is not on PATH (CI installs it later)', async () => {
    const { repo } = await initialised()
    const r = await cli(repo, ['validate'])
    expect(r.code).toBe(0)
    const line = lineOf(repo, 'WORKFLOW.md', '  command: claude')
    expect(r.stderr).toBe(
      `WORKFLOW.md:${line}: warning: command "claude" of profiles "researcher", "implementer", "reviewer" was not found on PATH; install it (in CI: in a step before this action) or fix agent.command; a stage does not start without it\n`
    )
  })

  it('refuses a repository script that is not executable', async () => {
    const { repo, withClaude } = await initialised()
    writeFileSync(join(repo, 'agent.sh'), '#!/bin/sh\n')
    chmodSync(join(repo, 'agent.sh'), 0o644)
    change(
      repo,
      'WORKFLOW.md',
      '      allowed_actions: ["comment"]\n    implementer:',
      '      allowed_actions: ["comment"]\n      command: ./agent.sh\n    implementer:'
    )
    const r = await bundled(repo, ['validate'], withClaude)
    expect(r.code).toBe(1)
    const line = lineOf(repo, 'WORKFLOW.md', 'command: ./agent.sh')
    expect(r.stderr).toBe(
      `WORKFLOW.md:${line}: command "./agent.sh" of profile "researcher" is not executable; make it executable (chmod +x, and commit that) or fix agent.profiles.researcher.command\n`
    )
  })

  it('refuses a repository script that is not there, naming every profile that uses it', async () => {
    const { repo, withClaude } = await initialised()
    change(repo, 'WORKFLOW.md', 'command: claude', 'command: scripts/agnet.sh')
    const r = await cli(repo, ['validate'], withClaude)
    expect(r.code).toBe(1)
    const line = lineOf(repo, 'WORKFLOW.md', 'command: scripts/agnet.sh')
    expect(r.stderr).toBe(
      `WORKFLOW.md:${line}: command "scripts/agnet.sh" of profiles "researcher", "implementer", "reviewer" does not exist; commit it or fix agent.command\n`
    )
  })

  it('names the CLI a misspelt command most likely meant', async () => {
    const { repo, withClaude } = await initialised()
    change(repo, 'WORKFLOW.md', 'command: claude', 'command: claud')
    const r = await cli(repo, ['validate'], withClaude)
    expect(r.code).toBe(0)
    expect(r.stderr).toContain(
      'command "claud" of profiles "researcher", "implementer", "reviewer" was not found on PATH (did you mean "claude"?); install it'
    )
  })

  it('renders every template strictly, on a first run and on a retry, with file:line', async () => {
    const { repo, withClaude } = await initialised()
    // Two in one file: each is reported, not only the first.
    change(repo, 'WORKFLOW.md', '{{ issue.title }}', '{{ issue.titel }} {{ trigger.sate }}')
    change(
      repo,
      '.itervox/agents/researcher/SOUL.md',
      '## What you care about',
      '{{ profile | shout }}\n## What you care about'
    )
    // Only a retry takes this branch.
    change(
      repo,
      '.itervox/agents/implementer/INSTRUCTIONS.md',
      '## Done when',
      '{% if attempt %}Attempt {{ attempt.count }}.{% endif %}\n## Done when'
    )
    const r = await cli(repo, ['validate'], withClaude)
    expect(r.code).toBe(1)
    const body = lineOf(repo, 'WORKFLOW.md', '{{ issue.titel }}')
    const soul = lineOf(repo, '.itervox/agents/researcher/SOUL.md', 'shout')
    const retry = lineOf(repo, '.itervox/agents/implementer/INSTRUCTIONS.md', 'attempt.count')
    const lines = r.stderr.split('\n').filter(Boolean)
    expect(lines).toHaveLength(4)
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(
            `^WORKFLOW\\.md:${body}:\\d+: prompt template: undefined variable: issue\\.titel; did you mean issue\\.title\\? Otherwise use one of issue\\.\\*, .* or guard it with \\{% if %\\} or \\| default: "\\.\\.\\."$`
          )
        ),
        expect.stringMatching(
          new RegExp(
            `^WORKFLOW\\.md:${body}:\\d+: prompt template: undefined variable: trigger\\.sate; did you mean trigger\\.state\\? `
          )
        ),
        expect.stringMatching(
          new RegExp(
            `^\\.itervox/agents/researcher/SOUL\\.md:${soul}:\\d+: SOUL\\.md: undefined filter: shout; `
          )
        ),
        expect.stringMatching(
          new RegExp(
            `^\\.itervox/agents/implementer/INSTRUCTIONS\\.md:${retry}:\\d+: INSTRUCTIONS\\.md: undefined variable: attempt\\.count; `
          )
        )
      ])
    )
    expect(r.stdout).toBe('')
  })

  it('refuses a workflow file outside the repository, whose profile files it cannot find', async () => {
    const { repo, withClaude } = await initialised()
    const outside = join(mkdtempSync(join(tmpdir(), 'outside-')), 'x.md')
    writeFileSync(outside, readFileSync(join(repo, 'WORKFLOW.md')))
    const r = await cli(repo, ['validate', '--workflow', outside], withClaude)
    expect(r.code).toBe(1)
    expect(r.stderr.trim()).toBe(
      `${outside} is outside the repository ${repo}; the workflow file must be in it (its profile files are found relative to it): copy it into the repository and pass that path`
    )
  })

  it("checks the workflow's label list against the states that start a stage", async () => {
    const { repo, withClaude } = await initialised()
    const yml = '.github/workflows/itervox.yml'
    const text = readFileSync(join(repo, yml), 'utf8')
    writeFileSync(
      join(repo, yml),
      text.replaceAll('["Todo","Implementing","Reviewing"]', '["Todo","Implementing","Review"]')
    )
    const r = await cli(repo, ['validate'], withClaude)
    expect(r.code).toBe(1)
    const [issues, prs] = text
      .split('\n')
      .flatMap((l, i) => (l.includes('fromJSON(\'["Todo"') ? [i + 1] : []))
    const redo = 'run itervox-handoff init --workflow-only, or edit the list'
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      `${yml}:${issues}: warning: the label list has "Review", which WORKFLOW.md starts no stage with: such a label starts a job that is skipped; ${redo}`,
      `${yml}:${prs}: warning: the label list has "Review", which WORKFLOW.md starts no stage with: such a label starts a job that is skipped; ${redo}`,
      `${yml}:${issues}: the label list lacks "Reviewing", which starts a stage in WORKFLOW.md: such a label would start nothing; ${redo}`,
      `${yml}:${prs}: the label list lacks "Reviewing", which starts a stage in WORKFLOW.md: such a label would start nothing; ${redo}`
    ])
  })

  it("warns when the workflow's manual run takes the issue as a string, not a number", async () => {
    const { repo, withClaude } = await initialised()
    const yml = '.github/workflows/itervox.yml'
    expect((await cli(repo, ['validate'], withClaude)).stderr).toBe('')
    // What init wrote before the input became a number.
    const text = readFileSync(join(repo, yml), 'utf8')
    const older = text.replace(/(\n {6}issue:\n(?: {8}.*\n)*? {8}type: )number\n/, '$1string\n')
    expect(older).not.toBe(text)
    writeFileSync(join(repo, yml), older)
    const r = await cli(repo, ['validate'], withClaude)
    expect(r.code).toBe(0)
    const line = older.split('\n').findIndex((l) => l === '        type: string') + 1
    expect(r.stderr).toBe(
      `${yml}:${line}: warning: the manual run's issue input is type string: a run given #42 would share no concurrency group with the label's job for 42 and could run the stage beside it; make it type: number\n`
    )
  })

  it('warns about a state the instructions tell an agent to ask for that does not exist', async () => {
    const { repo, withClaude } = await initialised()
    change(
      repo,
      '.itervox/agents/reviewer/INSTRUCTIONS.md',
      'move_state: Implementing',
      'move_state: Implementng'
    )
    const r = await cli(repo, ['validate'], withClaude)
    expect(r.code).toBe(0)
    const line = lineOf(repo, '.itervox/agents/reviewer/INSTRUCTIONS.md', 'Implementng')
    expect(r.stderr).toMatch(
      new RegExp(
        `^\\.itervox/agents/reviewer/INSTRUCTIONS\\.md:${line}:\\d+: warning: move_state: "Implementng" names no state of WORKFLOW\\.md, so an agent that asks for it is refused; did you mean "Implementing"\\?\\n$`
      )
    )
  })
})
