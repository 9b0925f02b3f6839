import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  loadStageContext,
  saveStageContext,
  type StageContext
} from '../../src/pipeline/stage-context.js'

const CTX: StageContext = {
  repo: '/work/repo',
  branch: 'itervox/42',
  baseSha: 'a'.repeat(40),
  created: false,
  issue: '42',
  profile: 'implementer',
  runId: '7',
  timestamp: '2026-05-26T14-30-45.000Z',
  handoffPath: '.itervox/handoff/2026-05-26T14-30-45.000Z_implementer.md',
  requiredSections: ['Summary'],
  maxFileBytes: 1024,
  commitPaths: ['src/**'],
  secretNames: ['SERVICE_TOKEN'],
  workflowPath: 'WORKFLOW.md',
  startedAt: '2026-05-26T14:30:45.000Z',
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
      JSON.stringify({ ...CTX, repo: 1 }),
      JSON.stringify({ ...CTX, phase: 'elsewhere' }),
      JSON.stringify({ ...CTX, committed: { ...CTX.committed, outcome: 'won' } }),
      JSON.stringify({ ...CTX, snapshot: { repo: '/work/repo' } })
    ]) {
      writeFileSync(path, text)
      expect(loadStageContext(path)).toBeNull()
    }
  })
})
