import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { chmodSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseWorkflow } from '../../src/config/load.js'
import { UserErrors } from '../../src/errors.js'
import { closeSharedObjects } from '../../src/git/objects.js'
import { loadWorkflowAt, workflowReadAhead } from '../../src/action/workflow-source.js'
import { TempRepo, gitSync } from '../helpers/git-repo.js'

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

  afterAll(() => repo.remove())

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

describe('workflowReadAhead', () => {
  let repo: TempRepo
  let checkout: string
  let tip: string

  beforeAll(async () => {
    repo = await TempRepo.create('workflow-ahead-')
    const files = Object.entries(FILES).map(file)
    checkout = await repo.commit([{ path: 'WORKFLOW.md', data: WORKFLOW }, ...files])
    tip = await repo.commit([{ path: 'WORKFLOW.md', data: WORKFLOW.replace('Write.', 'Edit.') }])
  })

  afterAll(async () => {
    await closeSharedObjects()
    await repo.remove()
  })

  const at = (commit: string) => {
    gitSync(repo.dir, 'checkout', '--quiet', '--detach', commit)
    return workflowReadAhead(repo.dir, 'WORKFLOW.md', {})
  }

  it('answers for the tip from the reading at the checkout when they are one commit', async () => {
    const ahead = at(tip)
    await ahead.start()
    // Git cannot read the commit any more: only the early reading can answer.
    await closeSharedObjects()
    const objects = join(repo.dir, '.git', 'objects')
    renameSync(objects, `${objects}.away`)
    try {
      expect((await ahead.at(tip)).config.body).toBe('Edit.')
    } finally {
      renameSync(`${objects}.away`, objects)
    }
  })

  it('reads WORKFLOW.md again at the tip when the checkout holds another commit', async () => {
    const ahead = at(checkout)
    await ahead.start()
    const loaded = await ahead.at(tip)
    expect(loaded).toStrictEqual(await loadWorkflowAt(repo.dir, tip, 'WORKFLOW.md', {}))
    expect(loaded.config.body).toBe('Edit.')
  })

  it('reads again when the early reading failed in git rather than in the files', async () => {
    const run = (args: string[], o: { input?: string; env?: Record<string, string> } = {}) =>
      execFileSync('git', args, {
        cwd: repo.dir,
        input: o.input ?? '',
        env: { ...process.env, ...o.env },
        encoding: 'utf8'
      }).trim()
    // A commit whose WORKFLOW.md is a loose object, then damaged: git's reader dies on it.
    const text = WORKFLOW.replace('Write.', 'Mend.')
    const blob = run(['hash-object', '-w', '--stdin'], { input: text })
    const index = { GIT_INDEX_FILE: join(repo.dir, '.git', 'index.mend') }
    run(['read-tree', checkout], { env: index })
    run(['update-index', '--cacheinfo', `100644,${blob},WORKFLOW.md`], { env: index })
    const tree = run(['write-tree'], { env: index })
    const who = { GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a' }
    const mended = run(['commit-tree', tree, '-p', checkout, '-m', 'mend'], {
      env: { ...who, GIT_COMMITTER_EMAIL: 'a@b' }
    })
    const ahead = at(mended)
    const loose = join(repo.dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2))
    chmodSync(loose, 0o644)
    writeFileSync(loose, 'not zlib')
    await ahead.start()
    // Mended before the tip is asked for, as a fetch would bring the object whole.
    rmSync(loose)
    run(['hash-object', '-w', '--stdin'], { input: text })
    expect((await ahead.at(mended)).config.body).toBe('Mend.')
  })

  it('reads at the tip when nothing was read ahead', async () => {
    expect((await at(checkout).at(tip)).config.body).toBe('Edit.')
  })
})
