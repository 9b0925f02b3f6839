import { describe, expect, it } from '@jest/globals'
import { parse as parseYaml } from 'yaml'
import { actionsWorkflow } from '../../src/cli/actions-workflow.js'
import { missingEventProblems, reconcileCron } from '../../src/cli/workflow-events.js'
import { BASE, edit, parse } from '../config/helpers.js'

interface Written {
  on: Record<string, { types?: string[] } | { cron: string }[]>
  jobs: { stage: { if: string } }
}

const EVERY_TRIGGER = edit(
  '---\n\nWork',
  [
    '  - id: comment',
    '    trigger: {type: tracker_comment_added}',
    '    profile: reviewer',
    '  - id: opened',
    '    trigger: {type: pr_opened}',
    '    profile: reviewer',
    '  - id: merged',
    '    trigger: {type: pr_merged}',
    '    profile: reviewer',
    '  - id: unblocked',
    '    trigger: {type: blockers_resolved}',
    '    profile: reviewer',
    '  - id: nightly',
    '    trigger: {type: cron, cron: "7 2 * * *", timezone: Asia/Kolkata}',
    '    profile: reviewer',
    '---\n\nWork'
  ].join('\n')
)

function written(text: string): Written {
  return parseYaml(actionsWorkflow(parse(text).config)) as Written
}

describe('the events init writes', () => {
  it('are the label, comment, dispatch and schedule events when only states start stages', () => {
    const w = written(BASE)
    expect(w.on.issues).toEqual({ types: ['labeled', 'unlabeled'] })
    expect(w.on.pull_request).toEqual({ types: ['labeled', 'reopened'] })
    expect(w.on.schedule).toEqual([{ cron: '*/15 * * * *' }])
    expect(w.jobs.stage.if).toContain("contains(github.event.issue.labels.*.name, 'needs-input')")
    expect(w.jobs.stage.if).not.toContain("github.event.action == 'closed'")
  })

  it('add each event a trigger arrives on, and its `if:`', () => {
    const w = written(EVERY_TRIGGER)
    expect(w.on.issues).toEqual({ types: ['labeled', 'unlabeled', 'closed'] })
    expect(w.on.pull_request).toEqual({ types: ['labeled', 'reopened', 'opened', 'closed'] })
    // 02:07 in Kolkata (+05:30) is 20:37 UTC.
    expect(w.on.schedule).toEqual([{ cron: '0,15,30,37,45 * * * *' }])
    const condition = w.jobs.stage.if.replace(/\s+/g, ' ')
    expect(condition).toContain(
      "(github.event_name == 'pull_request' && github.event.action == 'closed' && github.event.pull_request.merged && github.event.pull_request.head.repo.full_name == github.repository)"
    )
    expect(condition).toContain(
      "(github.event_name == 'issues' && github.event.action == 'closed')"
    )
    // Any person's comment, not only a needs-input reply.
    expect(condition).not.toContain("'needs-input'")
    expect(condition).toContain('github.event.comment.author_association')
  })

  it('let the backlog labels through for issue_moved_to_backlog', () => {
    const text = edit(
      '  kind: github\n',
      '  kind: github\n  backlog_states: [Icebox]\n',
      edit(
        '---\n\nWork',
        '  - id: triage\n    trigger: {type: issue_moved_to_backlog}\n    profile: reviewer\n---\n\nWork'
      )
    )
    expect(written(text).jobs.stage.if).toContain(`fromJSON('["Todo","Icebox"]')`)
  })

  it('leave a disabled automation out', () => {
    const text = EVERY_TRIGGER.replace('  - id: merged\n', '  - id: merged\n    enabled: false\n')
    expect(written(text).on.pull_request).toEqual({ types: ['labeled', 'reopened', 'opened'] })
  })

  it('for Linear, are only the pull request events of GitHub', () => {
    const linear = EVERY_TRIGGER.replace('  kind: github\n', '  kind: linear\n  api_key: k\n')
    const w = written(linear)
    expect(Object.keys(w.on).sort()).toEqual([
      'pull_request',
      'repository_dispatch',
      'schedule',
      'workflow_dispatch'
    ])
    expect(w.on.pull_request).toEqual({ types: ['opened', 'closed'] })
  })
})

describe('validate, on a committed workflow', () => {
  const now = new Date('2025-06-02T00:00:00Z')

  it('names each missing event with the automation and the line', () => {
    const config = parse(EVERY_TRIGGER).config
    const old = actionsWorkflow(parse(BASE).config)
    const line = (text: string) => old.split('\n').indexOf(text) + 1
    expect(missingEventProblems(old, config, now)).toEqual([
      {
        line: line('    types: [labeled, reopened]'),
        message:
          'automations[2] ("opened", pr_opened) needs the pull_request event of type opened, which this workflow does not listen to; add opened to on.pull_request.types, or run itervox-handoff init --workflow-only'
      },
      {
        line: line('    types: [labeled, reopened]'),
        message:
          'automations[3] ("merged", pr_merged) needs the pull_request event of type closed, which this workflow does not listen to; add closed to on.pull_request.types, or run itervox-handoff init --workflow-only'
      },
      {
        line: line('    types: [labeled, unlabeled]'),
        message:
          'automations[4] ("unblocked", blockers_resolved) needs the issues event of type closed, which this workflow does not listen to; add closed to on.issues.types, or run itervox-handoff init --workflow-only'
      },
      {
        line: line('  schedule:') + 1,
        message:
          'automations[5] ("nightly") is a cron automation whose slot at 2025-06-02T20:37:00.000Z waits 8 minutes for the next scheduled run; add its minutes to on.schedule (times in UTC), or run itervox-handoff init --workflow-only'
      }
    ])
  })

  it('finds nothing missing in what init writes', () => {
    const config = parse(EVERY_TRIGGER).config
    expect(missingEventProblems(actionsWorkflow(config), config, now)).toEqual([])
  })

  it('takes an event listed without types as all of its types', () => {
    const config = parse(EVERY_TRIGGER).config
    const text = actionsWorkflow(config).replace(
      '  pull_request:\n    types: [labeled, reopened, opened, closed]\n',
      '  pull_request:\n'
    )
    expect(missingEventProblems(text, config, now)).toEqual([])
  })
})

describe('reconcileCron', () => {
  it('keeps every 15 minutes for slots on those minutes, in any zone', () => {
    const text = edit(
      '---\n\nWork',
      '  - id: n\n    trigger: {type: cron, cron: "30 9 * * 1-5", timezone: America/New_York}\n    profile: reviewer\n---\n\nWork'
    )
    expect(reconcileCron(parse(text).config)).toBe('*/15 * * * *')
  })
})
