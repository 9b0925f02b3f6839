import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { resolveCommand } from '../agent/command.js'
import { loadWorkflowFile } from '../config/load.js'
import type { WorkflowConfig } from '../config/types.js'
import { UserError } from '../errors.js'
import { git, gitBytes } from '../git/git.js'
import { formatDuration } from '../pipeline/record/duration.js'
import { pipelineDiagram } from '../tracker/status-comment.js'
import { createLocalIssue, readLocalIssue, type LocalComment } from '../tracker/local.js'
import { parseCommandArgs, stringOpt, UsageError, type Command } from './args.js'
import { FAIL_AT_VAR } from './demo-agent.js'
import { ensureGitignore } from './gitignore.js'
import { runLocalPipeline, type LocalPipelineResult, type LocalStage } from './local-pipeline.js'
import { colourOn, outputMode, StageProgress, stageName, type Out } from './progress.js'
import { PROFILES, scaffoldFiles, STATES } from './scaffold.js'

const USAGE = `
Usage: itervox-handoff demo [--fail-at PROFILE] [--agent claude|codex|gemini] [--dir DIR] [--json]

Builds a fresh git repository with a sample issue, DEMO-1, and the research → implement →
review pipeline that init writes (except that the implementer may commit only src/**); runs
the pipeline to its end on the local tracker; and
prints the trail: each stage, its outcome and deliverable, and the pipeline diagram. The
built-in scripted agent needs no model and no network. The repository is kept for a look
around (a new temporary folder unless --dir is given).

Options:
  --fail-at PROFILE  crash that profile's first run (researcher, implementer or reviewer):
                     shows the partial it leaves and the retry that recovers from it
  --agent NAME       run a real agent CLI instead of the scripted one: claude, codex or
                     gemini, installed and signed in (stages then take minutes)
  --dir DIR          build the repository in DIR, which must be new or empty
  --json             print one JSON object instead of the trail
  -h, --help         show this help

Exit status: 0 when the issue reached "${STATES.done}", 1 otherwise.
`

const ISSUE_ID = 'DEMO-1'
const AGENTS = ['claude', 'codex', 'gemini']
const AGENT_SCRIPT = '.itervox/bin/demo-agent'
const IDENTITY = {
  GIT_AUTHOR_NAME: 'itervox-handoff demo',
  GIT_AUTHOR_EMAIL: 'demo@itervox.invalid',
  GIT_COMMITTER_NAME: 'itervox-handoff demo',
  GIT_COMMITTER_EMAIL: 'demo@itervox.invalid'
}

const ISSUE = {
  title: 'Add a slugify helper',
  state: STATES.start,
  description:
    'Export `slugify(text)` from `src/slugify.js`. It turns a title into a URL slug: lower-case\nASCII letters and digits, words joined by `-`.'
}

const PROJECT: Record<string, string> = {
  'README.md': '# demo\n\nA small project for the itervox-handoff demo.\n',
  'package.json': '{ "name": "itervox-demo", "private": true, "type": "module" }\n',
  'src/index.js': "export const name = 'demo'\n"
}

export const demoCommand: Command = {
  summary: 'run the three-profile pipeline on a sample issue, start to end',
  usage: USAGE,
  async run(argv) {
    const { values, help } = parseCommandArgs('demo', USAGE, argv, {
      'fail-at': { type: 'string' },
      agent: { type: 'string' },
      dir: { type: 'string' },
      json: { type: 'boolean' }
    })
    if (help) return 0
    const failAt = stringOpt(values['fail-at'])
    const agent = stringOpt(values.agent)
    if (failAt !== undefined && !(PROFILES as readonly string[]).includes(failAt)) {
      throw new UsageError(
        `demo: --fail-at takes one of ${PROFILES.join(', ')}, not "${failAt}"`,
        'demo'
      )
    }
    if (agent !== undefined) {
      if (!AGENTS.includes(agent)) {
        throw new UsageError(
          `demo: --agent takes one of ${AGENTS.join(', ')}, not "${agent}"`,
          'demo'
        )
      }
      if (failAt)
        throw new UsageError(
          'demo: --fail-at works with the scripted agent only; leave out --agent',
          'demo'
        )
      const found = resolveCommand(agent, process.cwd(), process.env.PATH, agent)
      if ('error' in found) {
        throw new UserError(`demo: --agent ${agent}: ${agent} is not installed (not found on PATH)`)
      }
    }
    const root = demoDir(stringOpt(values.dir))
    const out = process.stdout
    const mode = outputMode(values.json === true, out)

    const config = await setUp(root, agent)
    if (mode !== 'json') {
      out.write(
        `itervox-handoff demo: researcher → implementer → reviewer on a sample issue, with ${agent ? `the ${agent} CLI` : 'a scripted agent (no model, no network)'}\n\n` +
          `repository  ${root}\n` +
          `issue       ${ISSUE_ID} "${ISSUE.title}", in "${ISSUE.state}"\n` +
          (failAt ? `crash       the first ${failAt} run (--fail-at)\n` : '') +
          '\n'
      )
    }
    const progress = new StageProgress(out, mode, colourOn(mode))
    let result: LocalPipelineResult
    try {
      result = await runLocalPipeline({
        root,
        config,
        workflowPath: 'WORKFLOW.md',
        issueId: ISSUE_ID,
        parentEnv: { ...process.env, ...(failAt ? { [FAIL_AT_VAR]: failAt } : {}) },
        untilIdle: true,
        sections: progress.sections,
        onStageStart: (s) => progress.start(s),
        onStageEnd: (s) => progress.end(s)
      })
    } finally {
      progress.clear()
    }

    const trail = await trailOf(root, result, config)
    if (mode === 'json') out.write(JSON.stringify(trail, null, 2) + '\n')
    else printTrail(out, trail)
    return trail.state === STATES.done ? 0 : 1
  }
}

/** A new temporary folder, or the one given if it is new or empty. */
function demoDir(dir: string | undefined): string {
  if (!dir) return realpathSync(mkdtempSync(join(tmpdir(), 'itervox-handoff-demo-')))
  const path = resolve(dir)
  if (existsSync(path) && readdirSync(path).length > 0) {
    throw new UserError(`demo: --dir ${dir} is not empty; give a new or empty folder`)
  }
  mkdirSync(path, { recursive: true })
  return realpathSync(path)
}

/** The sample project, its pipeline and issue, committed on `main`. */
async function setUp(root: string, agent: string | undefined): Promise<WorkflowConfig> {
  await git(root, ['init', '--quiet'])
  await git(root, ['symbolic-ref', 'HEAD', 'refs/heads/main'])
  const files = [
    ...Object.entries(PROJECT).map(([path, text]) => ({ path, text })),
    ...scaffoldFiles({
      tracker: 'local',
      command: agent ?? AGENT_SCRIPT,
      implementerPaths: ['src/**']
    })
  ]
  for (const f of files) writeFile(root, f.path, f.text)
  if (!agent) {
    writeFile(root, AGENT_SCRIPT, agentScript())
    chmodSync(join(root, AGENT_SCRIPT), 0o755)
  }
  await ensureGitignore(root)
  createLocalIssue(root, ISSUE_ID, ISSUE)
  await git(root, ['add', '--all'])
  await git(
    root,
    ['commit', '--quiet', '--no-gpg-sign', '-m', 'Set up the demo project and its pipeline'],
    {
      env: IDENTITY
    }
  )
  return loadWorkflowFile(join(root, 'WORKFLOW.md'), process.env).config
}

/** A wrapper that runs this very CLI as the scripted agent, whatever the paths hold. */
function agentScript(): string {
  const entry = process.argv[1]
  if (!entry || !existsSync(entry))
    throw new Error('cannot find the running itervox-handoff script')
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  return [
    '#!/bin/sh',
    "# The itervox-handoff demo's scripted agent.",
    `exec ${quote(process.execPath)} ${quote(realpathSync(entry))} __demo-agent`,
    ''
  ].join('\n')
}

function writeFile(root: string, path: string, text: string): void {
  const full = join(root, path)
  mkdirSync(dirname(full), { recursive: true })
  writeFileSync(full, text)
}

interface TrailStage extends LocalStage {
  /** The committed deliverable's text. */
  deliverable: string | null
}

interface Trail {
  repository: string
  issue: string
  state: string | null
  branch: string | null
  idle?: LocalPipelineResult['idle']
  stages: TrailStage[]
  comments: LocalComment[]
  commits: string[]
  /** Mermaid. */
  diagram: string
}

async function trailOf(
  root: string,
  r: LocalPipelineResult,
  config: WorkflowConfig
): Promise<Trail> {
  const stages: TrailStage[] = []
  for (const s of r.stages) {
    let deliverable: string | null = null
    if (s.handoffPath && s.commit) {
      const blob = await gitBytes(root, ['cat-file', 'blob', `${s.commit}:${s.handoffPath}`], {
        okCodes: [128]
      })
      if (blob.code === 0) deliverable = blob.stdout.toString('utf8')
    }
    stages.push({ ...s, deliverable })
  }
  const log = r.branch
    ? (await git(root, ['log', '--format=%h %s', `refs/heads/${r.branch}`, '--'])).stdout
    : ''
  return {
    repository: root,
    issue: r.issue,
    state: r.state,
    branch: r.branch,
    ...(r.idle ? { idle: r.idle } : {}),
    stages,
    comments: readLocalIssue(root, ISSUE_ID).comments,
    commits: log.split('\n').filter(Boolean),
    diagram: pipelineDiagram(config, r.state)
  }
}

function printTrail(out: Out, t: Trail): void {
  const bar = (text: string) =>
    text
      .trimEnd()
      .split('\n')
      .map((l) => `     │ ${l}`)
      .join('\n')
  out.write(`\nThe trail, on branch ${t.branch ?? '(none)'}:\n`)
  t.stages.forEach((s: TrailStage, i) => {
    out.write(
      `\n${i + 1}. ${stageName(s)} · ${s.outcome}${s.outcome === 'succeeded' ? '' : ` (${s.reason})`} · ${formatDuration(s.durationMs, { tenths: true })}\n` +
        `   deliverable: ${s.handoffPath ?? 'none'}\n` +
        `   then: ${s.summary}\n`
    )
    if (s.deliverable !== null) out.write(`\n${bar(s.deliverable)}\n`)
  })
  out.write(`\n${t.issue} is in "${t.state ?? 'no state'}"${t.idle ? `: ${t.idle.reason}` : ''}.\n`)
  if (t.comments.length > 0) {
    out.write(`\nComments on .itervox/issues/${t.issue}.md:\n`)
    for (const c of t.comments)
      out.write(`  ${c.createdAt} — ${c.author}: ${c.body.replace(/\s+/g, ' ')}\n`)
  }
  out.write(`\nCommits on ${t.branch}:\n${t.commits.map((c) => `  ${c}`).join('\n')}\n`)
  out.write(`\nThe pipeline (Mermaid):\n\n${t.diagram}\n`)
  out.write(`\nLook around: cd ${t.repository} && git log --stat ${t.branch ?? ''}\n`)
}
