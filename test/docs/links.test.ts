// Every relative link in the project's Markdown pages leads somewhere: the file or folder
// exists, and an #anchor names a heading of its page as GitHub slugs it. Moving a section
// between pages breaks links silently otherwise.
import { describe, expect, it } from '@jest/globals'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { ROOT } from '../cli/helpers.js'

const PAGES = [
  'README.md',
  'ARCHITECTURE.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  'SECURITY.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`)
]

/** The page's lines outside fenced code blocks. */
function proseLines(text: string): string[] {
  let fence: string | undefined
  const out: string[] = []
  for (const line of text.split('\n')) {
    const mark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence === undefined && mark) fence = mark
    else if (fence !== undefined && mark?.startsWith(fence[0]!) && mark.length >= fence.length)
      fence = undefined
    else if (fence === undefined) out.push(line)
  }
  return out
}

/** The anchor GitHub gives a heading: its text lower-cased, punctuation dropped, spaces as -. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** The anchors of a page's headings; a repeated heading gets -1, -2, … as on GitHub. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  for (const line of proseLines(text)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1]
    if (heading === undefined) continue
    const base = slug(heading)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    out.add(n === 0 ? base : `${base}-${n}`)
  }
  return out
}

/** The targets of a page's inline links, images and link definitions, code left out. */
function targets(text: string): string[] {
  const prose = proseLines(text)
    .join('\n')
    .replace(/(`+)[^]*?[^`]\1(?!`)/g, '')
  const inline = [
    ...prose.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)
  ]
  const defined = [...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/gm)]
  return [...inline, ...defined].map((m) => m[1]!)
}

/** What is wrong with each relative link of `page`, one line each. */
function brokenLinks(page: string): string[] {
  const problems: string[] = []
  for (const target of targets(readFileSync(join(ROOT, page), 'utf8'))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
    const [path = '', anchor] = target.split('#', 2)
    const file = path === '' ? join(ROOT, page) : resolve(ROOT, dirname(page), decodeURI(path))
    const shown = `${page}: (${target})`
    if (relative(ROOT, file).startsWith('..')) problems.push(`${shown} leaves the repository`)
    else if (!existsSync(file)) problems.push(`${shown}: no such file`)
    else if (anchor !== undefined && !file.endsWith('.md'))
      problems.push(`${shown}: an anchor on a file that is not Markdown`)
    else if (anchor !== undefined && !anchors(readFileSync(file, 'utf8')).has(anchor))
      problems.push(`${shown}: no heading #${anchor} in ${relative(ROOT, file)}`)
  }
  return problems
}

describe("the documentation's links", () => {
  it('slugs headings as GitHub does', () => {
    expect(slug('WORKFLOW.md reference')).toBe('workflowmd-reference')
    expect(slug("The agent's environment")).toBe('the-agents-environment')
    expect(slug('Limiting agents across issues: `agent.max_concurrent_agents`')).toBe(
      'limiting-agents-across-issues-agentmax_concurrent_agents'
    )
    expect(slug('Recovery: fallback agents, verify commands, blocking failures')).toBe(
      'recovery-fallback-agents-verify-commands-blocking-failures'
    )
    expect(slug('What `validate` checks')).toBe('what-validate-checks')
    expect(slug('Linear webhook relay (optional)')).toBe('linear-webhook-relay-optional')
  })

  it('leads to files that exist and headings that are there', () => {
    expect(PAGES).toContain('docs/operations.md')
    expect(PAGES.flatMap(brokenLinks)).toEqual([])
  })

  it('finds the links of every page, same-page and wrapped ones among them', () => {
    const found = PAGES.flatMap((p) => targets(readFileSync(join(ROOT, p), 'utf8')))
    expect(found).toContain('#troubleshooting')
    expect(found).toContain('docs/operations.md#the-workflow')
    // A link whose text wraps onto the next line.
    expect(found).toContain('docs/handoff-format.md#requests')
  })
})
