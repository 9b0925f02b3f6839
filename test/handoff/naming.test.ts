import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import {
  compareHandoffNames,
  handoffPath,
  isRunTimestamp,
  isValidProfileName,
  parseRunFileName,
  partialPathOf,
  runTimestamp
} from '../../src/handoff/naming.js'

describe('run timestamps and paths', () => {
  it('formats UTC with milliseconds and no colon', () => {
    const ts = runTimestamp(new Date(Date.UTC(2026, 4, 25, 14, 30, 45, 0)))
    expect(ts).toBe('2026-05-25T14-30-45.000Z')
    expect(ts).not.toContain(':')
    expect(isRunTimestamp(ts)).toBe(true)
  })

  it('gives timestamps 120 ms apart that differ and sort ascending', () => {
    const a = runTimestamp(new Date(Date.UTC(2026, 4, 25, 14, 30, 45, 950)))
    const b = runTimestamp(new Date(Date.UTC(2026, 4, 25, 14, 30, 46, 70)))
    expect(a).toBe('2026-05-25T14-30-45.950Z')
    expect(b).toBe('2026-05-25T14-30-46.070Z')
    expect(compareHandoffNames(`${a}_x.md`, `${b}_x.md`)).toBeLessThan(0)
  })

  it('refuses dates it cannot write in the fixed shape', () => {
    expect(() => runTimestamp(new Date(NaN))).toThrow()
    expect(() => runTimestamp(new Date(Date.UTC(10000, 0, 1)))).toThrow(/year out of range/)
  })

  it('checks the timestamp shape', () => {
    for (const bad of [
      '2026-05-25T14:30:45.000Z',
      '2026-05-25T14-30-45Z',
      '2026-05-25T14-30-45.00Z',
      ''
    ]) {
      expect(isRunTimestamp(bad)).toBe(false)
    }
  })

  it('builds the deliverable path with forward slashes', () => {
    expect(handoffPath('2026-05-25T14-30-45.000Z', 'implementer')).toBe(
      '.itervox/handoff/2026-05-25T14-30-45.000Z_implementer.md'
    )
    expect(() => handoffPath('2026-05-25T14-30-45.000Z', '../x')).toThrow(/bad profile name/)
    expect(() => handoffPath('now', 'x')).toThrow(/bad run timestamp/)
  })

  it('maps a path to its partial', () => {
    expect(partialPathOf('.itervox/handoff/T_a.md')).toBe('.itervox/handoff/T_a.partial.md')
    expect(partialPathOf('.itervox/handoff/T_a.partial.md')).toBe('.itervox/handoff/T_a.partial.md')
    expect(() => partialPathOf('x.txt')).toThrow()
  })

  it('accepts only [A-Za-z0-9._-]+ profile names of a sane length (case 16)', () => {
    for (const good of ['implementer', 'story-writer', 'v1.2_beta', 'A', '..']) {
      expect(isValidProfileName(good)).toBe(true)
    }
    for (const bad of [
      '',
      'story writer',
      'agent:../../etc',
      'stage:..%2f',
      'a/b',
      'a\\b',
      '\u0456mplementer', // Cyrillic і look-alike
      'x\n',
      'x'.repeat(101)
    ]) {
      expect(isValidProfileName(bad)).toBe(false)
    }
  })

  it('splits a run file name even when the profile holds underscores', () => {
    expect(parseRunFileName('2026-05-25T14-30-45.000Z_a_b.md')).toEqual({
      timestamp: '2026-05-25T14-30-45.000Z',
      profile: 'a_b'
    })
    expect(parseRunFileName('2026-05-25T14-30-45Z_b.md')?.profile).toBe('b')
    expect(parseRunFileName('2026-05-25T14-30-45.000Z_b.partial.md')).toBeNull()
    expect(parseRunFileName('notes.md')).toBeNull()
  })
})

describe('compareHandoffNames', () => {
  it('counts a missing fraction as .000 and breaks ties by the raw name', () => {
    const sorted = [
      '2026-05-26T14-30-45.123Z_x.md',
      'notes.md',
      '2026-05-26T14-30-45Z_y.md',
      '2026-05-26T14-30-45.000Z_z.md',
      '2026-05-26T14-30-44.5Z_w.md'
    ].sort(compareHandoffNames)
    expect(sorted).toEqual([
      '2026-05-26T14-30-44.5Z_w.md',
      '2026-05-26T14-30-45.000Z_z.md',
      '2026-05-26T14-30-45Z_y.md',
      '2026-05-26T14-30-45.123Z_x.md',
      'notes.md'
    ])
  })

  const name = fc.oneof(
    fc
      .tuple(
        fc.integer({ min: 0, max: 59 }),
        fc.option(fc.integer({ min: 0, max: 999 }), { nil: undefined }),
        fc.constantFrom('a', 'b', 'a_b', 'x.partial')
      )
      .map(([s, ms, p]) => {
        const frac = ms === undefined ? '' : `.${String(ms).padStart(3, '0')}`
        return `2026-05-26T14-30-${String(s).padStart(2, '0')}${frac}Z_${p}.md`
      }),
    fc.stringMatching(/^[A-Za-z0-9._-]{1,12}\.md$/)
  )

  it('is a total order (antisymmetric and transitive)', () => {
    fc.assert(
      fc.property(name, name, name, (a, b, c) => {
        // 0 - x rather than -x: toBe tells -0 from 0, and a name compares as 0 with itself.
        expect(Math.sign(compareHandoffNames(a, b))).toBe(0 - Math.sign(compareHandoffNames(b, a)))
        if (compareHandoffNames(a, b) === 0) expect(a).toBe(b)
        if (compareHandoffNames(a, b) <= 0 && compareHandoffNames(b, c) <= 0) {
          expect(compareHandoffNames(a, c)).toBeLessThanOrEqual(0)
        }
      })
    )
  })

  it('orders millisecond names by their instant', () => {
    fc.assert(
      fc.property(
        fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(Date.UTC(9999, 0, 1)) }),
        fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(Date.UTC(9999, 0, 1)) }),
        (x, y) => {
          const a = `${runTimestamp(x)}_p.md`
          const b = `${runTimestamp(y)}_p.md`
          expect(Math.sign(compareHandoffNames(a, b))).toBe(Math.sign(x.getTime() - y.getTime()))
        }
      )
    )
  })
})
