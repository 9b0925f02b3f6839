// The GitHub events an automation answers, read from payloads shaped like GitHub's own.
import { describe, expect, it } from '@jest/globals'
import { triggerFromEvent } from '../../src/action/event.js'
import { makeEvent } from '../harness/events.js'

describe('issue_comment created', () => {
  it('carries the comment as an event named by its id, beside the reply it may be', () => {
    const e = makeEvent('issue_comment.created', {
      issue: 3,
      comment: '/summarise',
      commentId: 77,
      sender: 'ada'
    })
    expect(triggerFromEvent('issue_comment', e, {})).toMatchObject({
      kind: 'run',
      source: 'comment',
      issue: '3',
      reply: { body: '/summarise', author: 'ada' },
      event: { type: 'tracker_comment_added', comment: 77, body: '/summarise', author: 'ada' }
    })
  })

  it("starts nothing for the pipeline's own comments, whoever delivers them", () => {
    for (const body of [
      '<!-- itervox:status -->\n**Pipeline**',
      '  <!-- itervox:agent:3:1001.1 -->\n**helper (agent):**\n\n/summarise'
    ]) {
      const e = makeEvent('issue_comment.created', {
        issue: 3,
        comment: body,
        sender: 'my-app[bot]'
      })
      expect(triggerFromEvent('issue_comment', e, {})).toEqual({
        kind: 'skip',
        reason: "the pipeline's own comment starts nothing"
      })
    }
    // A marker that is not the first line, or not ours, is a person's text.
    const quoted = makeEvent('issue_comment.created', { comment: 'see\n<!-- itervox:status -->' })
    expect(triggerFromEvent('issue_comment', quoted, {})).toMatchObject({ kind: 'run' })
  })
})

describe('pull_request opened and closed', () => {
  it("is the issue's pr_opened or pr_merged event when its head is itervox/<number> here", () => {
    const opened = makeEvent('pull_request.opened', { issue: 9, head: 'itervox/4', sender: 'ada' })
    expect(triggerFromEvent('pull_request', opened, {})).toMatchObject({
      kind: 'run',
      source: 'event',
      issue: '4',
      actor: { login: 'ada' },
      event: { type: 'pr_opened', pullRequest: 9 }
    })
    const merged = makeEvent('pull_request.closed', { issue: 9, head: 'itervox/4', merged: true })
    expect(triggerFromEvent('pull_request', merged, {})).toMatchObject({
      kind: 'run',
      issue: '4',
      event: { type: 'pr_merged', pullRequest: 9 }
    })
  })

  it('starts nothing for a pull request closed unmerged, from a fork, or of no issue', () => {
    const closed = makeEvent('pull_request.closed', { issue: 9, head: 'itervox/4', merged: false })
    expect(triggerFromEvent('pull_request', closed, {})).toEqual({
      kind: 'skip',
      reason: 'the pull request was closed without merging; only a merge starts pr_merged'
    })
    const fork = makeEvent('pull_request.opened', {
      issue: 9,
      head: 'itervox/4',
      headRepo: 'mallory/demo'
    })
    const other = makeEvent('pull_request.closed', { issue: 9, head: 'feature', merged: true })
    for (const [e, action] of [
      [fork, 'opened'],
      [other, 'closed']
    ] as const) {
      expect(triggerFromEvent('pull_request', e, {})).toEqual({
        kind: 'skip',
        reason: `the ${action} pull request is no issue's pipeline (head itervox/<number> in this repository)`
      })
    }
  })
})
