import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { scaffoldFiles } from '../../src/cli/scaffold.js'
import { loadWorkflowFile, parseWorkflow } from '../../src/config/load.js'
import type { WorkflowConfig } from '../../src/config/types.js'
import type { IssueRecord, StageRecord } from '../../src/pipeline/record/record.js'
import { oneLine } from '../../src/pipeline/untrusted-text.js'
import { MAX_RECORD_BYTES, readRecordFromComment } from '../../src/tracker/comment-record.js'
import {
  pipelineDiagram,
  renderStatusComment,
  stageTable
} from '../../src/tracker/status-comment.js'
import { deepCopy } from '../helpers/deep-copy.js'
import { defined } from '../helpers/defined.js'

const SEED = 'test/fixtures/workflows/seed/WORKFLOW.md'

// Loaded once: the property below wants a fresh config for each of its 300 runs, and a copy
// costs a fraction of reading, parsing and validating the file again.
const SEEDED = loadWorkflowFile(SEED, { LINEAR_API_KEY: 'lin_api_test' }).config

/** A copy of the seed's config, the caller's to change. */
function seed(): WorkflowConfig {
  return deepCopy(SEEDED)
}

/** The action's blob links: `<server>/<owner>/<repo>/blob/<commit>/<path>`. */
const BLOB = (commit: string, path: string) => `https://github.com/o/r/blob/${commit}/${path}`
const SHA = '0123456789abcdef0123456789abcdef01234567'

/** WORKFLOW.md as `init` (and `demo`) write it. */
function scaffolded(): WorkflowConfig {
  const [workflow] = scaffoldFiles({ tracker: 'github', command: 'claude', implementerPaths: [] })
  return parseWorkflow(defined(workflow, 'WORKFLOW.md').text, {
    file: 'WORKFLOW.md',
    env: {},
    readFile: (path) =>
      scaffoldFiles({ tracker: 'github', command: 'claude', implementerPaths: [] }).find(
        (f) => f.path === path
      )?.text ?? null
  }).config
}

function stage(over: Partial<StageRecord> = {}): StageRecord {
  return {
    entry: 1,
    state: 'Todo',
    profile: 'researcher',
    kind: 'work',
    attempt: 0,
    round: 0,
    outcome: 'succeeded',
    reason: '',
    run: '100/1',
    runUrl: 'https://github.com/o/r/actions/runs/100/attempts/1',
    startedAt: '2026-05-26T15:12:00.000Z',
    durationMs: 242_000,
    handoffPath: '.itervox/handoff/2026-05-26T15-12-00.000Z_researcher.md',
    commit: SHA,
    ...over
  }
}

function record(over: Partial<IssueRecord> = {}): IssueRecord {
  return {
    v: 1,
    state: 'Researching',
    entry: 2,
    transitions: 1,
    round: 0,
    stages: [stage()],
    ...over
  }
}

/** The record as our writer encodes it, for building comments by hand. */
function encoded(value: unknown): string {
  return JSON.stringify(value).replace(/[<>-]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`)
}

// Every line the diagram may contain; labels are letters, digits, a few marks and `#n;` codes.
const LABEL = `"(?:[\\p{L}\\p{N} _.,'-]|#\\d+;)+"`
const DIAGRAM_LINE = new RegExp(
  [
    '^flowchart LR$',
    `^  s\\d+\\[${LABEL}\\]$`,
    `^  s\\d+ (?:-->|-\\.->)\\|${LABEL}\\| s\\d+$`,
    '^  classDef current fill:#fff4ce,stroke:#9a6700,stroke-width:3px,color:#1f2328$',
    '^  class s\\d+ current$'
  ].join('|'),
  'u'
)

function decode(label: string): string {
  return label.replace(/#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)))
}

function labels(diagram: string): string[] {
  return [...diagram.matchAll(/"([^"]*)"/g)].map((m) => decode(m[1] ?? ''))
}

describe('pipelineDiagram', () => {
  it('draws the seed pipeline with the current state marked', () => {
    expect(pipelineDiagram(seed(), 'Researching')).toBe(
      [
        'flowchart LR',
        '  s0["Todo"]',
        '  s1["Researching"]',
        '  s2["Implementing"]',
        '  s3["Reviewing"]',
        '  s4["Done"]',
        `  s5["Won't Do"]`,
        '  s0 -->|"researcher"| s1',
        '  s1 -->|"implementer"| s2',
        '  s2 -->|"reviewer"| s3',
        // Every seed profile may move_state: each may send the work one state back.
        '  s1 -.->|"sent back"| s0',
        '  s2 -.->|"sent back"| s1',
        '  s0 -.->|"retries spent"| s5',
        '  s1 -.->|"retries spent"| s5',
        '  s2 -.->|"retries spent"| s5',
        '  classDef current fill:#fff4ce,stroke:#9a6700,stroke-width:3px,color:#1f2328',
        '  class s1 current'
      ].join('\n')
    )
  })

  it('marks nothing without a current state, and matches states case-insensitively', () => {
    expect(pipelineDiagram(seed(), null)).not.toMatch(/class(Def)? /)
    expect(pipelineDiagram(seed(), 'reviewing')).toMatch(/\n {2}class s3 current$/)
  })

  it('adds a state the pipeline does not know when the issue is in it', () => {
    const diagram = pipelineDiagram(seed(), 'Blocked')
    expect(diagram).toContain('\n  s6["Blocked"]\n')
    expect(diagram).toMatch(/\n {2}class s6 current$/)
  })

  it('draws review loops with auto_review and leaves disabled automations out', () => {
    const config = seed()
    config.agent.autoReview = true
    defined(config.automations[1], 'automations[1]').enabled = false
    const diagram = pipelineDiagram(config, null)
    expect(diagram).toContain('  s0 -.->|"reviewer FAIL"| s0')
    // The reviewer's own stage is not reviewed again.
    expect(diagram).not.toContain('s2 -.->|"reviewer FAIL"| s2')
    expect(diagram).not.toContain('implementer')
    expect(diagram.split('\n').filter((l) => l.includes('reviewer FAIL'))).toHaveLength(1)
  })

  it("draws the reviewer's send-back of init's pipeline, from the config alone", () => {
    const config = scaffolded()
    const diagram = pipelineDiagram(config, null)
    const ids = Object.fromEntries(
      [...diagram.matchAll(/ {2}(s\d+)\["([^"]*)"\]/g)].map((m) => [decode(m[2] ?? ''), m[1]])
    )
    const back = diagram.split('\n').filter((l) => l.includes('sent back'))
    // Only the reviewer may move_state: it sends the work back to the implementer.
    expect(back).toEqual([`  ${ids.Reviewing} -.->|"sent back"| ${ids.Implementing}`])
    // One review round only: the first send-back escalates, so there is none to draw.
    config.agent.maxReviewRounds = 1
    config.agent.autoReview = true
    config.agent.reviewers = ['reviewer']
    expect(pipelineDiagram(config, null)).not.toMatch(/sent back|FAIL/)
  })

  it('keeps hostile state and profile names inside their labels', () => {
    const config = seed()
    const hostile =
      'x"] --> evil[|"<b>`md`</b>|"\n%%{init: {"theme":"dark"}}%%\n# end; click s0 call'
    config.tracker.failedState = hostile
    defined(config.automations[0], 'automations[0]').profile = hostile
    const diagram = pipelineDiagram(config, hostile)
    for (const line of diagram.split('\n')) expect(line).toMatch(DIAGRAM_LINE)
    const flat = hostile.replace(/\s+/g, ' ')
    expect(labels(diagram)).toContain(flat)
    expect(diagram).not.toMatch(/%%|`|\n {2}click/)
  })

  it('never lets any name break the diagram grammar (property)', () => {
    const unit = fc.constantFrom(
      ...['a', 'Z', '7', ' ', '"', "'", '[', ']', '(', ')', '{', '}', '|', '#', ';', '%', ':'],
      ...['<', '>', '-', '`', '\\', '&', '\n', '\t', 'é', '中', '😀', '.', '_', ',']
    )
    fc.assert(
      fc.property(
        fc.string({ unit, minLength: 1, maxLength: 40 }),
        fc.string({ unit, minLength: 1, maxLength: 40 }),
        (state, profile) => {
          const config = seed()
          const second = defined(config.automations[1], 'automations[1]')
          second.moveToState = state
          second.profile = profile
          const diagram = pipelineDiagram(config, state)
          for (const line of diagram.split('\n')) expect(line).toMatch(DIAGRAM_LINE)
          // Names are shown as untrusted text is: on one line, with hidden Markdown (such as a
          // link reference definition, `[a]:a`) taken out.
          const shown = (s: string) => oneLine(s) || '(none)'
          expect(labels(diagram)).toEqual(expect.arrayContaining([shown(state), shown(profile)]))
        }
      ),
      { numRuns: 300 }
    )
  })

  it('caps long labels', () => {
    const config = seed()
    config.tracker.failedState = 'W'.repeat(500)
    const label = labels(pipelineDiagram(config, null)).find((l) => l.startsWith('W'))
    expect(label).toBe('W'.repeat(79) + '…')
  })
})

describe('stageTable', () => {
  it('renders stages oldest first with links (golden)', () => {
    const r = record({
      stages: [
        stage({
          state: 'Researching',
          profile: 'implementer',
          kind: 'review',
          attempt: 1,
          round: 1,
          outcome: 'timed_out',
          reason: 'the deadline passed',
          run: '101/2',
          runUrl: undefined,
          startedAt: '2026-05-26T16:00:00.000Z',
          durationMs: 3_725_000,
          handoffPath: '.itervox/handoff/2026-05-26T16-00-00.000Z_implementer.partial.md'
        }),
        stage({ agent: { turns: 12, inputTokens: 5120, outputTokens: 230, costUsd: 0.042 } })
      ]
    })
    expect(stageTable(r, { blobUrl: BLOB })).toBe(
      [
        '| # | State | Profile | Outcome | Deliverable | Run |',
        '|---|---|---|---|---|---|',
        `| 1 | Todo | researcher | succeeded | [researcher.md](https://github.com/o/r/blob/${SHA}/.itervox/handoff/2026-05-26T15-12-00.000Z_researcher.md) | [100/1](https://github.com/o/r/actions/runs/100/attempts/1) |`,
        `| 2 | Researching | implementer | timed_out — the deadline passed | [implementer.partial.md](https://github.com/o/r/blob/${SHA}/.itervox/handoff/2026-05-26T16-00-00.000Z_implementer.partial.md) | 101/2 |`,
        '',
        '<details><summary>Stage details</summary>',
        '',
        '- **1** started 2026-05-26 15:12:00 UTC, work, attempt 1, took 4m 2s; 12 turns, 5120 input tokens, 230 output tokens, $0.0420',
        '- **2** started 2026-05-26 16:00:00 UTC, review, attempt 2, round 2, took 1h 2m',
        '',
        '</details>'
      ].join('\n')
    )
  })

  it('links a deliverable only at the commit the record names', () => {
    const table = stageTable(
      record({ stages: [stage({ commit: undefined }), stage({ commit: 'HEAD' })] }),
      { blobUrl: BLOB }
    )
    // It never reached the repository (or the commit is not one): its path, unlinked.
    expect(
      table.match(/\| \.itervox\/handoff\/2026-05-26T15-12-00\.000Z_researcher\.md \|/g)
    ).toHaveLength(2)
    expect(table).not.toContain('/blob/')
  })

  it('keeps a hostile commit, path or branch in the link from opening another link', () => {
    const evil = ') ![x](https://evil.example/p.png) [y](javascript:alert(1)'
    const table = stageTable(
      record({
        stages: [
          stage({ commit: `${SHA}${evil}` }),
          stage({ handoffPath: `.itervox/handoff/a${evil}.md` }),
          stage({ run: `1/1]${evil}`, runUrl: `https://github.com/o/r/actions/runs/1${evil}` })
        ]
      }),
      // A link to the file on a branch named by an attacker, as a tracker might make one.
      { blobUrl: (_commit, path) => `https://github.com/o/r/blob/itervox/x${evil}/${path}` }
    )
    const rows = table.split('\n').slice(2, 5)
    for (const row of rows) {
      // Six cells, and at most the two links we made: nothing opened a link or an image.
      expect(row.split(' | ')).toHaveLength(6)
      expect(row).not.toMatch(/!\[|\]\((?!https:\/\/github\.com\/o\/r\/)/)
      expect(row.match(/\]\(/g)?.length ?? 0).toBeLessThanOrEqual(2)
    }
    expect(rows[2]).toContain('(https://github.com/o/r/blob/itervox/x%29%20!%5Bx%5D%28')
  })

  it('shows the path when there is no link, and says when nothing ran', () => {
    expect(stageTable(record())).toContain(
      '| .itervox/handoff/2026-05-26T15-12-00.000Z_researcher.md |'
    )
    expect(stageTable(record({ stages: [] }))).toBe('_No stage has run yet._')
  })

  it('escapes hostile reasons so every row keeps its six cells', () => {
    const reason =
      'x --> y | z\n\n| a | b |\r\n`code` <script>alert(1)</script> [click](javascript:alert(1)) ' +
      '![img](https://evil.example/p.png) @octocat #1 \\| &#124;'
    const table = stageTable(
      record({ stages: [stage({ outcome: 'failed', reason, runUrl: undefined })] })
    )
    const row = table.split('\n')[2]
    expect(table.split('\n')[3]).toBe('')
    expect(row?.split('|')).toHaveLength(8)
    expect(row).not.toMatch(/[<>`[\]\\]/)
    expect(row).toContain('failed — x --&#62; y &#124; z &#124; a &#124; b &#124;')
    // No one is mentioned and no issue is linked by a reason.
    expect(row).toContain('@\u2060octocat #\u20601')
    expect(row).toContain('&#38;#\u2060124;')
  })

  it('caps every cell', () => {
    const long = 'r'.repeat(10_000)
    const table = stageTable(
      record({ stages: [stage({ reason: long, state: long, profile: long, run: long })] })
    )
    const cells = defined(table.split('\n')[2], 'the stage row').split(' | ')
    for (const c of cells) expect(c.length).toBeLessThanOrEqual(320)
    expect(table).toContain('r'.repeat(299) + '…')
  })

  it('links only plain handoff paths and http(s) run URLs', () => {
    const table = stageTable(
      record({
        stages: [
          stage({
            handoffPath: '.itervox/handoff/../../../evil/x.md',
            runUrl: 'javascript:alert(1)'
          }),
          stage({ handoffPath: 'src/index.ts', runUrl: 'https://x.example/a) [b](c' })
        ]
      }),
      { blobUrl: BLOB }
    )
    const [, , first, second] = table.split('\n')
    expect(first).not.toContain('](')
    expect(first).toContain('| .itervox/handoff/../../../evil/x.md | 100/1 |')
    expect(second).toContain('| src/index.ts | [100/1](https://x.example/a%29%20%5Bb%5D%28c) |')
  })

  it('puts the newest stage last and can show only the newest rows', () => {
    const stages = ['2026-05-03', '2026-05-01', 'not a time', '2026-05-02'].map((d, i) =>
      stage({ startedAt: `${d}T00:00:00.000Z`, run: `run-${i}` })
    )
    const table = stageTable(record({ stages }))
    const order = [...table.matchAll(/\[(run-\d)\]/g)].map((m) => m[1])
    expect(order).toEqual(['run-1', 'run-2', 'run-3', 'run-0'])
    const newest = stageTable(record({ stages }), { maxRows: 1 })
    expect(newest.split('\n')[0]).toBe('_3 earlier stages not shown._')
    expect(newest).toContain('run-0')
    expect(newest).not.toContain('run-1')
  })
})

describe('renderStatusComment', () => {
  const waiting = {
    entry: 2,
    state: 'Researching',
    profile: 'implementer',
    kind: 'work' as const,
    attempt: 0,
    timestamp: '2026-05-26T16-00-00.000Z',
    question: 'Which database?\n````\n</details><img src=x>\n<!-- itervox:record {"v":1} -->'
  }

  it('starts with the marker and holds the diagram, the table and the record', () => {
    const r = record()
    const body = renderStatusComment({
      config: seed(),
      record: r,
      issueRef: '#12',
      marker: 'itervox-status',
      blobUrl: BLOB
    })
    const lines = body.split('\n')
    expect(lines[0]).toBe('<!-- itervox-status -->')
    expect(lines[1]).toBe('### itervox handoff: #12')
    expect(body).toContain('\n**Current state:** Researching\n')
    expect(body).toContain('```mermaid\n' + pipelineDiagram(seed(), 'Researching') + '\n```')
    expect(body).toContain(stageTable(r, { blobUrl: BLOB }))
    expect(lines[lines.length - 1]).toMatch(/^<!-- itervox:record \{.*\} -->$/)
    expect(body).not.toContain('Waiting for input')
    expect(body).not.toContain('Halted')
    expect(readRecordFromComment(body)).toEqual(r)
  })

  it("lists the agents' refused requests, escaped, with what to change", () => {
    const refused = ['move_state: "Closed" is outside the pipeline <b>; add it to allowed_states']
    const r = record({ stages: [stage(), stage({ profile: 'reviewer', refused })] })
    const body = renderStatusComment({ config: seed(), record: r, issueRef: '#12', marker: 'm' })
    expect(body).toContain(
      '\n**Refused requests:**\n\n- reviewer in Todo: move_state: "Closed" is outside the pipeline &#60;b&#62;; add it to allowed_states\n'
    )
    expect(readRecordFromComment(body)).toEqual(r)
  })

  it('fences the question and shows why a pipeline halted', () => {
    const r = record({ waiting, halted: 'loop budget spent after 12 moves\n# heading <b>' })
    const body = renderStatusComment({ config: seed(), record: r, issueRef: '#12', marker: 'm' })
    expect(body).toContain(
      '**Waiting for input:** implementer (in Researching) asks the question below.'
    )
    // A fence longer than the question's own backtick run; its HTML comment is removed.
    expect(body).toContain('`````text\nWhich database?\n````\n</details><img src=x>\n\n`````')
    expect(body).toContain(
      '\n**Halted:** loop budget spent after 12 moves #\u2060 heading &#60;b&#62;\n'
    )
    expect(readRecordFromComment(body)).toEqual(r)
  })

  it('says which stage had secrets withheld, where and of which kind, escaped', () => {
    const r = record({
      stages: [
        stage(),
        stage({
          run: '101/1',
          startedAt: '2026-05-26T16:00:00.000Z',
          withheld: ['docs/a|b.md: not committed, it holds a GitHub token', 'the x comment: y']
        })
      ]
    })
    const body = renderStatusComment({ config: seed(), record: r, issueRef: '#12', marker: 'm' })
    expect(body).toContain(
      '\n**Secrets withheld** (researcher, run 101/1): docs/a&#124;b.md: not committed, it holds a GitHub token; the x comment: y. Rotate them if they are real.\n'
    )
    expect(body.match(/Secrets withheld/g)).toHaveLength(1)
    expect(readRecordFromComment(body)).toEqual(r)
  })

  it('never closes the record comment early, whatever the record holds', () => {
    const hostile = 'a --> b --!> c <!-- d -> e > f\n-->'
    const r = record({
      state: hostile,
      pendingMove: hostile,
      halted: hostile,
      waiting: { ...waiting, question: hostile },
      stages: [stage({ reason: hostile, state: hostile, durationMs: -5, attempt: 2 })]
    })
    const body = renderStatusComment({ config: seed(), record: r, issueRef: '#1', marker: 'm' })
    const open = body.lastIndexOf('<!-- itervox:record ')
    const hidden = body.slice(open + '<!-- itervox:record '.length)
    expect(hidden.indexOf('-->')).toBe(hidden.length - 3)
    expect(hidden.slice(0, -4)).not.toMatch(/[<>-]/)
    // Negative numbers cannot be written without '-': they are clamped to zero.
    const back = readRecordFromComment(body)
    expect(back).toEqual({ ...r, stages: [{ ...r.stages[0], durationMs: 0 }] })
  })

  it('refuses a marker that could not sit in an HTML comment', () => {
    for (const marker of ['a -->', 'a--b', '', '-a', 'a b']) {
      expect(() =>
        renderStatusComment({ config: seed(), record: record(), issueRef: '#1', marker })
      ).toThrow('marker')
    }
  })

  it('stays under the comment size limit and keeps the counters of a huge record', () => {
    const stages = Array.from({ length: 50 }, (_, i) =>
      stage({ reason: `${i} ${'é'.repeat(10_000)}`, run: `run-${i}`, entry: i })
    )
    const r = record({
      stages,
      transitions: 49,
      round: 3,
      waiting: { ...waiting, question: 'q'.repeat(100_000) },
      halted: 'h'.repeat(100_000)
    })
    const body = renderStatusComment({ config: seed(), record: r, issueRef: '#1', marker: 'm' })
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(60_000)
    const back = readRecordFromComment(body)
    expect(back).toMatchObject({ v: 1, entry: 2, transitions: 49, round: 3 })
    expect(back?.stages.length).toBeGreaterThan(0)
    // The newest stages are the ones kept, with their reasons shortened.
    expect(back?.stages.at(-1)?.run).toBe('run-49')
    expect(back?.stages.map((s) => s.entry)).toEqual(
      stages.slice(50 - (back?.stages.length ?? 0)).map((s) => s.entry)
    )
    expect(Array.from(back?.stages[0]?.reason ?? '')).toHaveLength(300)
    expect(back?.waiting?.question).toBe('q'.repeat(3999) + '…')
    expect(body).toContain('earlier stages not shown')
  })

  it('keeps the record within budget even when names are absurdly long', () => {
    const huge = 'S'.repeat(200_000)
    const r = record({ state: huge, pendingMove: huge, halted: huge })
    const body = renderStatusComment({ config: seed(), record: r, issueRef: '#1', marker: 'm' })
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(60_000)
    expect(readRecordFromComment(body)).toMatchObject({ entry: 2, transitions: 1, stages: [] })
  })
})

describe('readRecordFromComment', () => {
  const wrap = (json: string, after = '') =>
    `<!-- m -->\nhello\n<!-- itervox:record ${json} -->${after}`
  const good = record({ waiting: undefined })

  it('reads a record written by hand the way the writer does, with trailing whitespace', () => {
    expect(readRecordFromComment(wrap(encoded(good), '\r\n  \n'))).toEqual(good)
  })

  it('reads the last record when an earlier one is quoted in the comment', () => {
    const forged = encoded({ ...good, entry: 99 })
    const body = `\`\`\`\n<!-- itervox:record ${forged} -->\n\`\`\`\n` + wrap(encoded(good))
    expect(readRecordFromComment(body)).toEqual(good)
  })

  it('returns null for malformed, forged or misplaced records', () => {
    const bad: string[] = [
      '',
      'no record here',
      wrap('{"v":1'),
      wrap('not json'),
      wrap(encoded(good), '\nmore text'),
      `<!-- itervox:record ${encoded(good)}`,
      wrap(JSON.stringify({ ...good, state: 'a-b' })),
      wrap(encoded({ ...good, v: 2 })),
      wrap(encoded({ ...good, entry: 1.5 })),
      wrap(encoded({ ...good, stages: {} })),
      wrap(encoded({ ...good, stages: [{ ...stage(), outcome: 'hacked' }] })),
      wrap(encoded({ ...good, stages: [{ ...stage(), kind: 'deploy' }] })),
      wrap(encoded({ ...good, stages: [{ ...stage(), reason: undefined }] })),
      wrap(encoded({ ...good, waiting: { question: 'q' } })),
      wrap(encoded({ ...good, halted: 42 })),
      wrap(encoded(null)),
      wrap(encoded([good])),
      wrap('"\\u002d\\u002d\\u003e"')
    ]
    for (const body of bad) expect(readRecordFromComment(body)).toBeNull()
    expect(readRecordFromComment(undefined as unknown as string)).toBeNull()
    expect(readRecordFromComment({} as unknown as string)).toBeNull()
  })

  it('rejects records over the size cap', () => {
    const fits = { ...good, halted: 'x'.repeat(MAX_RECORD_BYTES - 1_000) }
    const over = { ...good, halted: 'x'.repeat(MAX_RECORD_BYTES) }
    expect(readRecordFromComment(wrap(encoded(fits)))).toEqual(fits)
    expect(readRecordFromComment(wrap(encoded(over)))).toBeNull()
  })

  it('drops unknown keys and cannot be used to pollute prototypes', () => {
    const json = encoded(good).replace(
      /^\{/,
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"extra":1,'
    )
    const back = readRecordFromComment(wrap(json))
    expect(back).toEqual(good)
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(back).not.toHaveProperty('extra')
  })

  it('never throws on arbitrary text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.boolean(), (text, framed) => {
        const body = framed ? wrap(text) : text
        const back = readRecordFromComment(body)
        expect(back === null || back.v === 1).toBe(true)
      }),
      { numRuns: 500 }
    )
  })
})
