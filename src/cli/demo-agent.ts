import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { Command } from './args.js'

/** Set in the demo's environment: the profile whose first run crashes. */
export const FAIL_AT_VAR = 'ITERVOX_DEMO_FAIL_AT'

/**
 * The demo's scripted agent: it keeps the agent contract (prompt on stdin, deliverable at
 * ITERVOX_HANDOFF_PATH) and writes what the profile would plausibly deliver, with no model and
 * no network. The profile named in ITERVOX_DEMO_FAIL_AT crashes half-way through its first run;
 * its next run finds the partial among the prior handoffs and finishes the work.
 */
export const demoAgentCommand: Command = {
  summary: "the demo's scripted agent",
  usage:
    'Usage: itervox-handoff __demo-agent (run by itervox-handoff demo, with the prompt on stdin)',
  async run() {
    const prompt = await readStdin()
    const path = process.env.ITERVOX_HANDOFF_PATH
    const profile = process.env.ITERVOX_PROFILE ?? 'agent'
    if (!path) {
      process.stderr.write('demo agent: ITERVOX_HANDOFF_PATH is not set\n')
      return 2
    }
    const prior = priorHandoffs(prompt)
    const partial = prior.find((n) => n.endsWith(`_${profile}.partial.md`))
    const title = /working on issue \S+: (.+)\.$/m.exec(prompt)?.[1] ?? 'the issue'
    process.stdout.write(
      `read ${Buffer.byteLength(prompt)} bytes of prompt, ${prior.length} prior handoffs\n`
    )

    if (process.env[FAIL_AT_VAR] === profile && !partial) {
      write(
        path,
        `# ${profile}: work in progress\n\n- [x] read the prior handoffs\n- [ ] finish the ${profile} deliverable\n`
      )
      process.stderr.write(`demo agent: simulated crash of ${profile} (--fail-at ${profile})\n`)
      return 1
    }
    const resumed = partial
      ? [`- Picked up from \`${partial}\`, which an earlier run left unfinished.`]
      : []
    if (profile === 'implementer') write('src/slugify.js', SLUGIFY)
    write(path, deliverable(profile, title, prior, resumed))
    process.stdout.write(`wrote ${path}\n`)
    return 0
  }
}

function deliverable(profile: string, title: string, prior: string[], resumed: string[]): string {
  const read = `- Read ${prior.length} prior handoff${prior.length === 1 ? '' : 's'}${prior.length ? `: ${prior.map((p) => `\`${p}\``).join(', ')}` : ''}.`
  switch (profile) {
    case 'researcher':
      return lines(
        `# Research: ${title}`,
        '',
        '## Findings',
        read,
        ...resumed,
        '- `src/` holds the code, as ES modules; there is no text helper yet.',
        '',
        '## Risks',
        '- Accented letters should fold to ASCII; every other character separates words.',
        '',
        '## Recommendation',
        'Add `src/slugify.js` exporting `slugify(text)`: lower-case ASCII letters and digits, words',
        'joined by `-`, no `-` at either end.'
      )
    case 'implementer':
      return lines(
        `# Implementation: ${title}`,
        '',
        '## Changes',
        read,
        ...resumed,
        '- `src/slugify.js`: new `slugify(text)`, as the research recommends.',
        '',
        '## Commands run',
        "- `node -e \"import('./src/slugify.js').then((m) => console.log(m.slugify('Héllo, Wörld!')))\"` prints `hello-world`.",
        '',
        '## For the reviewer',
        '- Letters outside the Latin script are dropped rather than transliterated.'
      )
    case 'reviewer':
      return lines(
        '---',
        'verdict: PASS',
        'comment: Reviewed the change; no critical or important findings.',
        '---',
        `# Review: ${title}`,
        '',
        read,
        ...resumed,
        '- Compared `src/slugify.js` with the research brief: it does what was scoped.',
        '',
        '## Critical',
        'None.',
        '',
        '## Important',
        'None.',
        '',
        '## Minor',
        '- `src/slugify.js:4`: a test file would pin the accent folding; add one with a test runner.'
      )
    default:
      return lines(`# ${profile}: ${title}`, '', read, ...resumed)
  }
}

const SLUGIFY = `// A URL slug: lower-case ASCII letters and digits, words joined by "-".
export function slugify(text) {
  return text
    .normalize('NFKD')
    .replace(/[\\u0300-\\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}
`

/** The file names of the `### <file>` headers in the prompt's Prior Agent Handoffs block. */
function priorHandoffs(prompt: string): string[] {
  return [...prompt.matchAll(/^### (\S+\.md)(?: \(partial\b.*)?$/gm)].map((m) => m[1]!)
}

function lines(...l: string[]): string {
  return l.join('\n') + '\n'
}

function write(path: string, text: string): void {
  const full = resolve(path)
  mkdirSync(dirname(full), { recursive: true })
  writeFileSync(full, text)
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
