// The candidates read from a raw tree's newest end must be exactly those of the full parse
// (`fromEntries`, the code the block used before): same entries, same order, same omitted
// count, same warnings, for any directory, fork point, own path and cap.
import { createHash } from 'node:crypto'
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { RawTree } from '../../src/git/raw-tree.js'
import { fromEntries, treeCandidates } from '../../src/handoff/tree-candidates.js'

interface Spec {
  name: string
  mode?: string
  /** Stands for the blob's contents: same seed, same oid. */
  seed?: string
}

const oidOf = (s: Spec) =>
  createHash('sha1')
    .update(s.seed ?? s.name)
    .digest()

/** A raw tree object with entries in the order given (git would sort them; tests may not). */
function rawTree(specs: Spec[]): RawTree {
  const parts = specs.map((s) =>
    Buffer.concat([
      Buffer.from(`${s.mode ?? '100644'} `),
      Buffer.from(s.name),
      Buffer.from([0]),
      oidOf(s)
    ])
  )
  return new RawTree(Buffer.concat(parts), 20)
}

// Git's order: bytes, a directory's name as if it ended in `/`.
function gitSorted(specs: Spec[]): Spec[] {
  const key = (s: Spec) => Buffer.from(s.mode === '40000' ? `${s.name}/` : s.name)
  const unique = new Map(specs.map((s) => [s.name, s]))
  return [...unique.values()].sort((a, b) => Buffer.compare(key(a), key(b)))
}

function expectSame(
  head: Spec[],
  since: Spec[] | null,
  opts: { maxFiles: number; ownPath?: string }
) {
  const h = rawTree(head)
  const s = since ? rawTree(since) : null
  const fast = treeCandidates(h, s, opts)
  const full = fromEntries(h.entries(), s?.entries() ?? null, opts)
  expect(fast).toEqual(full)
  return fast
}

const ts = (minute: number, frac = '.000') =>
  `2026-05-26T14-${String(minute).padStart(2, '0')}-00${frac}Z`

describe('candidates from the raw tree', () => {
  it('takes the newest timestamped files from the end and names the cap’s range', () => {
    const head = gitSorted(
      Array.from({ length: 50 }, (_, i) => ({ name: `${ts(i)}_p${i % 3}.md` }))
    )
    const found = expectSame(head, null, { maxFiles: 5 })
    expect(found.entries.map((e) => e.name)).toEqual(
      head
        .slice(-5)
        .reverse()
        .map((s) => s.name)
    )
    expect(found.omitted).toBe(45)
    expect(found.warnings).toEqual([
      `only the newest 5 of 50 prior handoff files were considered; 45 older ones (${head[0]!.name} … ${head[44]!.name}) were left out`
    ])
  })

  it('sorts names outside the convention by their instant among the rest, as the full parse does', () => {
    const head = gitSorted([
      { name: `${ts(1)}_a.md` },
      { name: `${ts(1, '')}_b.md` }, // whole seconds: sorts as .000, before `.000Z_a`? by name
      { name: `${ts(2, '.5')}_c.md` }, // one digit: .500, before .600 though `.5Z` > `.6` in bytes
      { name: `${ts(2, '.600')}_d.md` },
      { name: `${ts(2, '.123456')}_e.md` },
      { name: 'notes.md' },
      { name: 'ZZ.md' },
      { name: `${ts(3)}.md` }, // no `_`: a plain name, sorted as its bytes
      { name: `${ts(3)}_f.md` },
      { name: `${ts(9)}_g.md` },
      { name: 'README.txt' }
    ])
    for (const maxFiles of [0, 1, 2, 3, 5, 8, 9, 100]) expectSame(head, null, { maxFiles })
  })

  it('reports skipped entries in listing order and leaves out directories and the own deliverable', () => {
    const own = `.itervox/handoff/${ts(7)}_me.md`
    const head = gitSorted([
      { name: `${ts(1)}_a.md` },
      { name: `${ts(2)}_link.md`, mode: '120000' },
      { name: `${ts(3)}_mod.md`, mode: '160000' },
      { name: `${ts(4)}_run.md`, mode: '100755' },
      { name: `${ts(5)}_odd.md`, mode: '100664' },
      { name: `${ts(6)}_bad name.md` },
      { name: `${ts(6)}_é.md` },
      { name: `${ts(7)}_me.md` },
      { name: `${ts(7)}_me.partial.md` },
      { name: `${ts(8)}_dir.md`, mode: '40000' },
      ...Array.from({ length: 12 }, (_, i) => ({ name: `${ts(10 + i)}_l${i}.md`, mode: '120000' }))
    ])
    const found = expectSame(head, null, { maxFiles: 1000, ownPath: own })
    expect(found.entries.map((e) => e.name)).toEqual([`${ts(4)}_run.md`, `${ts(1)}_a.md`])
    expect(found.warnings).toHaveLength(4)
  })

  it('leaves out what the fork point had, shared leading entries or not, and says which were changed', () => {
    const base = Array.from({ length: 30 }, (_, i) => ({ name: `${ts(i)}_p.md` }))
    const since = gitSorted(base)
    const cases: Spec[][] = [
      gitSorted([...base, { name: `${ts(40)}_new.md` }, { name: `${ts(41)}_new.md` }]),
      // The branch changed an old one and removed the first: no shared leading entries.
      gitSorted([
        ...base.slice(1, 10),
        { ...base[10]!, seed: 'edited' },
        ...base.slice(11),
        { name: `${ts(42)}_x.md` }
      ]),
      // An entry added among the old ones, and one that only the fork point has.
      gitSorted([...base.slice(0, 5), { name: `${ts(5)}_between.md` }, ...base.slice(6)]),
      gitSorted(base)
    ]
    for (const head of cases) {
      for (const maxFiles of [1, 1000]) expectSame(head, since, { maxFiles })
    }
    const changed = expectSame(cases[1]!, since, { maxFiles: 1000 })
    expect(changed.warnings[0]).toMatch(/^left out 1 handoff file that was on the base branch/)
    expect(changed.entries.map((e) => e.name)).toEqual([`${ts(42)}_x.md`])
  })

  it('takes the full parse for a tree out of byte order: hand-made, or a directory beside a file', () => {
    const unsorted = [
      { name: `${ts(5)}_late.md` },
      { name: `${ts(1)}_early.md` },
      { name: `${ts(3)}_mid.md` }
    ]
    const found = expectSame(unsorted, null, { maxFiles: 2 })
    expect(found.entries.map((e) => e.name)).toEqual([`${ts(5)}_late.md`, `${ts(3)}_mid.md`])
    expectSame(unsorted, gitSorted([{ name: `${ts(3)}_mid.md` }]), { maxFiles: 10 })
    // `a` (a directory) sorts after `a.md` in git, before it in bytes.
    const withDir = gitSorted([
      { name: 'a', mode: '40000' },
      { name: 'a.md' },
      { name: `${ts(1)}_x.md` }
    ])
    expectSame(withDir, null, { maxFiles: 10 })
    expectSame(gitSorted([{ name: `${ts(1)}_x.md` }]), withDir, { maxFiles: 10 })
  })

  it('equals the full parse for any directory and fork point', () => {
    const spec = fc.record({
      name: fc.oneof(
        fc
          .tuple(
            fc.integer({ min: 0, max: 59 }),
            fc.constantFrom('', '.000', '.5', '.500', '.999', '.123456'),
            fc.stringMatching(/^[a-z_.-]{0,4}$/),
            fc.constantFrom('_', '', '-')
          )
          .map(([m, frac, p, sep]) => `${ts(m, frac)}${sep}${p}.md`),
        fc.stringMatching(/^[A-Za-z0-9 ._é-]{1,8}(\.md)?$/)
      ),
      mode: fc.constantFrom('100644', '100644', '100644', '100755', '120000', '160000', '40000'),
      seed: fc.constantFrom('x', 'y')
    })
    fc.assert(
      fc.property(
        fc.array(spec, { maxLength: 40 }),
        fc.option(fc.array(spec, { maxLength: 40 }), { nil: null }),
        fc.integer({ min: 0, max: 45 }),
        fc.boolean(),
        (head, since, maxFiles, shareBase) => {
          const headSpecs = gitSorted(shareBase && since ? [...since, ...head] : head)
          const own = headSpecs.find((s) => s.name.endsWith('.md'))
          expectSame(headSpecs, since ? gitSorted(since) : null, {
            maxFiles,
            ownPath: own ? `.itervox/handoff/${own.name}` : undefined
          })
        }
      ),
      { numRuns: 500 }
    )
  })
})
