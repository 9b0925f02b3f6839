// tracker_comment_added: a person's comment on the issue (issue_comment created). The event
// reader has already left out the pipeline's own comments, and the job has already given an
// `/approve` and a reply to a waiting question their own meaning.
import type { AutomationEvent } from '../ports.js'
import { currentPlace, type TriggerRule } from './rule.js'

type CommentAdded = Extract<AutomationEvent, { type: 'tracker_comment_added' }>

export const commentAdded: TriggerRule<CommentAdded> = {
  type: 'tracker_comment_added',
  occasion(e, c) {
    const place = currentPlace(c)
    if (!place) return { skip: `${c.issue.identifier} carries no state` }
    return {
      ...place,
      key: `comment-${e.comment}`,
      about: `A person commented on ${c.issue.identifier}; the automation runs for that comment.`,
      text: { author: e.author, body: e.body }
    }
  },
  conditions(a, e) {
    const f = a.filter
    const body = e.body.toLowerCase()
    const out: boolean[] = []
    if (f.bodyContains.length > 0) {
      out.push(f.bodyContains.some((s) => body.includes(s.toLowerCase())))
    }
    if (f.bodyRegex) out.push(f.bodyRegex.test(e.body))
    return out
  }
}
