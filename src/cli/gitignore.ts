import { existsSync, lstatSync } from 'node:fs'
import { join } from 'node:path'
import { UserError } from '../errors.js'
import { readCappedText } from '../files/read-capped.js'
import { writeWhole } from '../files/write-whole.js'
import { git } from '../git/git.js'

/**
 * The root `.gitignore` lines that keep the profiles, the handoffs and local issues committable
 * while the rest of `.itervox/` (run records, logs) stays local. `!/.itervox/` first, so that an
 * earlier rule ignoring the whole folder no longer hides what the later lines re-include.
 */
const GITIGNORE_LINES = [
  '# itervox-handoff: profiles, handoffs and local issues are committed; the rest of .itervox/ is not',
  '!/.itervox/',
  '/.itervox/*',
  '!/.itervox/agents/',
  '!/.itervox/handoff/',
  '!/.itervox/issues/'
]

// init rewrites .gitignore whole; a real one is a few KiB.
const GITIGNORE_MAX_BYTES = 1024 * 1024

// Paths that must stay committable; they need not exist for git to judge them.
const PROBES = [
  '.itervox/agents/researcher/SOUL.md',
  '.itervox/handoff/2026-01-01T00-00-00.000Z_researcher.md'
]

export type GitignoreChange = 'created' | 'patched' | 'unchanged'

/**
 * Creates the root `.gitignore` with the lines above, or appends the missing ones when git
 * says it ignores a profile or handoff file. Idempotent: a second run changes nothing.
 */
export async function ensureGitignore(root: string): Promise<GitignoreChange> {
  const path = join(root, '.gitignore')
  let change: GitignoreChange
  if (!existsSync(path)) {
    writeWhole(path, GITIGNORE_LINES.join('\n') + '\n')
    change = 'created'
  } else {
    if (!lstatSync(path).isFile()) {
      throw new UserError('.gitignore is not a regular file; make it one, then run init again')
    }
    if ((await ignoredProbes(root)).length === 0) return 'unchanged'
    const text = readCappedText(path, GITIGNORE_MAX_BYTES, '.gitignore')
      .replace(/\r\n?/g, '\n')
      .replace(/\n*$/, '\n')
    const present = new Set(text.split('\n').map((l) => l.trim()))
    const missing = GITIGNORE_LINES.filter((l) => !present.has(l))
    writeWhole(path, `${text === '\n' ? '' : text}${missing.join('\n')}\n`)
    change = 'patched'
  }
  const still = await ignoredProbes(root)
  if (still.length > 0) {
    const { source, line, pattern, path: probe } = still[0]!
    throw new UserError(
      `the rule "${pattern}" still ignores ${probe}; remove that rule, or re-include the path after it`,
      { file: source, line }
    )
  }
  return change
}

interface Ignored {
  source: string
  line: number
  pattern: string
  path: string
}

/** Which probe paths git ignores, and by which rule (negated matches are not ignores). */
function ignoredProbes(root: string): Promise<Ignored[]> {
  return checkIgnore(root, PROBES, ['--no-index'])
}

/**
 * Which of these root-relative paths a rule leaves out of `git add`, and by which rule. A
 * path git already tracks is committed whatever the rules say.
 */
export function ignoringRules(root: string, paths: string[]): Promise<Ignored[]> {
  return checkIgnore(root, paths, [])
}

async function checkIgnore(root: string, paths: string[], flags: string[]): Promise<Ignored[]> {
  const r = await git(root, ['check-ignore', ...flags, '--verbose', '-z', '--stdin'], {
    input: paths.map((p) => `${p}\0`).join(''),
    okCodes: [1]
  })
  const fields = r.stdout.split('\0')
  const out: Ignored[] = []
  for (let i = 0; i + 3 < fields.length; i += 4) {
    const [source, line, pattern, path] = fields.slice(i, i + 4) as [string, string, string, string]
    if (pattern && !pattern.startsWith('!')) out.push({ source, line: Number(line), pattern, path })
  }
  return out
}
