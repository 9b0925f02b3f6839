import * as core from '@actions/core'
import { writeJobSummary } from './job-summary.js'
import { renderSummary, type StageReport } from './report.js'

/** Sets every output DESIGN.md names (empty when it does not apply) and writes the summary. */
export async function publishReport(r: StageReport): Promise<void> {
  const outputs: Record<string, string> = {
    issue: r.issue ?? '',
    state: r.state ?? '',
    profile: r.profile ?? '',
    outcome: r.outcome,
    'handoff-path': r.handoffPath ?? '',
    branch: r.branch ?? '',
    commit: r.commit ?? '',
    'pull-request': r.pullRequest ? String(r.pullRequest.number) : '',
    'next-state': r.nextState ?? ''
  }
  for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value)
  await writeJobSummary(renderSummary(r))
}
