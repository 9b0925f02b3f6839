// An input_required automation's answer: it resumes the waiting stage only with
// policy.auto_resume, and, being an agent's words, it never approves a gate.
import { describe, expect, it } from '@jest/globals'
import { approvalOf } from '../../../src/pipeline/decision/approval.js'
import type { JobTrigger } from '../../../src/pipeline/ports.js'

describe("an automation's answer", () => {
  const reply = (automation?: string): JobTrigger => ({
    source: 'comment',
    issue: '7',
    actor: { login: 'helper', type: 'User' },
    reply: { body: '/approve', author: 'helper', ...(automation ? { automation } : {}) }
  })

  it('approves nothing, though it reads as the approval command', () => {
    expect(approvalOf(reply())).toBe('comment')
    expect(approvalOf(reply('answer'))).toBeUndefined()
  })
})
