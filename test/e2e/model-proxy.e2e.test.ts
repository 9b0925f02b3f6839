// The bundled action with a real key in the job's environment, for each preset's CLI: the
// scripted CLI reads its endpoint where the real one does and makes one streaming call, which
// must reach the model API (a loopback stand-in) through the action's proxy with the real key,
// while the agent itself only ever holds a placeholder.
import { afterEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { startFakeModelApi, streamedReply } from '../agent/fake-model-api.js'
import type { FakeModelApi, ModelApiKind, Seen } from '../agent/fake-model-api.js'
import { git, runAction, sharedDir, sharedFile, shownLog, testUser } from '../harness/action-run.js'
import { startPipeline, type Pipeline } from './pipeline-fixture.js'

const REAL_KEY = 'sk-real-0123456789abcdef'
const PLACEHOLDER = /^itervox-placeholder-[0-9a-f]{32}$/
const REPLY = 'The model says: export the report with a CSV writer.'

interface Case {
  command: 'claude' | 'codex' | 'gemini'
  kind: ModelApiKind
  /** The job's key variable, and its base URL variable with the path below the stand-in. */
  keyVar: string
  baseVar: string
  basePath: string
  /** The variable the agent's CLI reads its key from. */
  agentKeyVar: string
  /** The model call the stand-in must get, and the header the real key must arrive in. */
  call: { method: string; url: string }
  keyHeader: [string, string]
  /** Also run with isolation: none, where the agent holds the real key. */
  negative: boolean
}

const CASES: Case[] = [
  {
    command: 'claude',
    kind: 'anthropic',
    keyVar: 'ANTHROPIC_API_KEY',
    baseVar: 'ANTHROPIC_BASE_URL',
    basePath: '',
    agentKeyVar: 'ANTHROPIC_API_KEY',
    call: { method: 'POST', url: '/v1/messages?beta=true' },
    keyHeader: ['x-api-key', REAL_KEY],
    negative: true
  },
  {
    command: 'codex',
    kind: 'openai',
    keyVar: 'CODEX_API_KEY',
    baseVar: 'OPENAI_BASE_URL',
    basePath: '/v1',
    agentKeyVar: 'CODEX_API_KEY',
    call: { method: 'POST', url: '/v1/responses' },
    keyHeader: ['authorization', `Bearer ${REAL_KEY}`],
    negative: true
  },
  {
    // Codex itself would send no key for OPENAI_API_KEY; the agent gets CODEX_API_KEY instead.
    command: 'codex',
    kind: 'openai',
    keyVar: 'OPENAI_API_KEY',
    baseVar: 'OPENAI_BASE_URL',
    basePath: '/v1',
    agentKeyVar: 'CODEX_API_KEY',
    call: { method: 'POST', url: '/v1/responses' },
    keyHeader: ['authorization', `Bearer ${REAL_KEY}`],
    negative: false
  },
  {
    command: 'gemini',
    kind: 'gemini',
    keyVar: 'GEMINI_API_KEY',
    baseVar: 'GOOGLE_GEMINI_BASE_URL',
    basePath: '',
    agentKeyVar: 'GEMINI_API_KEY',
    call: { method: 'POST', url: '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse' },
    keyHeader: ['x-goog-api-key', REAL_KEY],
    negative: true
  }
]

/** What the scripted CLI wrote about itself (ITERVOX_TEST_REPORT). */
interface Report {
  cli: string
  uid: number
  env: Record<string, string>
}

let api: FakeModelApi | undefined
let current: Pipeline | undefined
afterEach(async () => {
  await current?.gh.stop()
  await api?.close()
  current = api = undefined
})

/** One stage of the researcher, the job holding the real key; the CLI's report and the run. */
async function stage(c: Case, inputs: Record<string, string> = {}) {
  api = await startFakeModelApi()
  api.answer = streamedReply(c.kind, REPLY)
  const p = (current = await startPipeline({ command: c.command }))
  const report = sharedFile(sharedDir(), 'report.json')
  const run = await runAction('main', p.sb, p.gh, {
    event: 'issues.labeled',
    eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada' },
    inputs,
    env: {
      [c.keyVar]: REAL_KEY,
      [c.baseVar]: `${api.url}${c.basePath}`,
      ITERVOX_TEST_REPORT: report
    }
  })
  const text = readFileSync(report, 'utf8')
  if (!text) throw new Error(`the agent wrote no report:\n${run.stdout}\n${run.stderr}`)
  return { p, run, report: JSON.parse(text) as Report, seen: api.seen }
}

function uidOf(name: string): number {
  return Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim())
}

const agentUser = () => testUser('t')

describe.each(CASES)('$command with $keyVar in the job', (c) => {
  it('reaches the model through the proxy with the real key, which the agent never sees', async () => {
    const { p, run, report, seen } = await stage(c)

    expect(run.code).toBe(0)
    expect(run.outputs.outcome).toBe('succeeded')
    // The agent ran as the agent user and held a placeholder, never the key.
    expect(report.cli).toBe(c.command)
    expect(report.uid).toBe(uidOf(agentUser()))
    const placeholder = report.env[c.agentKeyVar] ?? ''
    expect(placeholder).toMatch(PLACEHOLDER)
    expect(JSON.stringify(report)).not.toContain(REAL_KEY)
    // The stand-in got the call, with the real key where the provider reads it.
    const call = seen.find((s) => s.method === c.call.method && s.url === c.call.url)
    expect(call?.headers[c.keyHeader[0]]).toBe(c.keyHeader[1])
    expect(call?.body).toContain('Work on issue #1: Add CSV export.')
    expect(seen.filter((s: Seen) => s !== call)).toEqual([])
    expect(JSON.stringify(seen)).not.toContain(placeholder)
    expect(JSON.stringify(seen)).not.toContain('itervox-placeholder-')
    // The model's reply is in the committed deliverable.
    const path = run.outputs['handoff-path'] ?? ''
    expect(git(p.sb.origin, 'show', `refs/heads/itervox/${p.issue}:${path}`)).toContain(REPLY)
    expect(shownLog(run)).not.toContain(REAL_KEY)
  })

  if (c.negative) {
    it('with isolation: none, the agent holds the real key (what the test above rules out)', async () => {
      const { report } = await stage(c, { isolation: 'none' })
      expect(report.env[c.keyVar]).toBe(REAL_KEY)
      expect(JSON.stringify(report)).toContain(REAL_KEY)
    })
  }
})
