import { UserError } from '../errors.js'
import { parseCommandArgs, stringOpt, type Command } from './args.js'
import { githubTarget } from './github-target.js'
import { findWorkflowFile, loadWorkflowForCli } from './workflow.js'

const USAGE = `
Usage: itervox-handoff reconcile [--repo OWNER/NAME] [--dry-run] [--workflow FILE]

Starts every stage the repository's issues are owed, as the scheduled reconcile job does: for
each open issue in a state that starts an automation (GitHub: by label, the record in its
status comment; tracker.kind linear: the team's issues in those states, each record in
refs/itervox/records/<key>), when no stage ran for the issue's current entry (a lost event or
wake-up, a queued stage, a Linear state change), a decision's effects were never carried out,
or (Linear) a team member answered a waiting stage, sends the repository_dispatch the
pipeline's own wake-up sends. A claim ref in the repository (refs/itervox/dispatch/...) makes
each wake-up go out once, even when two reconciles overlap.
Prints one line per issue and a summary of issues looked at, stages started and requests made.

The token comes from GITHUB_TOKEN or GH_TOKEN (e.g. GH_TOKEN=$(gh auth token)); it needs
Issues: read and Contents: write. GITHUB_API_URL names another API root (GitHub Enterprise
Server). For Linear, WORKFLOW.md's api_key (e.g. $LINEAR_API_KEY) is the key and
LINEAR_API_URL names another endpoint.

Options:
  --repo OWNER/NAME  the repository (default: the one git remote origin points at)
  --dry-run          print what would be started; claim and send nothing
  --workflow FILE    the workflow file (default: the WORKFLOW.md here or in the nearest
                     folder above, up to the repository's top level)
  -h, --help         show this help
`

export const reconcileCommand: Command = {
  summary: 'start the stages GitHub or Linear issues are owed (lost events, lost wake-ups)',
  usage: USAGE,
  async run(argv) {
    const { values, help } = parseCommandArgs('reconcile', USAGE, argv, {
      repo: { type: 'string' },
      'dry-run': { type: 'boolean' },
      workflow: { type: 'string' }
    })
    if (help) return 0
    const config = loadWorkflowForCli(findWorkflowFile(stringOpt(values.workflow)))
    if (config.tracker.kind === 'local') {
      throw new UserError(
        'reconcile: tracker.kind is "local"; reconcile starts stages of GitHub or Linear issues in a repository (for local issues, itervox-handoff run follows the records itself)'
      )
    }
    const { token, owner, name, apiUrl } = await githubTarget(
      'reconcile',
      stringOpt(values.repo),
      'Issues: read and Contents: write'
    )
    const dryRun = values['dry-run'] === true
    // Octokit and the refs code are half the CLI's size and only this command needs them: they
    // run when it does, so every other command starts without their setup. They stay in the
    // bundle's one file ("eager"): ncc's licenses.txt lists the packages of one file only.
    const { reconcileRepository } = await import(
      /* webpackMode: "eager" */ '../tracker/github-reconcile.js'
    )
    const { summaryLine } = await import(/* webpackMode: "eager" */ '../tracker/reconcile.js')
    const summary = await reconcileRepository({
      config,
      client: { token, apiUrl, userAgent: 'itervox-handoff-cli' },
      owner,
      repo: name,
      serverUrl: process.env.GITHUB_SERVER_URL || 'https://github.com',
      by: 'cli',
      ...(process.env.LINEAR_API_URL ? { linearUrl: process.env.LINEAR_API_URL } : {}),
      dryRun,
      log: (line) => process.stdout.write(`${line}\n`)
    })
    process.stdout.write(`${summaryLine(summary, dryRun)}\n`)
    return summary.failed > 0 ? 1 : 0
  }
}
