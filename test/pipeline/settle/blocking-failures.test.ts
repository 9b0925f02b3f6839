import { describe, expect, it } from '@jest/globals'
import { blockingFailures } from '../../../src/pipeline/settle/blocking-failures.js'

describe('blockingFailures', () => {
  it('returns the section up to the next heading of level 1 or 2', () => {
    const md =
      '# Impl\n\n## Blocking failures\n\n- `npm test` fails in csv.test.ts\n### detail\nmore\n## Next\nok\n'
    expect(blockingFailures(md)).toBe('- `npm test` fails in csv.test.ts\n### detail\nmore')
  })

  it('is null without the section, when it is empty or says none', () => {
    expect(blockingFailures('# Impl\n\nDone.\n')).toBeNull()
    expect(blockingFailures('## Blocking failures\n\n## Next\n')).toBeNull()
    expect(blockingFailures('## Blocking Failures\n\nNone.\n')).toBeNull()
    expect(blockingFailures('## Blocking failures\n- n/a\n')).toBeNull()
  })

  it('ignores a heading inside fenced code', () => {
    expect(blockingFailures('```md\n## Blocking failures\nbroken\n```\n')).toBeNull()
    expect(blockingFailures('## Blocking failures\n~~~\n## Next\n~~~\nstill\n## After\n')).toBe(
      '~~~\n## Next\n~~~\nstill'
    )
  })
})
