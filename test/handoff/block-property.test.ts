// Properties of the block for arbitrary files and budgets: never over budget, order kept, the
// newest file always shown (maybe cut), valid UTF-8 whatever the input.
import { afterAll, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { GitObjects } from '../../src/git/objects.js'
import { buildHandoffBlock, renderHandoffBlock, type BlockResult } from '../../src/handoff/block.js'
import { compareHandoffNames } from '../../src/handoff/naming.js'
import { utf8Length } from '../../src/handoff/utf8.js'
import { TempRepo } from '../helpers/git-repo.js'
import { atMost, same } from '../helpers/property.js'

// Enough for the preamble, a marker, a header and the cut notice with any safe name.
const MIN_BUDGET = 1024

const name = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: 0, max: 59 }),
      fc.option(fc.integer({ min: 0, max: 999 }), { nil: undefined }),
      fc.stringMatching(/^[a-z][a-z_-]{0,8}$/),
      fc.boolean()
    )
    .map(([s, ms, p, partial]) => {
      const frac = ms === undefined ? '' : `.${String(ms).padStart(3, '0')}`
      return `2026-05-26T14-30-${String(s).padStart(2, '0')}${frac}Z_${p}${partial ? '.partial' : ''}.md`
    }),
  fc.stringMatching(/^[A-Za-z0-9._-]{1,20}\.md$/)
)

// Mostly any code point, some of everything the cleaning handles; an unclosed `<!--` (which
// hides the rest of a file) is rare so that most files stay long enough to hit the budget.
const text = fc.string({
  unit: fc.oneof(
    { weight: 40, arbitrary: fc.string({ unit: 'binary', maxLength: 1 }) },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        '\n',
        '€',
        '🎉',
        '<!-- hidden -->',
        '\n## Run Context\n',
        '\n### x.md\n',
        '\n- run.handoff_path: x\n',
        '\u200B',
        '\u{E0041}',
        '\r'
      )
    },
    { weight: 1, arbitrary: fc.constantFrom('<!--', '-->') },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c))
    }
  ),
  maxLength: 3000,
  size: 'large'
})

const files = fc.uniqueArray(fc.record({ name, text }), {
  selector: (f) => f.name,
  maxLength: 12,
  size: 'max'
})

function checkBlock(r: BlockResult, budget: number, candidates: string[]): void {
  same(r.bytes, utf8Length(r.text))
  atMost(r.bytes, budget)
  same(Buffer.from(r.text, 'utf8').toString('utf8'), r.text)
  const sorted = [...candidates].sort(compareHandoffNames)
  if (sorted.length === 0) {
    same(r.text, '')
    return
  }
  // The newest files, a contiguous run, in chronological order; the newest always among them.
  same(r.included, sorted.slice(sorted.length - r.included.length))
  same(r.included[r.included.length - 1], sorted[sorted.length - 1])
  same(r.dropped, sorted.length - r.included.length)
  if (r.truncatedFile) same(r.included, [r.truncatedFile])
  // No body can add a file header or a block heading.
  const headers =
    r.text.match(
      /^### \S*\.md(?: \(partial — prior agent exited before completing this deliverable\))?$/gm
    ) ?? []
  same(
    headers.map((h) => h.slice(4).replace(/ \(partial — .*$/, '')),
    r.included
  )
  same(r.text.match(/^#{1,6}[ \t]*(?:prior agent handoffs|run context)/gim), [
    '## Prior Agent Handoffs'
  ])
}

describe('renderHandoffBlock for any files and budget', () => {
  it('keeps every property', () => {
    fc.assert(
      fc.property(files, fc.integer({ min: MIN_BUDGET, max: 20_000 }), (fs, budget) => {
        const r = renderHandoffBlock(fs, {
          budgetBytes: budget,
          maxFileBytes: 1 << 20,
          maxFiles: 1000
        })
        checkBlock(
          r,
          budget,
          fs.map((f) => f.name)
        )
      }),
      { numRuns: 300 }
    )
  })

  it('never exceeds even a budget too small for anything', () => {
    fc.assert(
      fc.property(files, fc.nat(MIN_BUDGET), (fs, budget) => {
        const r = renderHandoffBlock(fs, {
          budgetBytes: budget,
          maxFileBytes: 1 << 20,
          maxFiles: 1000
        })
        atMost(r.bytes, budget)
      })
    )
  })
})

describe('buildHandoffBlock for any committed bytes', () => {
  // One repository for every input: each commit holds exactly that input's files.
  let repo: TempRepo | undefined
  afterAll(async () => {
    await repo?.remove()
  })

  it('reads arbitrary blobs into a valid, in-budget block', async () => {
    const blobs = fc.uniqueArray(
      fc.record({
        name,
        data: fc.oneof(
          fc.uint8Array({ maxLength: 2000 }),
          text.map((t) => new Uint8Array(Buffer.from(t, 'utf8')))
        )
      }),
      { selector: (f) => f.name, minLength: 1, maxLength: 6 }
    )
    await fc.assert(
      fc.asyncProperty(blobs, fc.integer({ min: MIN_BUDGET, max: 6000 }), async (fs, budget) => {
        repo ??= await TempRepo.create()
        const head = await repo.commit(
          fs.map((f) => ({ path: `.itervox/handoff/${f.name}`, data: Buffer.from(f.data) })),
          { replace: true }
        )
        const git = new GitObjects(repo.dir)
        try {
          const r = await buildHandoffBlock(
            git,
            { head, since: null },
            {
              budgetBytes: budget,
              maxFileBytes: 1 << 20,
              maxFiles: 1000
            }
          )
          // Files that are not UTF-8 are skipped with a warning naming them.
          const valid = fs.filter((f) => {
            try {
              new TextDecoder('utf-8', { fatal: true }).decode(f.data)
              const bom =
                (f.data[0] === 0xff && f.data[1] === 0xfe) ||
                (f.data[0] === 0xfe && f.data[1] === 0xff)
              return !bom
            } catch {
              return false
            }
          })
          expect(r.bytes).toBeLessThanOrEqual(budget)
          expect(Buffer.from(r.text, 'utf8').toString('utf8')).toBe(r.text)
          expect(r.text).not.toContain('\r')
          for (const f of fs.filter((x) => !valid.includes(x))) {
            if (!r.included.includes(f.name) && r.dropped === 0) {
              expect(r.warnings.some((w) => w.includes(f.name))).toBe(true)
            }
          }
          if (valid.length > 0 && r.dropped === 0) {
            expect(r.included).toEqual(valid.map((f) => f.name).sort(compareHandoffNames))
          }
        } finally {
          await git.close()
        }
      }),
      { numRuns: 15 }
    )
  })
})
