import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { parseWorkflow } from '../../src/config/load.js'
import { UserErrors } from '../../src/errors.js'
import { closeSharedObjects } from '../../src/git/objects.js'
import { loadWorkflowAt } from '../../src/action/workflow-source.js'
import { TempRepo } from '../helpers/git-repo.js'

const WORKFLOW = `---
itervox_schema_version: 2
tracker:
  kind: local
  project_slug: ENG
agent:
  profiles:
    writer:
      soul_file: agents/writer/SOUL.md
      instructions_file: agents/writer/INSTRUCTIONS.md
    editor:
      soul_file: agents/editor/SOUL.md
      instructions_file: agents/writer/INSTRUCTIONS.md
---
Write.
`

const FILES: Record<string, string> = {
  'agents/writer/SOUL.md': '\n  A writer.\n\n',
  'agents/writer/INSTRUCTIONS.md': 'Write it down.\n',
  'agents/editor/SOUL.md': 'An editor.\n'
}

describe('loadWorkflowAt', () => {
  let repo: TempRepo

  beforeAll(async () => {
    repo = await TempRepo.create('workflow-source-')
  })

  afterAll(async () => {
    await closeSharedObjects()
    await repo.remove()
  })

  it('gives what one parse with every profile file at hand gives', async () => {
    const commit = await repo.commit(
      [{ path: 'WORKFLOW.md', data: WORKFLOW }, ...Object.entries(FILES).map(file)],
      { replace: true }
    )
    const loaded = await loadWorkflowAt(repo.dir, commit, 'WORKFLOW.md', {})
    const whole = parseWorkflow(WORKFLOW, {
      file: 'WORKFLOW.md',
      env: {},
      readFile: (p) => FILES[p] ?? null
    })
    // Strictly: the profiles keep the prototype-less record a name from outside is looked up in.
    expect(loaded).toStrictEqual(whole)
    expect(loaded.config.agent.profiles.writer?.soulText).toBe('A writer.')
    expect(loaded.config.agent.profiles.editor?.instructionsText).toBe('Write it down.')
  })

  it('names every profile file that is missing or not a regular file', async () => {
    const commit = await repo.commit(
      [
        { path: 'WORKFLOW.md', data: WORKFLOW },
        file(['agents/writer/SOUL.md', 'A writer.']),
        { path: 'agents/editor/SOUL.md', data: '../writer/SOUL.md', mode: '120000' }
      ],
      { replace: true }
    )
    const thrown = await loadWorkflowAt(repo.dir, commit, 'WORKFLOW.md', {}).catch((e) => e)
    expect(thrown).toBeInstanceOf(UserErrors)
    expect((thrown as UserErrors).format()).toBe(
      [
        'WORKFLOW.md:10:7: agent.profiles.writer.instructions_file: agents/writer/INSTRUCTIONS.md does not exist in the repository; create it or fix the path',
        'WORKFLOW.md:12:7: agent.profiles.editor.soul_file: agents/editor/SOUL.md does not exist in the repository; create it or fix the path',
        'WORKFLOW.md:13:7: agent.profiles.editor.instructions_file: agents/writer/INSTRUCTIONS.md does not exist in the repository; create it or fix the path'
      ].join('\n')
    )
  })
})

function file([path, data]: [string, string]): { path: string; data: string } {
  return { path, data }
}
