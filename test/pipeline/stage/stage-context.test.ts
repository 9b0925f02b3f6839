import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  loadStageContext,
  saveStageContext,
  type StageContext
} from '../../../src/pipeline/stage/stage-context.js'

const CTX: StageContext = {
  stage: {
    key: {
      issue: '42',
      state: 'Todo',
      entry: 1,
      kind: 'work',
      profile: 'implementer',
      attempt: 0,
      round: 0,
      resume: 0
    },
    issue: { id: '42' },
    profile: {
      name: 'implementer',
      requiredSections: ['Summary'],
      commitPaths: ['src/**'],
      env: ['SERVICE_TOKEN']
    },
    branch: { repo: '/work/repo', branch: 'itervox/42', baseSha: 'a'.repeat(40), created: false },
    run: '7',
    startedAt: new Date('2026-05-26T14:30:45.000Z'),
    timestamp: '2026-05-26T14-30-45.000Z',
    handoffReason: 'specialization'
  },
  job: { config: { handoff: { maxFileBytes: 1024 }, agent: {} }, workflowPath: 'WORKFLOW.md' },
  phase: 'committed',
  committed: { sha: null, outcome: 'cancelled', reason: 'stopped', handoffPath: null }
}

describe('stage context', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stage-context-'))

  it('reads back what was saved', () => {
    const path = join(dir, 'saved', 'stage.json')
    saveStageContext(path, CTX)
    expect(loadStageContext(path)).toEqual(CTX)
  })

  it('is null when the file is missing, not JSON, or not shaped like a context', () => {
    const path = join(dir, 'stage.json')
    expect(loadStageContext(path)).toBeNull()
    for (const text of [
      '{',
      '[]',
      JSON.stringify({ ...CTX, stage: { ...CTX.stage, branch: { ...CTX.stage.branch, repo: 1 } } }),
      JSON.stringify({ ...CTX, stage: { ...CTX.stage, startedAt: 'yesterday' } }),
      JSON.stringify({ ...CTX, phase: 'elsewhere' }),
      JSON.stringify({ ...CTX, committed: { ...CTX.committed, outcome: 'won' } }),
      JSON.stringify({ ...CTX, snapshot: { repo: '/work/repo' } })
    ]) {
      writeFileSync(path, text)
      expect(loadStageContext(path)).toBeNull()
    }
  })
})
