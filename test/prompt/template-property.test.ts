import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { UserError } from '../../src/errors.js'
import { templateBindings } from '../../src/prompt/bindings.js'
import { renderTemplate } from '../../src/prompt/template.js'
import { inputCounter, resultOrUserErrorAsync } from '../helpers/property.js'

const ran = inputCounter('renderTemplate')

/** The template renders to text, or ends in a UserError at WORKFLOW.md's lines. */
async function rendersOrExplains(text: string, bindings: Record<string, unknown>): Promise<void> {
  ran()
  const out = await resultOrUserErrorAsync(() =>
    renderTemplate({ text, file: 'WORKFLOW.md', line: 40, what: 'prompt template' }, bindings)
  )
  if (out instanceof UserError) expect(out.format()).toMatch(/^WORKFLOW\.md:\d+(:\d+)?: \S/)
  else expect(typeof out).toBe('string')
}

// Issue text is untrusted too: any string, in every field a template can print.
const bindings = fc
  .record({
    title: fc.string({ maxLength: 40 }),
    description: fc.string({ unit: 'binary', maxLength: 200 }),
    labels: fc.array(fc.string({ maxLength: 10 }), { maxLength: 4 }),
    state: fc.option(fc.string({ maxLength: 10 }), { nil: null }),
    comment: fc.string({ maxLength: 40 }),
    attempt: fc.option(fc.nat(5), { nil: null })
  })
  .map((b) =>
    templateBindings({
      issue: {
        id: '7',
        identifier: '#7',
        title: b.title,
        description: b.description,
        state: b.state,
        labels: b.labels,
        url: '',
        comments: [{ body: b.comment, author: 'alice', createdAt: '2026-05-26T14:30:45Z' }]
      },
      attempt: b.attempt,
      run: { timestamp: '2026-05-26T14-30-45.000Z', handoffPath: '.itervox/handoff/x.md' },
      trigger: { type: 'label', state: b.state, automation: null },
      profile: 'researcher'
    })
  )

// Liquid's pieces, so most inputs get past the tokenizer and into tags, loops and filters.
// Numbers stay small or absurd: absurd ones must fail fast, small ones keep loops quick.
const liquidish = fc
  .array(
    fc.constantFrom(
      '{{ ',
      ' }}',
      '{%- ',
      '{% ',
      ' %}',
      ' -%}',
      'for i in ',
      'for c in issue.comments',
      'endfor',
      'if ',
      'elsif ',
      'else',
      'endif',
      'unless ',
      'case ',
      'when ',
      'endcase',
      'assign s = ',
      'capture s',
      'endcapture',
      'raw',
      'endraw',
      'comment',
      'endcomment',
      'liquid ',
      'cycle "a", "b"',
      'increment n',
      'tablerow t in issue.labels',
      'endtablerow',
      'break',
      'echo ',
      'include "x"',
      '(1..3)',
      '(1..100000000)',
      '(-5..0)',
      ' | ',
      'append: s',
      'times: 100000000',
      'times: 3',
      'date: "%999Y"',
      'split: ""',
      'join: ","',
      'size',
      'default: "x"',
      'truncate: 3',
      'slice: 1, 2',
      'sort',
      'where: "x"',
      'map: "body"',
      'upcase',
      'escape',
      'shout',
      'issue.title',
      'issue.description',
      'issue.labels',
      'issue.nope',
      'c.body',
      'attempt',
      's',
      'i',
      '==',
      ' and ',
      ' or ',
      'contains',
      '"',
      "'",
      '\n',
      'x'
    ),
    { maxLength: 40 }
  )
  .map((parts) => parts.join(''))

// Well-formed templates, nested: loops, conditions, assignments and filter chains.
const value = fc.constantFrom(
  'issue.title',
  'issue.description',
  'issue.labels',
  'issue.comments',
  'issue.nope',
  'attempt',
  's',
  'i',
  '"xxxxxxxxxx"',
  '3',
  '100000000',
  '(1..3)',
  '(1..100000000)'
)
const filter = fc.constantFrom(
  'append: s',
  'append: issue.description',
  'times: 100000000',
  'times: 3',
  'plus: 1',
  'date: "%99999999Y"',
  'split: ""',
  'join: ","',
  'size',
  'first',
  'reverse',
  'sort',
  'uniq',
  'escape',
  'replace: "x", "xxxxxxxxxx"',
  'truncatewords: 2',
  'default: s',
  'json',
  'nope'
)
const expr = fc
  .tuple(value, fc.array(filter, { maxLength: 3 }))
  .map(([v, fs]) => [v, ...fs].join(' | '))
const liquid = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    expr.map((e) => `{{ ${e} }}`),
    expr.map((e) => `{% assign s = ${e} %}`),
    fc.constantFrom('x', '\n', '{% raw %}{{ x }}{% endraw %}', '{% increment n %}'),
    fc
      .tuple(value, tie('nodes'))
      .map(([range, body]) => `{% for i in ${range} %}${body}{% endfor %}`),
    fc.tuple(expr, tie('nodes')).map(([cond, body]) => `{% if ${cond} %}${body}{% endif %}`),
    tie('nodes').map((body) => `{% capture s %}${body}{% endcapture %}`)
  ),
  nodes: fc.array(tie('node'), { maxLength: 3 }).map((parts) => parts.join(''))
})).nodes

describe('renderTemplate on any template', () => {
  it('never throws anything but a UserError for arbitrary text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), bindings, (t, b) =>
        rendersOrExplains(t, b)
      ),
      { numRuns: 200 }
    )
  })

  it('never throws anything but a UserError for arbitrary Liquid', async () => {
    await fc.assert(
      fc.asyncProperty(liquidish, bindings, (t, b) => rendersOrExplains(t, b)),
      { numRuns: 500 }
    )
  })

  it('never throws anything but a UserError for nested loops, conditions and filters', async () => {
    await fc.assert(
      fc.asyncProperty(liquid, bindings, (t, b) => rendersOrExplains(t, b)),
      { numRuns: 300 }
    )
  })
})
