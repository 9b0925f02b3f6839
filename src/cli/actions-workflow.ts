import { basename } from 'node:path'
import { isScalar, parseDocument } from 'yaml'
import { sameState } from '../config/lookup.js'
import { DISPATCH_TYPE, NEEDS_INPUT_LABEL } from '../pipeline/names.js'
import { APPROVED_LABEL } from '../pipeline/decision/approval.js'
import { PAUSED_LABEL } from '../pipeline/record/pause.js'
import type { WorkflowConfig } from '../config/types.js'
import { stageJobMinutes } from '../pipeline/stage/job-timeout.js'
import { AGENT_CLI_VERSIONS, type AgentCliName } from '../agent/cli-versions.js'
import { modelProvider } from '../agent/model-providers.js'
import { needsEvent, reconcileCron, runningAutomations } from './workflow-events.js'

export const ACTIONS_WORKFLOW_PATH = '.github/workflows/itervox.yml'

/** The action's published name, as a workflow uses it. */
const ACTION_REF = 'itervox/handoff-action@v1'

/**
 * `.github/workflows/itervox.yml` for WORKFLOW.md, in the shape of this repository's own
 * example workflow: one job per stage, started by a label that starts an automation, a
 * person's answer on an issue waiting for input, a manual dispatch, or the pipeline's own
 * repository_dispatch; one stage at a time per issue, never cancelled; the permissions the
 * action needs and nothing more; the profiles' agent CLIs installed before any secret is set.
 */
export function actionsWorkflow(config: WorkflowConfig): string {
  // A JSON array inside a single-quoted expression string, where a quote is written twice.
  const labels = JSON.stringify(startStates(config)).replace(/'/g, "''")
  const clis = agentClis(config)
  const minutes = stageJobMinutes(config)
  const linear = config.tracker.kind === 'linear'
  const prTypes = ['labeled', 'reopened', ...prTriggerTypes(config)]
  const lines = [
    '# itervox handoff: one pipeline stage per job, written by itervox-handoff init from',
    '# WORKFLOW.md. After changing WORKFLOW.md, run itervox-handoff init --workflow-only to write',
    '# it again: it keeps the refs of the actions (pin them to full commit SHAs), and shows any',
    '# other edit of yours before it would undo it.',
    'name: itervox',
    '',
    'on:',
    ...(linear
      ? [
          '  # Linear sends GitHub no events: the reconcile job below finds issues that entered a',
          "  # state, and answers to a stage's question, and starts their stages.",
          ...(prTypes.length > 2
            ? [
                "  # An issue's pull request opening or merging on GitHub starts the automations",
                '  # of WORKFLOW.md that wait for it (pr_opened, pr_merged).',
                '  pull_request:',
                `    types: [${prTriggerTypes(config).join(', ')}]`
              ]
            : [])
        ]
      : [
          `  # A person adds a state label: the issue entered that state. Adding ${APPROVED_LABEL}`,
          `  # approves a waiting stage; removing ${PAUSED_LABEL} resumes a paused issue.`,
          ...(needsEvent(config, 'issues', 'closed')
            ? ["  # Closing an issue resolves its dependants' blockers (blockers_resolved)."]
            : []),
          '  issues:',
          `    types: [labeled, unlabeled${needsEvent(config, 'issues', 'closed') ? ', closed' : ''}]`,
          "  # The same for a pull request; the stage works on the pull request's branch.",
          "  # Reopening an issue's pull request resumes the pipeline its closing paused.",
          ...(prTypes.length > 2
            ? [
                '  # Its opening or merging starts the automations that wait for it (pr_opened, pr_merged).'
              ]
            : []),
          '  pull_request:',
          `    types: [${prTypes.join(', ')}]`,
          `  # A person answers a stage that asked for input (the issue carries \`${NEEDS_INPUT_LABEL}\`),`,
          needsEvent(config, 'issue_comment', 'created')
            ? '  # approves a waiting stage with /approve, or comments (tracker_comment_added).'
            : '  # or approves a waiting stage with /approve.',
          '  issue_comment:',
          '    types: [created]'
        ]),
    '  # Start or rerun a stage by hand from the Actions tab.',
    '  workflow_dispatch:',
    '    inputs:',
    '      issue:',
    `        description: ${linear ? 'Linear issue key (ENG-123)' : 'Issue or pull request number'}`,
    '        required: true',
    ...(linear
      ? ['        type: string']
      : [
          '        # A number, so the form takes 42 (not #42) and the concurrency group below is',
          "        # itervox-42 for a manual run as for the label's job.",
          `        type: ${ISSUE_INPUT_TYPE}`
        ]),
    '      state:',
    "        description: State to run (empty means the issue's current state label)",
    '        required: false',
    '        type: string',
    '  # The action starts the next stage this way: labels changed with GITHUB_TOKEN start no',
    '  # workflow, but a repository_dispatch does.',
    '  repository_dispatch:',
    `    types: [${DISPATCH_TYPE}]`,
    '  # Every 15 minutes (best effort: GitHub may run it late, or skip it under load), the',
    `  # reconcile job starts ${linear ? 'what Linear issues are owed' : 'what an event missed'}${hasCron(config) ? ", and the cron automations' slots (times in UTC)" : ''}.`,
    '  schedule:',
    `    - cron: '${reconcileCron(config)}'`,
    '',
    '# The job token may push the issue branch, send the dispatch, open the pull request, change',
    '# labels and comments, and read whether a run that holds a stage is still going. Nothing else.',
    'permissions:',
    '  actions: read',
    '  contents: write',
    '  issues: write',
    '  pull-requests: write',
    '',
    'jobs:',
    '  stage:',
    ...(linear ? linearCondition(config) : stageCondition(labels, config)),
    '    runs-on: ubuntu-latest',
    '    # One stage at a time per issue; a running stage is never cancelled (it would lose its',
    '    # work).',
    '    concurrency:',
    '      group: itervox-${{ github.event.issue.number || github.event.pull_request.number || github.event.client_payload.issue || inputs.issue }}',
    '      cancel-in-progress: false',
    `    # agent.turn_timeout_ms (${minutes.agent} minutes) and time to commit what the agent left.`,
    `    timeout-minutes: ${minutes.job}`,
    '    steps:',
    '      # The action fetches the issue branch and pushes with its own token; no credential',
    '      # is left in .git for the agent to find.',
    '      - uses: actions/checkout@v6',
    '        with:',
    '          persist-credentials: false',
    '          fetch-depth: 1',
    ...(clis.packages.length > 0
      ? [
          '',
          '      # Installed before any secret is in the environment, at the version the action was',
          '      # tested with. To update: change it here, or run itervox-handoff init --workflow-only',
          '      # with a newer itervox-handoff.',
          '      - name: Install the agent CLI',
          `        run: npm install -g ${clis.packages.join(' ')}`
        ]
      : []),
    ...clis.others.map((c) => `      # Install "${c}" here: a profile runs it.`),
    '',
    '      - name: Run the stage',
    '        id: handoff',
    `        uses: ${ACTION_REF}`,
    ...(clis.secrets.length > 0 || linear
      ? [
          '        env:',
          ...(clis.secrets.length > 0
            ? [
                '          # Only the model key reaches the agent; the action removes runner tokens.'
              ]
            : []),
          ...clis.secrets.map((s) => `          ${s}: \${{ secrets.${s} }}`),
          ...(linear ? linearEnv('          ') : [])
        ]
      : []),
    '        with:',
    '          # Set by dispatches; empty for label and comment events, which name the issue.',
    '          issue: ${{ inputs.issue || github.event.client_payload.issue }}',
    '          state: ${{ inputs.state || github.event.client_payload.state }}',
    '          chain: dispatch',
    '          # The stop switch for every issue: set the repository variable to true.',
    '          paused: ${{ vars.ITERVOX_PAUSED }}',
    '',
    ...reconcileJob(linear),
    ''
  ]
  return lines.join('\n')
}

/**
 * The scheduled job: no agent, no checkout, a few requests per issue in a state that starts a
 * stage. It starts, once each, the stages a lost label event or wake-up left unstarted.
 */
function reconcileJob(linear: boolean): string[] {
  return [
    '  reconcile:',
    "    if: github.event_name == 'schedule'",
    '    runs-on: ubuntu-latest',
    '    # One reconcile at a time; an overlapping one would still start each stage once.',
    '    concurrency:',
    '      group: itervox-reconcile',
    '      cancel-in-progress: false',
    '    timeout-minutes: 10',
    '    steps:',
    `      - name: ${linear ? 'Start the stages Linear issues are owed' : 'Start the stages events missed'}`,
    `        uses: ${ACTION_REF}`,
    ...(linear ? ['        env:', ...linearEnv('          ')] : []),
    '        with:',
    '          mode: reconcile',
    '          paused: ${{ vars.ITERVOX_PAUSED }}'
  ]
}

/** The Linear key WORKFLOW.md's api_key reads (init writes `$LINEAR_API_KEY`). */
function linearEnv(indent: string): string[] {
  return [
    `${indent}# WORKFLOW.md's tracker.api_key; the agent never gets it.`,
    `${indent}LINEAR_API_KEY: \${{ secrets.LINEAR_API_KEY }}`
  ]
}

/**
 * Only the labels that start a stage, never a fork's pull request, and only people's answers
 * on an issue that waits for input.
 */
function stageCondition(labels: string, config: WorkflowConfig): string[] {
  const comments = needsEvent(config, 'issue_comment', 'created')
  return [
    "    # Only the labels that start a stage, never a fork's pull request, and only people's",
    '    # answers on an issue that waits for input.',
    '    if: >-',
    "      (github.event_name == 'issues' && github.event.action == 'labeled' &&",
    `        contains(fromJSON('${labels}'), github.event.label.name)) ||`,
    "      (github.event_name == 'issues' && github.event.action == 'labeled' &&",
    `        github.event.label.name == '${APPROVED_LABEL}') ||`,
    "      (github.event_name == 'issues' && github.event.action == 'unlabeled' &&",
    `        github.event.label.name == '${PAUSED_LABEL}') ||`,
    "      (github.event_name == 'pull_request' &&",
    '        github.event.pull_request.head.repo.full_name == github.repository &&',
    `        contains(fromJSON('${labels}'), github.event.label.name)) ||`,
    "      (github.event_name == 'pull_request' && github.event.action == 'reopened' &&",
    '        github.event.pull_request.head.repo.full_name == github.repository &&',
    "        startsWith(github.event.pull_request.head.ref, 'itervox/')) ||",
    ...pullRequestTriggers(config),
    ...(needsEvent(config, 'issues', 'closed')
      ? ["      (github.event_name == 'issues' && github.event.action == 'closed') ||"]
      : []),
    "      (github.event_name == 'issue_comment' &&",
    // tracker_comment_added: any comment by a person; the stage reads its body.
    ...(comments
      ? []
      : [
          `        (contains(github.event.issue.labels.*.name, '${NEEDS_INPUT_LABEL}') ||`,
          "          startsWith(github.event.comment.body, '/approve')) &&"
        ]),
    // Only people who can have write access queue a job: an outsider's comment would
    // otherwise replace a pending job of this issue's concurrency group.
    `        contains(fromJSON('["OWNER", "MEMBER", "COLLABORATOR"]'), github.event.comment.author_association)) ||`,
    "      github.event_name == 'workflow_dispatch' ||",
    "      github.event_name == 'repository_dispatch'"
  ]
}

/** For Linear: only the dispatches, and the GitHub pull requests automations wait for. */
function linearCondition(config: WorkflowConfig): string[] {
  const dispatches =
    "github.event_name == 'workflow_dispatch' || github.event_name == 'repository_dispatch'"
  const prs = pullRequestTriggers(config)
  if (prs.length === 0) return [`    if: ${dispatches}`]
  return ['    if: >-', ...prs, `      ${dispatches}`]
}

/** pull_request types the automations wait for: opened (pr_opened), closed (pr_merged). */
function prTriggerTypes(config: WorkflowConfig): string[] {
  return (['opened', 'closed'] as const).filter((t) => needsEvent(config, 'pull_request', t))
}

/** The `if:` lines letting an issue's own pull request opening or merging through. */
function pullRequestTriggers(config: WorkflowConfig): string[] {
  return prTriggerTypes(config).map((type) =>
    [
      `      (github.event_name == 'pull_request' && github.event.action == '${type}' &&`,
      ...(type === 'closed' ? ['        github.event.pull_request.merged &&'] : []),
      '        github.event.pull_request.head.repo.full_name == github.repository) ||'
    ].join('\n')
  )
}

function hasCron(config: WorkflowConfig): boolean {
  return runningAutomations(config).some((a) => a.trigger.type === 'cron')
}

/**
 * The type of a GitHub pipeline's manual-run `issue` input. GitHub expressions cannot rewrite
 * `#42` as `42`, so the concurrency group, keyed on the input, would put a manual run for `#42`
 * beside the label's job for 42; a number input is always written 42.
 */
const ISSUE_INPUT_TYPE = 'number'

/**
 * Whether the workflow's manual run of a GitHub pipeline takes the issue as a number (see
 * ISSUE_INPUT_TYPE); null when it does, or has no such input.
 */
export function issueInputProblem(
  text: string,
  config: WorkflowConfig
): { line: number; message: string } | null {
  if (config.tracker.kind !== 'github') return null
  const doc = parseDocument(text, { keepSourceTokens: false })
  const node = doc.getIn(['on', 'workflow_dispatch', 'inputs', 'issue', 'type'], true)
  if (!isScalar(node) || node.value === ISSUE_INPUT_TYPE) return null
  const line = node.range ? text.slice(0, node.range[0]).split('\n').length : 1
  return {
    line,
    message: `the manual run's issue input is type ${String(node.value)}: a run given #42 would share no concurrency group with the label's job for 42 and could run the stage beside it; make it type: ${ISSUE_INPUT_TYPE}`
  }
}

// The label list of a job's `if:`, as actionsWorkflow writes it.
const LABEL_LIST = /contains\(fromJSON\('((?:[^']|'')*)'\),\s*github\.event\.label\.name\)/g

export interface LabelListProblem {
  line: number
  message: string
  /** A state that starts a stage but is not let through: its label would start nothing. */
  error: boolean
}

/**
 * Whether the workflow's `if:` lets through exactly the labels that start a stage: a missing
 * one would start nothing, an extra one a job that is skipped.
 */
export function labelListProblems(text: string, config: WorkflowConfig): LabelListProblem[] {
  const wanted = startStates(config)
  const out: LabelListProblem[] = []
  for (const m of text.matchAll(LABEL_LIST)) {
    const line = text.slice(0, m.index).split('\n').length
    let listed: unknown
    try {
      listed = JSON.parse(m[1]!.replace(/''/g, "'"))
    } catch {
      listed = null
    }
    if (!Array.isArray(listed) || !listed.every((l) => typeof l === 'string')) {
      out.push({ line, message: 'the label list is not a JSON array of strings', error: true })
      continue
    }
    const missing = wanted.filter((w) => !listed.some((l: string) => sameState(l, w)))
    const extra = (listed as string[]).filter((l) => !wanted.some((w) => sameState(l, w)))
    const redo = 'run itervox-handoff init --workflow-only, or edit the list'
    if (missing.length > 0) {
      out.push({
        line,
        message: `the label list lacks ${missing.map((x) => JSON.stringify(x)).join(', ')}, which ${missing.length === 1 ? 'starts a stage' : 'start stages'} in ${config.file}: such a label would start nothing; ${redo}`,
        error: true
      })
    }
    if (extra.length > 0) {
      out.push({
        line,
        message: `the label list has ${extra.map((x) => JSON.stringify(x)).join(', ')}, which ${config.file} starts no stage with: such a label starts a job that is skipped; ${redo}`,
        error: false
      })
    }
  }
  return out
}

/**
 * States whose label starts a running automation, each once: those issue_entered_state
 * names, and the backlog states when issue_moved_to_backlog runs.
 */
function startStates(config: WorkflowConfig): string[] {
  const out: string[] = []
  for (const a of runningAutomations(config)) {
    const states =
      a.trigger.type === 'issue_moved_to_backlog' ? config.tracker.backlogStates : a.states
    for (const s of states) {
      if (!out.some((o) => sameState(o, s))) out.push(s)
    }
  }
  return out
}

/** The repository secrets the profiles' agent CLIs read their model key from, sorted. */
export function agentSecrets(config: WorkflowConfig): string[] {
  return agentClis(config).secrets
}

/** npm packages and secrets of the agent CLIs the profiles run; other commands by name. */
function agentClis(config: WorkflowConfig): {
  packages: string[]
  secrets: string[]
  others: string[]
} {
  const packages = new Set<string>()
  const secrets = new Set<string>()
  const others = new Set<string>()
  for (const p of Object.values(config.agent.profiles)) {
    if (!p.enabled) continue
    const command = p.argv[0] ?? ''
    const name = basename(command)
    if (Object.hasOwn(AGENT_CLI_VERSIONS, name)) {
      const { pkg, version } = AGENT_CLI_VERSIONS[name as AgentCliName]
      packages.add(`${pkg}@${version}`)
      // The key each CLI reads (`codex exec` reads CODEX_API_KEY; with only OPENAI_API_KEY it
      // sends no key at all).
      secrets.add(modelProvider(name as AgentCliName)!.secret)
    } else if (!command.includes('/')) {
      // A script in the repository needs no installing; anything else does.
      others.add(command)
    }
  }
  return {
    packages: [...packages].sort(),
    secrets: [...secrets].sort(),
    others: [...others].sort()
  }
}
