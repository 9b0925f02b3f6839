import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadWorkflowFile } from '../../src/config/load.js'
import { UserError, UserErrors } from '../../src/errors.js'
import { makeFifo } from '../helpers/fifo.js'
import { thrownBy } from './helpers.js'

const WORKFLOW = `---
itervox_schema_version: 2
tracker:
  kind: local
  project_slug: ENG
agent:
  profiles:
    writer:
      soul_file: ../agents/writer/SOUL.md
      instructions_file: INSTRUCTIONS.md
---
Write.
`

describe('loadWorkflowFile', () => {
  let repo: string
  const stopWatchdogs: (() => void)[] = []

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'workflow-file-'))
    mkdirSync(join(repo, '.git'))
    mkdirSync(join(repo, 'cfg'))
    mkdirSync(join(repo, 'agents/writer'), { recursive: true })
    writeFileSync(join(repo, 'agents/writer/SOUL.md'), 'A writer.\n')
    writeFileSync(join(repo, 'cfg/INSTRUCTIONS.md'), 'Write it down.\n')
    writeFileSync(join(repo, 'cfg/WORKFLOW.md'), WORKFLOW)
  })

  afterAll(() => {
    for (const stop of stopWatchdogs) stop()
    rmSync(repo, { recursive: true, force: true })
  })

  it('reads profile files relative to the workflow folder, as repository paths', () => {
    const { config } = loadWorkflowFile(join(repo, 'cfg/WORKFLOW.md'), {})
    expect(config.file).toBe(join(repo, 'cfg/WORKFLOW.md'))
    expect(config.agent.profiles.writer).toMatchObject({
      soulFile: 'agents/writer/SOUL.md',
      soulText: 'A writer.',
      instructionsFile: 'cfg/INSTRUCTIONS.md',
      instructionsText: 'Write it down.'
    })
    expect(config.tracker.projectSlug).toBe('ENG')
  })

  it('does not follow a symlink out of the repository', () => {
    const outside = mkdtempSync(join(tmpdir(), 'workflow-outside-'))
    writeFileSync(join(outside, 'secret.md'), 'secret')
    const dir = join(repo, 'linked')
    mkdirSync(dir)
    symlinkSync(join(outside, 'secret.md'), join(dir, 'INSTRUCTIONS.md'))
    writeFileSync(join(dir, 'WORKFLOW.md'), WORKFLOW)
    try {
      const thrown = thrownBy(() => loadWorkflowFile(join(dir, 'WORKFLOW.md'), {}))
      expect(thrown).toBeInstanceOf(UserErrors)
      expect((thrown as UserErrors).format()).toBe(
        `${join(dir, 'WORKFLOW.md')}:10:7: agent.profiles.writer.instructions_file: linked/INSTRUCTIONS.md does not exist in the repository; create it or fix the path`
      )
    } finally {
      rmSync(outside, { recursive: true, force: true })
    }
  })

  it('refuses a WORKFLOW.md that is a FIFO, a directory or a device, without waiting', () => {
    const dir = join(repo, 'special')
    mkdirSync(join(dir, 'folder', 'WORKFLOW.md'), { recursive: true })
    stopWatchdogs.push(makeFifo(join(dir, 'WORKFLOW.md')))
    symlinkSync('/dev/zero', join(dir, 'zero.md'))
    const cases = {
      'WORKFLOW.md': 'a named pipe (FIFO), not a regular file; replace it with a regular file',
      'folder/WORKFLOW.md': 'a directory, not a regular file; replace it with a regular file',
      'zero.md': 'a device, not a regular file; replace it with a regular file'
    }
    for (const [name, message] of Object.entries(cases)) {
      const path = join(dir, name)
      const thrown = thrownBy(() => loadWorkflowFile(path, {}))
      expect(thrown).toBeInstanceOf(UserError)
      expect((thrown as UserError).format()).toBe(`${path}: ${message}`)
    }
  })

  it('refuses a WORKFLOW.md over 1 MiB', () => {
    const path = join(repo, 'cfg/HUGE.md')
    writeFileSync(path, WORKFLOW + '#'.repeat(1024 * 1024))
    const thrown = thrownBy(() => loadWorkflowFile(path, {}))
    expect((thrown as UserError).format()).toBe(
      `${path}: larger than the 1 MiB this file may hold; make it smaller`
    )
  })

  it('reports a profile file that is a FIFO or too large at the key naming it', () => {
    const dir = join(repo, 'odd-profiles')
    mkdirSync(dir)
    stopWatchdogs.push(makeFifo(join(dir, 'INSTRUCTIONS.md')))
    writeFileSync(join(dir, 'WORKFLOW.md'), WORKFLOW)
    writeFileSync(join(repo, 'agents/writer/SOUL.md'), 'x'.repeat(1024 * 1024 + 1))
    try {
      const thrown = thrownBy(() => loadWorkflowFile(join(dir, 'WORKFLOW.md'), {}))
      expect(thrown).toBeInstanceOf(UserErrors)
      expect((thrown as UserErrors).format().split('\n')).toEqual([
        `${join(dir, 'WORKFLOW.md')}:9:7: agent.profiles.writer.soul_file: agents/writer/SOUL.md: larger than the 1 MiB this file may hold; make it smaller`,
        `${join(dir, 'WORKFLOW.md')}:10:7: agent.profiles.writer.instructions_file: odd-profiles/INSTRUCTIONS.md: a named pipe (FIFO), not a regular file; replace it with a regular file`
      ])
    } finally {
      writeFileSync(join(repo, 'agents/writer/SOUL.md'), 'A writer.\n')
    }
  })

  it('says so when the workflow file cannot be read', () => {
    const missing = join(repo, 'nope/WORKFLOW.md')
    const thrown = thrownBy(() => loadWorkflowFile(missing, {}))
    expect(thrown).toBeInstanceOf(UserError)
    expect((thrown as UserError).format()).toBe(
      `${missing}: cannot read the workflow file (ENOENT); check the path`
    )
  })
})
