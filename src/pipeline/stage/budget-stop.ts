import type { Issue, Tracker } from '../ports.js'
import { usd, type BudgetFigures } from './cost-budget.js'
import { recordStart, type IssueRecord } from '../record/record.js'
import { NEEDS_ATTENTION_LABEL } from '../names.js'
import { oneLine } from '../untrusted-text.js'

/**
 * A stage that would start over budget does not start: the issue escalates to a person
 * (needs-attention, a comment with the figures) and the record says why, so no later event
 * starts it again until someone moves the issue.
 */
export async function stopOverBudget(o: {
  tracker: Tracker
  issue: Issue
  record: IssueRecord
  state: string
  plan: { entry: number; newEntry: boolean; profile: string }
  why: string
  figures: BudgetFigures
  branch: string
  commentKey: string
}): Promise<IssueRecord> {
  const halted = `over budget: ${o.why}`
  const record: IssueRecord = { ...recordStart(o.record, o.state, o.plan), halted }
  await o.tracker.saveRecord(o.issue, record)
  await o.tracker.setFlag(o.issue, NEEDS_ATTENTION_LABEL, true)
  const f = o.figures
  const rows = [
    '| | Spent | Budget |',
    '|---|---|---|',
    `| Issue | ${usd(f.spentUsd)} | ${f.issueCapUsd !== undefined ? usd(f.issueCapUsd) : 'none'} |`,
    `| ${o.plan.profile} stage | ${usd(f.stageSpentUsd)} | ${f.stageCapUsd !== undefined ? usd(f.stageCapUsd) : 'none'} |`
  ]
  const unpriced =
    f.unpriced > 0 ? `\n\n${f.unpriced} earlier stage(s) reported no cost and count as $0.` : ''
  const body = [
    `**The ${o.plan.profile} stage did not start: ${oneLine(o.why)}.** The issue stays in "${oneLine(o.state)}" and is escalated to a person.`,
    rows.join('\n') + unpriced,
    'Raise the budget in WORKFLOW.md, or move the issue on by hand.',
    o.tracker.runLine(o.branch)
  ]
    .filter(Boolean)
    .join('\n\n')
  await o.tracker.comment(o.issue, { key: o.commentKey, body })
  return record
}
