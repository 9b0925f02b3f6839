import { automationForProfile, unknownProfileError } from '../config/lookup.js'
import { repoRoot, resolveCommit } from '../git/repo.js'
import { isRunTimestamp, runTimestamp } from '../handoff/index.js'
import { promptForStage } from '../pipeline/stage/stage-prompt.js'
import { localIssueId, readLocalIssue } from '../tracker/local.js'
import type { Issue } from '../pipeline/ports.js'
import { parseCommandArgs, stringOpt, UsageError, type Command } from './args.js'
import { baseBranchOf, currentBranch, localForkPoint, localIssueBranch } from './local-branch.js'
import { findWorkflowFile, loadWorkflowForCli } from './workflow.js'

const USAGE = `
Usage: itervox-handoff prompt --profile NAME [--issue ID] [--timestamp TS] [--workflow FILE] [--json]

Prints the whole prompt the profile's agent would get for a stage run now, built from the
handoffs committed since the branch left the base branch (workspace.base_branch, or the
repository's default branch). The branch is the issue's, itervox/ID, when --issue names one
that has it, whichever branch is checked out; else HEAD.

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
    const issue = issueId ? readLocalIssue(root, localIssueId(root, issueId)) : PLACEHOLDER_ISSUE
    const automation = automationForProfile(config, profile.name, issue.state)

    const { commit, branch, note } = await trailSource(root, issueId ? issue : null)
    const stage = await promptForStage({
      repo: root,
      commit,
      since: commit ? await forkOf(root, commit, branch, config.workspace.baseBranch) : null,
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

/** Where the branch left the base branch; the commit itself when it is on the base branch. */
async function forkOf(
  root: string,
  commit: string,
  branch: string,
  configured?: string
): Promise<string> {
  const base = await baseBranchOf(root, configured)
  return localForkPoint(root, commit, branch, base)
}

/**
 * The commit whose handoffs the prompt shows: the issue's branch when it has one, as its next
 * stage would run there, else HEAD. A note says so when that is not the branch checked out.
 */
async function trailSource(
  root: string,
  issue: Issue | null
): Promise<{ commit: string | null; branch: string; note: string | null }> {
  const current = await currentBranch(root)
  if (issue) {
    const branch = localIssueBranch(issue.id)
    const commit = await resolveCommit(root, `refs/heads/${branch}`)
    if (commit) {
      const note =
        current === branch
          ? null
          : `the prompt shows the handoffs on ${branch}, the issue's branch, not on ${current ?? 'the detached HEAD'}`
      return { commit, branch, note }
    }
  }
  return { commit: await resolveCommit(root, 'HEAD'), branch: current ?? 'HEAD', note: null }
}
