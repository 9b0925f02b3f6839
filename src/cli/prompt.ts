import { automationForProfile, unknownProfileError } from '../config/lookup.js'
import { UserError } from '../errors.js'
import { repoRoot, resolveCommit } from '../git/repo.js'
import { isRunTimestamp, runTimestamp } from '../handoff/index.js'
import { promptForStage } from '../pipeline/stage-prompt.js'
import { readLocalIssue } from '../tracker/local.js'
import type { Issue } from '../tracker/types.js'
import { parseCommandArgs, stringOpt, type Command } from './args.js'
import { baseBranchOf, currentBranch, localForkPoint } from './local-branch.js'
import { loadWorkflowForCli } from './workflow.js'

const USAGE = `
Usage: itervox-handoff prompt --profile NAME [--issue ID] [--timestamp TS] [--workflow FILE]

Prints the whole prompt the profile's agent would get for a stage run now, built from the
handoffs committed at HEAD since it left the base branch (workspace.base_branch, or the
repository's default branch): run it inside the repository, on the issue's branch.

Options:
  --profile NAME    the profile to run (required)
  --issue ID        read the issue from .itervox/issues/ID.md (the local tracker)
  --timestamp TS    run timestamp, YYYY-MM-DDTHH-MM-SS.mmmZ (default: now)
  --workflow FILE   the workflow file (default: WORKFLOW.md)
  -h, --help        show this help
`

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
  async run(argv) {
    const { values, help } = parseCommandArgs('prompt', USAGE, argv, {
      profile: { type: 'string' },
      issue: { type: 'string' },
      timestamp: { type: 'string' },
      workflow: { type: 'string' }
    })
    if (help) return 0
    const profileName = stringOpt(values.profile)
    if (!profileName) throw new UserError('prompt: --profile NAME is required')
    const timestamp = stringOpt(values.timestamp) ?? runTimestamp(new Date())
    if (!isRunTimestamp(timestamp)) {
      throw new UserError(
        `prompt: --timestamp "${timestamp}" is not of the form YYYY-MM-DDTHH-MM-SS.mmmZ, e.g. 2026-05-26T14-30-45.000Z`
      )
    }
    const workflowFile = stringOpt(values.workflow) ?? 'WORKFLOW.md'
    const root = await repoRoot(process.cwd())
    const config = loadWorkflowForCli(workflowFile)
    const profile = config.agent.profiles[profileName]
    if (!profile) throw unknownProfileError(config, profileName, '--profile')

    const issueId = stringOpt(values.issue)
    const issue = issueId ? readLocalIssue(root, issueId) : PLACEHOLDER_ISSUE
    const automation = automationForProfile(config, profile.name, issue.state)

    if (issueId) {
      const note = await offIssueBranch(root, issue)
      if (note) process.stderr.write(`note: ${note}\n`)
    }
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
