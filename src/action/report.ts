import { agentFigures } from '../pipeline/stage/agent-figures.js'
import { formatDuration } from '../pipeline/record/duration.js'
import type { PricedRun } from '../agent/prices.js'
import type { AgentStats } from '../agent/types.js'
import type { StageOutcome } from '../pipeline/record/outcome.js'
import { cellText, fenced } from '../pipeline/untrusted-text.js'
import type { PromptFigures } from '../pipeline/stage/stage-prompt.js'

/** Everything a stage reports: the action's outputs and its job summary are both made from it. */
export interface StageReport {
  outcome: StageOutcome
  reason: string
  issue?: string
  issueUrl?: string
  state?: string
  profile?: string
  branch?: string
  commit?: string
  handoffPath?: string
  handoffUrl?: string
  pullRequest?: { number: number; url: string }
  nextState?: string
  /** What the pipeline does next, in a sentence. */
  next?: string
  /** The pipeline diagram and stage table, as the status comment shows them. */
  status?: string
  durationMs?: number
  figures?: PromptFigures
  /** Paths the stage wrote but may not commit, with why; `.git` changes put back. */
  refused: string[]
  /** Secrets kept out of commits, comments, the record: where, and which kind. */
  withheld: string[]
  warnings: string[]
  agentStats?: AgentStats
  cost?: PricedRun
  /** Why the job fails whatever the outcome: the pipeline cannot go on without a person. */
  failure?: string
  /** A deliverable that could be pushed nowhere: the summary is where its text survives. */
  unsaved?: { path: string; text: string }
  /** dry-run: the prompt the agent would have been given. */
  prompt?: string
  runUrl?: string
}

// The job summary holds at most 1 MiB a step.
const MAX_PROMPT_IN_SUMMARY = 512 * 1024

/** One cell of a Markdown table, from untrusted text. */
const cell = (text: string) => cellText(text, 500)

export function renderSummary(r: StageReport): string {
  if (r.outcome === 'denied') return deniedSummary(r)
  const rows: [string, string][] = []
  const add = (k: string, v: string | undefined) => {
    if (v) rows.push([k, v])
  }
  add('Issue', r.issue && (r.issueUrl ? `[#${cell(r.issue)}](${r.issueUrl})` : cell(r.issue)))
  add('State', r.state && cell(r.state))
  add('Profile', r.profile && cell(r.profile))
  add('Outcome', `**${r.outcome}**${r.reason ? ` — ${cell(r.reason)}` : ''}`)
  add('Duration', r.durationMs !== undefined ? formatDuration(r.durationMs) : undefined)
  add('Branch', r.branch && `\`${cell(r.branch)}\``)
  add(
    'Deliverable',
    r.handoffPath &&
      (r.handoffUrl ? `[${cell(r.handoffPath)}](${r.handoffUrl})` : cell(r.handoffPath))
  )
  add('Commit', r.commit && `\`${r.commit.slice(0, 12)}\``)
  add('Pull request', r.pullRequest && `[#${r.pullRequest.number}](${r.pullRequest.url})`)
  add('Next state', r.nextState && cell(r.nextState))
  add('Next', r.next && cell(r.next))
  if (r.figures) {
    const f = r.figures
    add(
      'Prompt',
      `${f.bytes} bytes; ${f.included.length} prior handoff${f.included.length === 1 ? '' : 's'} included, ${f.dropped} dropped for the budget (block ${f.blockBytes} bytes)` +
        (f.truncatedFile ? `; ${cell(f.truncatedFile)} cut to fit` : '')
    )
  }
  add('Agent', agentFigures(r.agentStats, r.cost))
  add('Run', r.runUrl && `[logs](${r.runUrl})`)

  // The first row is the table's header: an empty header row would open the summary.
  const [head, ...rest] = rows.map(([k, v]) => `| ${k} | ${v} |`)
  let md = `## itervox handoff: ${r.outcome}\n\n${head}\n|---|---|\n`
  md += rest.map((row) => `${row}\n`).join('')
  if (r.failure) md += `\n**The pipeline needs a person:** ${cell(r.failure)}\n`
  if (r.status) md += `\n${r.status}\n`
  if (r.refused.length > 0) {
    md += `\n### Refused\n\n${r.refused.map((x) => `- ${cell(x)}`).join('\n')}\n`
  }
  if (r.withheld.length > 0) {
    md += `\n### Secrets withheld\n\nFound in what this stage would have published, and kept out of it (values are never shown). Rotate any that are real.\n\n${r.withheld.map((x) => `- ${cell(x)}`).join('\n')}\n`
  }
  md += warningsOf(r)
  if (r.unsaved) {
    md += `\n<details open><summary>Unsaved deliverable ${cell(r.unsaved.path)}</summary>\n\n${fenced(r.unsaved.text.slice(0, MAX_PROMPT_IN_SUMMARY), '`', 'markdown')}\n\n</details>\n`
  }
  if (r.prompt !== undefined) {
    const shown =
      r.prompt.length > MAX_PROMPT_IN_SUMMARY ? r.prompt.slice(0, MAX_PROMPT_IN_SUMMARY) : r.prompt
    md += `\n<details><summary>Prompt (dry run)</summary>\n\n${fenced(shown, '`', 'markdown')}\n\n</details>\n`
  }
  return md
}

/**
 * A denied run ran nothing and wrote nothing (no comment either: the one who caused it may not
 * write here, and a comment would let anyone who can label make the pipeline speak): one line
 * says who was refused and why, with the warnings about the config, if any.
 */
function deniedSummary(r: StageReport): string {
  const issue = r.issue && (r.issueUrl ? `[#${cell(r.issue)}](${r.issueUrl})` : cell(r.issue))
  const line = `denied${issue ? ` on ${issue}` : ''}: ${cell(r.reason) || 'no reason given'}`
  return `## itervox handoff: denied\n\n${line}\n${warningsOf(r)}`
}

function warningsOf(r: StageReport): string {
  if (r.warnings.length === 0) return ''
  return `\n### Warnings\n\n${r.warnings.map((x) => `- ${cell(x)}`).join('\n')}\n`
}
