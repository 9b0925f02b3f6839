import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { readRepoFile } from '../config/disk-files.js'
import { formatWarning, loadWorkflowFile, parseWorkflow, readWorkflowText } from '../config/load.js'
import type { Env } from '../config/interpolate.js'
import type { WorkflowConfig } from '../config/types.js'
import { formatLocation, UserError } from '../errors.js'
import { FileRefused, readCappedText } from '../files/read-capped.js'
import { repoRoot } from '../git/repo.js'
import { LOCAL_ISSUES_DIR } from '../tracker/local.js'
import { ACTIONS_WORKFLOW_PATH, actionsWorkflow, agentSecrets } from './actions-workflow.js'
import { parseCommandArgs, stringOpt, UsageError, type Command } from './args.js'
import { ensureGitignore, ignoringRules } from './gitignore.js'
import { PULL_REQUEST_SETTING } from './repo-settings.js'
import { profileStarter, scaffoldFiles, STATES, type ScaffoldFile } from './scaffold.js'
import { changedLines, fingerprinted, keepPins, unedited } from './workflow-edits.js'

const USAGE = `
Usage: itervox-handoff init [--tracker github|local] [--force] [--workflow-only]

Sets up a research → implement → review pipeline at the root of the current git repository:
  WORKFLOW.md                          the states, the three profiles and their automations
  .itervox/agents/<profile>/SOUL.md    who each profile is
  .itervox/agents/<profile>/INSTRUCTIONS.md
                                       what it does, ending with its Handoff Protocol
  .gitignore                           created, or patched when it would ignore the profiles
                                       or the handoffs (checked with git check-ignore)
  ${ACTIONS_WORKFLOW_PATH.padEnd(37)}the GitHub workflow that runs the stages
                                       (github tracker only), made from WORKFLOW.md's states
A profile that WORKFLOW.md names without its SOUL.md or INSTRUCTIONS.md gets one to fill in.
Existing files are kept unless --force is given; running init twice changes nothing. A
.gitignore rule that would leave WORKFLOW.md or the GitHub workflow out of a commit is a
warning. Exits 0 when every file is in place.

Options:
  --tracker KIND    github (default): issues and labels on GitHub; local: issue files in
                    .itervox/issues/, run with itervox-handoff run
  --force           overwrite the files above that already exist (.gitignore is only patched)
  --workflow-only   rewrite just ${ACTIONS_WORKFLOW_PATH} from WORKFLOW.md as it
                    is now (after you changed it), touching nothing else. It keeps the
                    actions' refs (pin them to commit SHAs); when you edited anything else
                    in it, it shows what it would change and needs --force
  -h, --help        show this help
`

export const initCommand: Command = {
  summary: 'set up WORKFLOW.md, the profiles, .gitignore and the GitHub workflow',
  usage: USAGE,
  async run(argv) {
    const { values, help } = parseCommandArgs('init', USAGE, argv, {
      tracker: { type: 'string' },
      force: { type: 'boolean' },
      'workflow-only': { type: 'boolean' }
    })
    if (help) return 0
    const given = stringOpt(values.tracker)
    const tracker = given ?? 'github'
    if (tracker !== 'github' && tracker !== 'local') {
      throw new UsageError(`init: --tracker must be github or local, not "${tracker}"`, 'init')
    }
    const root = await repoRoot(process.cwd())
    if (values['workflow-only'] === true) {
      if (given !== undefined) {
        throw new UsageError(
          'init: --workflow-only takes the tracker from WORKFLOW.md; leave out --tracker',
          'init'
        )
      }
      return writeActionsWorkflowOnly(root, values.force === true)
    }
    const force = values.force === true

    const files = scaffoldFiles({ tracker, command: 'claude', implementerPaths: ['**'] })
    for (const f of files) report(place(root, f, force), f.path)
    placeMissingProfileFiles(root)

    // The workflow follows WORKFLOW.md as it is now, which may be one init kept.
    const config = loadKeptWorkflow(root)
    if (tracker === 'github') {
      const file = { path: ACTIONS_WORKFLOW_PATH, text: workflowFor(root, config) }
      const what = place(root, file, force)
      report(what, file.path)
      if (what === 'kept' && !holdsText(join(root, file.path), file.text)) {
        process.stderr.write(
          `note: ${file.path} differs from what WORKFLOW.md calls for; run itervox-handoff init --workflow-only to rewrite it\n`
        )
      }
    }
    report(await ensureGitignore(root), '.gitignore')
    if (tracker === 'local') report(issuesFolder(root), `${LOCAL_ISSUES_DIR}/`)
    await warnIgnored(root, tracker === 'github' ? [WORKFLOW, ACTIONS_WORKFLOW_PATH] : [WORKFLOW])

    const secrets = agentSecrets(config)
    const secret = secrets.length
      ? `the secret${secrets.length > 1 ? 's' : ''} ${secrets.join(', ')}`
      : 'the secret for your agent CLI'
    const start = startState(config)
    process.stdout.write(
      '\nNext: commit these files' +
        (tracker === 'github'
          ? `, add ${secret} to the repository, tick "${PULL_REQUEST_SETTING}" in\nSettings → Actions → General → Workflow permissions (else a stage opens no pull request),\nand label an issue "${start}".\n`
          : `, write .itervox/issues/<ID>.md (title, state: ${start}) and run\nitervox-handoff run --issue <ID> --until-idle\n`)
    )
    return 0
  }
}

const WORKFLOW = 'WORKFLOW.md'
// A GitHub workflow is a few KiB.
const WORKFLOW_YML_MAX_BYTES = 256 * 1024

function report(what: string, path: string): void {
  process.stdout.write(`${what.padEnd(10)}${path}\n`)
}

/**
 * Each SOUL.md and INSTRUCTIONS.md that WORKFLOW.md names but the repository lacks (a profile
 * the user added), written from a starting text, so that the workflow loads.
 */
function placeMissingProfileFiles(root: string): void {
  const file = shownWorkflowPath(root)
  const text = readWorkflowText(file)
  const missing = new Set<string>()
  const { config } = parseWorkflow(text, {
    file,
    env: loadingEnv(text),
    baseDir: '.',
    readFile: (path) => {
      const found = readRepoFile(root, path)
      if (found === null) missing.add(path)
      return found ?? ''
    }
  })
  for (const p of Object.values(config.agent.profiles)) {
    const files = [
      { path: p.soulFile, text: profileStarter(p.name, 'soul') },
      { path: p.instructionsFile, text: profileStarter(p.name, 'instructions') }
    ]
    for (const f of files) if (missing.has(f.path)) report(place(root, f, false), f.path)
  }
}

/** WORKFLOW.md at the root, as a path from here. */
function shownWorkflowPath(root: string): string {
  return relative(process.cwd(), join(root, WORKFLOW)) || WORKFLOW
}

/** WORKFLOW.md at the root, as it is now; its warnings go to stderr. */
function loadKeptWorkflow(root: string): WorkflowConfig {
  const workflowFile = shownWorkflowPath(root)
  const { config, warnings } = loadWorkflowFile(
    workflowFile,
    loadingEnv(readWorkflowText(workflowFile))
  )
  for (const w of warnings) process.stderr.write(formatWarning(w) + '\n')
  return config
}

/** `init --workflow-only`: the GitHub workflow made again from WORKFLOW.md, nothing else. */
async function writeActionsWorkflowOnly(root: string, force: boolean): Promise<number> {
  if (!existsSync(join(root, WORKFLOW))) {
    throw new UserError(
      `no ${WORKFLOW} at the repository root ${root}; run itervox-handoff init first`
    )
  }
  const config = loadKeptWorkflow(root)
  if (config.tracker.kind === 'local') {
    throw new UserError(
      `${WORKFLOW} uses the local tracker, which runs no GitHub workflow; --workflow-only is for tracker.kind: github or linear`,
      { file: WORKFLOW }
    )
  }
  const file = { path: ACTIONS_WORKFLOW_PATH, text: workflowFor(root, config) }
  const old = existingWorkflow(root)
  if (old === file.text) {
    report('unchanged', file.path)
    return 0
  }
  if (old !== null && !force && !unedited(old)) {
    process.stderr.write(
      `${file.path} was edited since init wrote it; rewriting it would change:\n` +
        changedLines(old, file.text)
          .map((l) => `  ${l}\n`)
          .join('')
    )
    throw new UserError(
      `${file.path} was edited by hand, so it is kept; make the changes above yourself, or run itervox-handoff init --workflow-only --force to rewrite it (the actions' refs are kept)`
    )
  }
  report(place(root, file, true), file.path)
  await warnIgnored(root, [ACTIONS_WORKFLOW_PATH])
  process.stdout.write(`\nNext: commit ${file.path}.\n`)
  return 0
}

/** The GitHub workflow for WORKFLOW.md, with the actions' refs the file there has now. */
function workflowFor(root: string, config: WorkflowConfig): string {
  const old = existingWorkflow(root)
  const text = actionsWorkflow(config)
  return fingerprinted(old === null ? text : keepPins(text, old))
}

/** The GitHub workflow's text now; null when there is none. */
function existingWorkflow(root: string): string | null {
  const path = join(root, ACTIONS_WORKFLOW_PATH)
  if (!existsSync(path)) return null
  if (!statSync(path).isFile()) {
    throw new UserError(
      `${ACTIONS_WORKFLOW_PATH} is not a regular file; remove it, then run init again`
    )
  }
  return readCappedText(path, WORKFLOW_YML_MAX_BYTES, ACTIONS_WORKFLOW_PATH)
}

/** A warning for each file a .gitignore rule would leave out of `git add`. */
async function warnIgnored(root: string, paths: string[]): Promise<void> {
  for (const hit of await ignoringRules(root, paths)) {
    const where = formatLocation({ file: hit.source, line: hit.line })
    process.stderr.write(
      `${where}: warning: the rule "${hit.pattern}" ignores ${hit.path}, so git add leaves it out; remove the rule, or add "!/${hit.path}" after it\n`
    )
  }
}

/** The state that starts the pipeline: the first enabled automation's first state. */
function startState(config: WorkflowConfig): string {
  const first = config.automations.find((a) => a.enabled)?.states[0]
  return first ?? config.tracker.activeStates[0] ?? STATES.start
}

/** Writes the file unless it exists (or with --force); says what it did. */
function place(root: string, f: ScaffoldFile, force: boolean): 'created' | 'kept' | 'rewritten' {
  const path = join(root, f.path)
  const exists = existsSync(path)
  if (exists && !force) return 'kept'
  // Writing would block on a FIFO, or land in a device.
  if (exists && !statSync(path).isFile()) {
    throw new UserError(`${f.path} is not a regular file; remove it, then run init again`)
  }
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, f.text)
  return exists ? 'rewritten' : 'created'
}

/** Where the local tracker's issue files go; git keeps no empty folder, so init makes it. */
function issuesFolder(root: string): 'created' | 'kept' {
  const path = join(root, LOCAL_ISSUES_DIR)
  if (existsSync(path)) return 'kept'
  mkdirSync(path, { recursive: true })
  return 'created'
}

/** Whether the file at `path` holds exactly `text`; anything longer simply does not. */
function holdsText(path: string, text: string): boolean {
  try {
    return readCappedText(path, Buffer.byteLength(text)) === text
  } catch (e) {
    if (e instanceof FileRefused && e.reason === 'too-large') return false
    throw e
  }
}

/**
 * init reads WORKFLOW.md only for its states and commands, so a `$VAR` that is not set in this
 * shell (an API key) must not stop it.
 */
function loadingEnv(text: string): Env {
  const env: Env = { ...process.env }
  for (const m of text.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)) env[m[1]!] ||= 'unset'
  return env
}
