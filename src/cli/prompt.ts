import { automationForProfile, unknownProfileError } from '../config/lookup.js'
import { repoRoot, resolveCommit } from '../git/repo.js'
import { isRunTimestamp, runTimestamp } from '../handoff/index.js'
import { promptForStage } from '../pipeline/stage-prompt.js'
import { readLocalIssue } from '../tracker/local.js'
import type { Issue } from '../tracker/types.js'
import { parseCommandArgs, stringOpt, UsageError, type Command } from './args.js'
import { baseBranchOf, currentBranch, localForkPoint } from './local-branch.js'
import { findWorkflowFile, loadWorkflowForCli } from './workflow.js'

const USAGE = `
Usage: itervox-handoff prompt --profile NAME [--issue ID] [--timestamp TS] [--workflow FILE] [--json]

Prints the whole prompt the profile's agent would get for a stage run now, built from the
handoffs committed at HEAD since it left the base branch (workspace.base_branch, or the
repository's default branch): run it inside the repository, on the issue's branch.

Options:
  --profile NAME    the profile to run (required)
  --issue ID        read the issue from .itervox/issues/ID.md (the local tracker)
  --timestamp TS    run timestamp, YYYY-MM-DDTHH-MM-SS.mmmZ (default: now)
  --workflow FILE   the workflow file (default: the WORKFLOW.md here or in the nearest
                    folder above, up to the repository's top level)
  --json            print one JSON object: the prompt and what went into it (see the README)
  -h, --help        show this help
`

/** What `prompt --json` prints; the README documents it, so keys are only ever added. */
interface PromptJson {
  profile: string
  issue: string | null
  state: string | null
  automation: string | null
  timestamp: string
  handoffPath: string
  priorHandoffs: string[]
  droppedHandoffs: number
  bytes: number
  notes: string[]
  warnings: string[]
  prompt: string
}

// Without --issue, the prompt is shown for a stand-in so templates still render.
const PLACEHOLDER_ISSUE: Issue = {
  id: 'LOCAL-0',
  identifier: 'LOCAL-0',
  title: '(no issue given: pass --issue ID)',
  description: '',
  state: null,
  labels: [],
  url: '',
  isPullRequest: false
}

export const promptCommand: Command = {
  summary: "print the prompt a profile's agent would get now",
  usage: USAGE,
  async run(argv) {
    const { values, help } = parseCommandArgs('prompt', USAGE, argv, {
      profile: { type: 'string' },
      issue: { type: 'string' },
      timestamp: { type: 'string' },
      workflow: { type: 'string' },
      json: { type: 'boolean' }
    })
    if (help) return 0
    const profileName = stringOpt(values.profile)
    if (!profileName) {
      throw new UsageError(
        'prompt: --profile NAME is required, e.g. --profile researcher',
        'prompt'
      )
    }
    const timestamp = stringOpt(values.timestamp) ?? runTimestamp(new Date())
    if (!isRunTimestamp(timestamp)) {
      throw new UsageError(
        `prompt: --timestamp "${timestamp}" is not of the form YYYY-MM-DDTHH-MM-SS.mmmZ, e.g. 2026-05-26T14-30-45.000Z`,
        'prompt'
      )
    }
    const workflowFile = findWorkflowFile(stringOpt(values.workflow))
    const root = await repoRoot(process.cwd())
    const config = loadWorkflowForCli(workflowFile)
    const profile = config.agent.profiles[profileName]
    if (!profile) throw unknownProfileError(config, profileName, '--profile')

    const issueId = stringOpt(values.issue)
    const issue = issueId ? readLocalIssue(root, issueId) : PLACEHOLDER_ISSUE
    const automation = automationForProfile(config, profile.name, issue.state)

    const note = issueId ? await offIssueBranch(root, issue) : null
    const head = await resolveCommit(root, 'HEAD')
    const stage = await promptForStage({
      repo: root,
      commit: head,
      since: head ? await forkOfHead(root, head, config.workspace.baseBranch) : null,
      config,
      profile,
      automation,
      issue,
      attempt: null,
      timestamp
    })
    if (values.json === true) {
      const out: PromptJson = {
        profile: profile.name,
        issue: issueId ? issue.id : null,
        state: issue.state,
        automation: automation?.id ?? null,
        timestamp,
        handoffPath: stage.handoffPath,
        priorHandoffs: stage.figures.included,
        droppedHandoffs: stage.figures.dropped,
        bytes: stage.figures.bytes,
        notes: note ? [note] : [],
        warnings: stage.warnings,
        prompt: stage.prompt
      }
      process.stdout.write(JSON.stringify(out, null, 2) + '\n')
      return 0
    }
    if (note) process.stderr.write(`note: ${note}\n`)
    for (const w of stage.warnings) process.stderr.write(`warning: ${w}\n`)
    process.stdout.write(stage.prompt + '\n')
    return 0
  }
}

/** Where HEAD left the base branch; HEAD itself when it is on the base branch. */
async function forkOfHead(root: string, head: string, configured?: string): Promise<string> {
  const base = await baseBranchOf(root, configured)
  return localForkPoint(root, head, (await currentBranch(root)) ?? 'HEAD', base)
}

/**
 * The prompt shows the handoffs at HEAD: on any branch but the issue's own (when it has one),
 * that is not this issue's work, which would look like a stage with no prior handoffs.
 */
async function offIssueBranch(root: string, issue: Issue): Promise<string | null> {
  const branch = `itervox/${issue.id}`
  const current = await currentBranch(root)
  if (current === branch || !(await resolveCommit(root, `refs/heads/${branch}`))) return null
  const here = current ?? 'a detached HEAD'
  return `the prompt shows the handoffs on ${here}, not on ${branch}, the issue's branch; run git switch ${branch} to see its handoffs`
}
