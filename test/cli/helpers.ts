// Runs the bundled CLI (dist/cli/index.js) as `npx itervox-handoff` would, or the CLI as src/
// has it, in throwaway git repositories, with a scripted agent whose behaviour each test picks
// per profile.
import { execFile, execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildSync } from 'esbuild'
import { scaffoldFiles } from '../../src/cli/scaffold.js'

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const CLI = join(ROOT, 'dist', 'cli', 'index.js')

export interface Run {
  code: number
  stdout: string
  stderr: string
}

/** The environment a CLI run gets: PATH and a private HOME, plus `env`. */
export function cliEnv(home: string, env: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, ...env }
}

export function cli(cwd: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runNode(CLI, cwd, args, env)
}

/** The CLI as `src/` has it now, whether or not dist/ was rebuilt since. */
export function cliFromSource(
  cwd: string,
  args: string[],
  env: Record<string, string> = {}
): Promise<Run> {
  return runNode(sourceBundle(), cwd, args, env)
}

let bundled: string | undefined

/**
 * `src/cli` bundled by esbuild into a temp folder named for a hash of the sources, so the suites
 * of one run (each in a worker of its own) bundle it once between them. Running the source
 * through tsx instead compiled and loaded every module again in each run, six times the CPU of
 * a run. The folder is laid out as the package is (dist/cli/ below its package.json), so that
 * `--version` finds the version.
 */
function sourceBundle(): string {
  if (bundled) return bundled
  const hash = createHash('sha256')
  const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).sort()
  for (const f of files) {
    const path = join(ROOT, 'src', f)
    if (statSync(path).isFile()) hash.update(`${f}\0`).update(readFileSync(path)).update('\0')
  }
  for (const f of ['package.json', 'package-lock.json']) hash.update(readFileSync(join(ROOT, f)))
  const at = join(tmpdir(), `cli-source-${hash.digest('hex').slice(0, 16)}`)
  const out = (dir: string) => join(dir, 'dist', 'cli', 'index.mjs')
  if (existsSync(out(at))) return (bundled = out(at))
  const dir = mkdtempSync(join(tmpdir(), 'cli-source-'))
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'))
  buildSync({
    entryPoints: [join(ROOT, 'src', 'cli', 'index.ts')],
    outfile: out(dir),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    // The CommonJS packages inside call require().
    banner: {
      js: "import { createRequire } from 'node:module'\nconst require = createRequire(import.meta.url)"
    }
  })
  // Whole or not at all: another worker may be making the same folder.
  try {
    renameSync(dir, at)
  } catch {
    if (!existsSync(out(at))) return (bundled = out(dir))
    rmSync(dir, { recursive: true, force: true })
  }
  return (bundled = out(at))
}

function runNode(
  script: string,
  cwd: string,
  args: string[],
  env: Record<string, string>
): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd, env: cliEnv(cwd, env), maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (err as { code?: unknown }).code : 0
        done({ code: typeof code === 'number' ? code : 1, stdout, stderr })
      }
    )
  })
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'ada@example.com'
    }
  }).trim()
}

/** A new repository on `main` holding `files`, committed. */
export function repoWith(files: Record<string, string>, prefix = 'cli-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  git(dir, 'init', '--quiet', '--initial-branch=main')
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  git(dir, 'add', '--all')
  git(dir, 'commit', '--quiet', '--allow-empty', '-m', 'start')
  return dir
}

/**
 * A generic (plain-text) agent. ITERVOX_TEST_AGENT is JSON mapping a profile to its mode:
 *   good (default)  writes `# <profile>` as its deliverable
 *   front:<yaml>    the same, after a front matter block holding <yaml>
 *   fail            writes half a deliverable, exits 1
 *   crash-once      fails until a partial of its own profile is among the prior handoffs
 *   ask             asks a question (the itervox sentinel) until the prompt holds a reply
 *   edit-issue      also rewrites the issue file's state to Done
 *   hang            writes half a deliverable and its pid to ITERVOX_TEST_AGENT_PID, then
 *                   never ends
 *   hang-hard       the same, ignoring SIGTERM
 * With ITERVOX_TEST_AGENT_PROMPTS set, each prompt is saved there as <n>-<profile>.md.
 * ITERVOX_TEST_AGENT_FILES, JSON mapping a profile to { path: text }, are files it also writes.
 */
export function writeTestAgent(dir: string): string {
  const path = join(dir, 'test-agent.mjs')
  writeFileSync(
    path,
    `#!${process.execPath}
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
const prompt = readFileSync(0, 'utf8')
const profile = process.env.ITERVOX_PROFILE
const mode = JSON.parse(process.env.ITERVOX_TEST_AGENT || '{}')[profile] || 'good'
const saved = process.env.ITERVOX_TEST_AGENT_PROMPTS
if (saved) {
  mkdirSync(saved, { recursive: true })
  const n = String(readdirSync(saved).length).padStart(2, '0')
  writeFileSync(join(saved, n + '-' + profile + '.md'), prompt)
}
const deliver = (text) => {
  const out = process.env.ITERVOX_HANDOFF_PATH
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, text)
}
const ownPartial = prompt.split('\\n').some((l) => l.startsWith('### ') && l.includes('_' + profile + '.partial.md'))
if (mode === 'fail' || (mode === 'crash-once' && !ownPartial)) {
  deliver('# ' + profile + ' (half done)\\n')
  console.error('scripted crash')
  process.exit(1)
}
if (mode === 'ask' && !prompt.includes('## Reply from')) {
  console.log('Should the export target Postgres or SQLite?')
  console.log('<!-- itervox:needs-input -->')
  process.exit(0)
}
if (mode === 'hang' || mode === 'hang-hard') {
  deliver('# ' + profile + ' (half done)\\n')
  if (mode === 'hang-hard') process.on('SIGTERM', () => {})
  writeFileSync(process.env.ITERVOX_TEST_AGENT_PID, String(process.pid))
  setInterval(() => {}, 1000)
} else {
if (mode === 'edit-issue') {
  writeFileSync('.itervox/issues/' + process.env.ITERVOX_ISSUE + '.md', '---\\ntitle: changed\\nstate: Done\\n---\\n')
}
const files = JSON.parse(process.env.ITERVOX_TEST_AGENT_FILES || '{}')[profile] || {}
for (const [p, text] of Object.entries(files)) writeFileSync(p, text)
const front = mode.startsWith('front:') ? '---\\n' + mode.slice(6) + '\\n---\\n' : ''
deliver(front + '# ' + profile + '\\n\\nDone.\\n')
}
`
  )
  chmodSync(path, 0o755)
  return path
}

export const ISSUE = (state: string) =>
  `---\ntitle: Add CSV export\nstate: ${state}\n---\n\nUsers want to export the report as CSV.\n`

/**
 * A repository with init's local pipeline (the test agent as every profile's command), ENG-1 in
 * Todo; `workflow` edits its WORKFLOW.md. Prompts are saved in `prompts` when the agent is told to.
 */
export function localPipeline(o: { retries?: number; workflow?: (text: string) => string } = {}): {
  repo: string
  prompts: string
} {
  const outside = mkdtempSync(join(tmpdir(), 'cli-run-'))
  const agent = writeTestAgent(outside)
  const files: Record<string, string> = {
    'README.md': '# app\n',
    '.itervox/issues/ENG-1.md': ISSUE('Todo')
  }
  for (const f of scaffoldFiles({ tracker: 'local', command: agent, implementerPaths: ['**'] })) {
    files[f.path] = f.text
  }
  if (o.retries !== undefined) {
    files['WORKFLOW.md'] = files['WORKFLOW.md']!.replace(
      /max_retries: \d+/,
      `max_retries: ${o.retries}`
    )
  }
  if (o.workflow) files['WORKFLOW.md'] = o.workflow(files['WORKFLOW.md']!)
  return { repo: repoWith(files), prompts: join(outside, 'prompts') }
}
