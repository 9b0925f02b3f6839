import { describe, expect, it } from '@jest/globals'
import { findNeedsInput } from '../../../src/agent/needs-input.js'
import {
  permittedRequests,
  readRequests,
  requestsSection
} from '../../../src/pipeline/decision/requests.js'
import { SecretScanner } from '../../../src/secrets/scanner.js'
import { keyShaped } from '../../secrets/key-samples.js'

describe('agent requests in deliverable front matter', () => {
  it('reads move_state, comment, comment_pr and verdict', () => {
    const r = readRequests(
      '---\nmove_state: Done\ncomment: "All good \u200b"\nverdict: pass\n---\n# Review\n'
    )
    expect(r).toEqual({
      requests: { moveState: 'Done', comment: 'All good', verdict: 'PASS' },
      problems: []
    })
  })

  it('has no requests without front matter, and reports malformed ones as problems', () => {
    expect(readRequests('# Just a report\n')).toEqual({ requests: {}, problems: [] })
    expect(readRequests('---\nmove_state: [a, b]\nmerge_pr: 1\n---\n').problems).toEqual([
      'move_state must be a non-empty string',
      'unknown key "merge_pr" ignored; use move_state, comment, comment_pr, verdict, key_facts, decisions, open_questions, confidence'
    ])
    expect(readRequests('---\nverdict: maybe\n---\n').problems).toEqual([
      'verdict must be PASS or FAIL, not "maybe"'
    ])
    expect(readRequests('---\n' + '- '.repeat(5000) + 'x\n---\n').problems[0]).toMatch(
      /not valid YAML|nested/
    )
  })

  it('still reads a request once a secret in it was redacted, wherever in a YAML scalar it stood', () => {
    const key = keyShaped.anthropic
    const token = keyShaped.githubServer
    const scanner = new SecretScanner([{ name: 'DEPLOY_KEY', value: 'p@ss-w0rd-1234' }])
    const said = (value: string) => {
      const redacted = scanner.redact(`---\nverdict: FAIL\ncomment: ${value}\n---\n# Review\n`)
      expect(redacted.kinds).not.toEqual([])
      return readRequests(redacted.text)
    }
    const m = '(redacted Anthropic API key)'
    for (const [value, comment] of [
      [`${key} at the start`, `${m} at the start`],
      [`in the ${key} middle`, `in the ${m} middle`],
      [`at the end ${key}`, `at the end ${m}`],
      [key, m],
      [`"${key}: quoted"`, `${m}: quoted`],
      [`'${key} #quoted'`, `${m} #quoted`],
      [`|\n  block ${key}\n  more`, `block ${m}\nmore`],
      [`>-\n  ${key}`, m],
      [`${token} then ${key}`, `(redacted GitHub token) then ${m}`],
      [`p@ss-w0rd-1234 #1`, '(redacted DEPLOY_KEY)'],
      ['cEBzcy13MHJkLTEyMz', '(redacted DEPLOY_KEY base64)']
    ]) {
      expect(said(value!)).toEqual({ requests: { verdict: 'FAIL', comment }, problems: [] })
    }
    const flow = scanner.redact(`---\n{ verdict: FAIL, comment: [${key}, x] }\n---\n`).text
    expect(readRequests(flow).problems).toEqual(['comment must be a non-empty string'])
  })

  it('cuts the front matter as WORKFLOW.md is cut: fences are lines of exactly ---', () => {
    expect(readRequests('---\r\nverdict: pass\r\n---\r\n# Review\r\n').requests).toEqual({
      verdict: 'PASS'
    })
    expect(readRequests('---\nverdict: pass\n').problems).toEqual([
      'the front matter is not closed by a --- line within 16 KiB'
    ])
    expect(readRequests('--- \nverdict: pass\n---\n')).toEqual({ requests: {}, problems: [] })
  })

  const anywhere = { from: 'Todo', profile: 'reviewer', states: ['Todo', 'Done', 'Closed'] }

  it('keeps only what the profile allows, and moves only to known states', () => {
    const requests = { moveState: 'done', comment: 'hi', commentPr: 'pr', verdict: 'FAIL' as const }
    expect(
      permittedRequests(requests, ['move_state', 'comment'], ['Todo', 'Done'], anywhere)
    ).toEqual({
      permitted: { moveState: 'Done', comment: 'hi', verdict: 'FAIL' },
      refused: ['comment_pr: the profile may not comment on the pull request']
    })
    expect(
      permittedRequests({ moveState: 'Shipped' }, ['move_state'], ['Done'], anywhere).refused
    ).toEqual(['move_state: "Shipped" is not a state of WORKFLOW.md'])
    expect(permittedRequests({ moveState: 'Done' }, [], ['Done'], anywhere).refused).toEqual([
      'move_state: the profile may not move the issue'
    ])
  })

  it("refuses a move outside the stage's scope, with one line saying what to change", () => {
    const scope = { from: 'Implementing', profile: 'reviewer', states: ['Reviewing', 'Done'] }
    const known = ['Implementing', 'Reviewing', 'Done', 'Closed']
    expect(permittedRequests({ moveState: 'closed' }, ['move_state'], known, scope)).toEqual({
      permitted: {},
      refused: [
        'move_state: "Closed" is outside the pipeline from "Implementing" (it may move to "Reviewing", "Done"); to allow it, add it to agent.profiles.reviewer.allowed_states'
      ]
    })
    expect(
      permittedRequests({ moveState: 'done' }, ['move_state'], known, scope).permitted
    ).toEqual({ moveState: 'Done' })
  })

  it('tells the agent which requests its profile may make, and where it may move the issue', () => {
    const text = requestsSection(['move_state'], true, ['Reviewing', 'Done'])
    expect(text).toContain('`move_state` (move the issue to one of: "Reviewing", "Done")')
    expect(text).toContain('`verdict` (required in this review')
    expect(text).not.toContain('comment:')
    expect(requestsSection([], false, [])).toContain('may not request any action')
  })

  it('tells the agent how to ask a person, in words that ask nothing when echoed', () => {
    const text = requestsSection([], false, [])
    expect(text).toContain('a line holding only `<!-- itervox:needs-input -->`')
    expect(findNeedsInput(text)).toBeUndefined()
  })
})
