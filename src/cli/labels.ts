import { sameState } from '../config/lookup.js'
import type { WorkflowConfig } from '../config/types.js'
import { UserError } from '../errors.js'
import { NEEDS_ATTENTION_LABEL, NEEDS_INPUT_LABEL } from '../pipeline/names.js'
import { parseCommandArgs, stringOpt, type Command } from './args.js'
import { messageOf, restClient, type Rest } from './github-rest.js'
import { githubTarget, githubTargetMaybeAnonymous } from './github-target.js'
import { repoSettings } from './repo-settings.js'
import { findWorkflowFile, loadWorkflowForCli } from './workflow.js'

const USAGE = `
Usage: itervox-handoff labels [--repo OWNER/NAME] [--dry-run] [--workflow FILE]

Creates the labels a first run needs that the GitHub repository lacks: a label for each state
of WORKFLOW.md (the states its automations start and move to, the active, completion and
failed states), and ${NEEDS_INPUT_LABEL} and ${NEEDS_ATTENTION_LABEL}. Prints each label it created and each
that already existed. Then checks what it can see of the repository's Actions settings and
says, one line each, what to change. Exits 1 when a setting must change.

The token comes from GITHUB_TOKEN or GH_TOKEN (e.g. GH_TOKEN=$(gh auth token)); it needs
Issues: write to create labels, and admin on the repository to read its settings. --dry-run
needs only read access, and no token at all for a public repository.
GITHUB_API_URL names another API root (GitHub Enterprise Server).

Options:
  --repo OWNER/NAME  the repository (default: the one git remote origin points at)
  --dry-run          print what would be created, create nothing
  --workflow FILE    the workflow file (default: the WORKFLOW.md here or in the nearest
                     folder above, up to the repository's top level)
  -h, --help         show this help
`

interface LabelSpec {
  name: string
  color: string
  description: string
}

export const labelsCommand: Command = {
  summary: "create WORKFLOW.md's state labels on GitHub and check the repository settings",
  usage: USAGE,
  async run(argv) {
    const { values, help } = parseCommandArgs('labels', USAGE, argv, {
      repo: { type: 'string' },
      'dry-run': { type: 'boolean' },
      workflow: { type: 'string' }
    })
    if (help) return 0
    const config = loadWorkflowForCli(findWorkflowFile(stringOpt(values.workflow)))
    const dryRun = values['dry-run'] === true
    const given = stringOpt(values.repo)
    // A dry run only reads, so it needs no token that may write.
    const { token, repo, apiUrl } = dryRun
      ? await githubTargetMaybeAnonymous('labels', given)
      : await githubTarget('labels', given, 'Issues: write')
    const rest = restClient(apiUrl, token, repo, 'labels')

    const found = await rest.call('GET', '')
    if (found.status !== 200) {
      const [hidden, fix] =
        token === undefined
          ? ['private', ', or set GITHUB_TOKEN or GH_TOKEN to a token that can read it']
          : ['the token cannot see it', " and the token's access"]
      throw new UserError(
        `labels: ${repo} not found, or ${hidden} (${found.status} ${messageOf(found.data)}); check --repo (or git remote origin)${fix}`
      )
    }
    for (const label of pipelineLabels(config)) {
      const what = (await labelExists(rest, label.name))
        ? 'exists'
        : dryRun
          ? 'would create'
          : await createLabel(rest, label)
      process.stdout.write(`${what.padEnd(13)}${label.name}\n`)
    }

    process.stdout.write(`\nSettings of ${repo}:\n`)
    const settings = await repoSettings(rest)
    for (const s of settings) process.stdout.write(`${s.verdict.padEnd(13)}${s.text}\n`)
    return settings.some((s) => s.verdict === 'change') ? 1 : 0
  }
}

/** The labels a run sets or a person adds: the pipeline's states, then the action's own two. */
function pipelineLabels(config: WorkflowConfig): LabelSpec[] {
  const { tracker } = config
  const states = [
    ...tracker.activeStates,
    ...config.automations.flatMap((a) => [...a.states, ...(a.moveToState ? [a.moveToState] : [])]),
    ...(tracker.completionState ? [tracker.completionState] : []),
    ...(tracker.failedState ? [tracker.failedState] : [])
  ].filter((s, i, all) => all.findIndex((o) => sameState(o, s)) === i)
  const state = (name: string): LabelSpec => {
    const starts = config.automations.some(
      (a) => a.enabled && a.states.some((s) => sameState(s, name))
    )
    return {
      name,
      color: starts ? '1d76db' : 'c5def5',
      description: starts
        ? 'itervox state: adding this label runs its pipeline stage'
        : 'itervox state'
    }
  }
  return [
    ...states.map(state),
    {
      name: NEEDS_INPUT_LABEL,
      color: 'fbca04',
      description: 'itervox: a stage asked a question; answer in a comment'
    },
    {
      name: NEEDS_ATTENTION_LABEL,
      color: 'd93f0b',
      description: 'itervox: the pipeline stopped and needs a person; see the status comment'
    }
  ]
}

async function labelExists(rest: Rest, name: string): Promise<boolean> {
  const r = await rest.call('GET', `/labels/${encodeURIComponent(name)}`)
  if (r.status === 200) return true
  if (r.status === 404) return false
  throw new UserError(
    `labels: cannot read the label "${name}" of ${rest.repo} (${r.status} ${messageOf(r.data)})`
  )
}

async function createLabel(rest: Rest, label: LabelSpec): Promise<'created' | 'exists'> {
  const r = await rest.call('POST', '/labels', label)
  if (r.status === 201) return 'created'
  // Made by someone else since it was looked up.
  if (r.status === 422 && JSON.stringify(r.data).includes('already_exists')) return 'exists'
  const hint =
    r.status === 403 || r.status === 404
      ? '; the token needs Issues: write (a fine-grained token) or the repo scope (a classic one)'
      : ''
  throw new UserError(
    `labels: GitHub refused to create the label "${label.name}" in ${rest.repo} (${r.status} ${messageOf(r.data)})${hint}`
  )
}
