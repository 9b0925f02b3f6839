import { splitFrontMatter } from '../../config/front-matter.js'
import { sameState } from '../../config/lookup.js'
import { readYamlTree } from '../../config/yaml-tree.js'
import { FIELD_KEYS } from '../../handoff/contract-fields.js'
import { sanitizeUntrusted } from '../../handoff/index.js'
import { APPROVED_LABEL, carriesApproval } from './approval.js'
import type { AgentRequests } from '../record/next.js'
import { clip } from '../untrusted-text.js'

// A deliverable's front matter is a few lines; anything larger is not a request.
const MAX_FRONT_MATTER = 16 * 1024
const MAX_COMMENT = 60_000
const KEYS = ['move_state', 'comment', 'comment_pr', 'verdict'] as const

/**
 * Reads the YAML front matter at the top of a deliverable. Every value is untrusted: it was
 * written by an agent that may have been prompt-injected. Problems are notices, not failures.
 */
export function readRequests(deliverable: string): { requests: AgentRequests; problems: string[] } {
  const problems: string[] = []
  const requests: AgentRequests = {}
  const parts = splitFrontMatter(deliverable.replace(/\r\n?/g, '\n'))
  if (parts.frontMatter === null) return { requests, problems }
  if (parts.unclosed || parts.frontMatter.length > MAX_FRONT_MATTER) {
    return { requests, problems: ['the front matter is not closed by a --- line within 16 KiB'] }
  }
  const tree = readYamlTree(parts.frontMatter, parts.frontMatterLine)
  if (tree.errors.length > 0) {
    return {
      requests,
      problems: [`the front matter is not valid YAML: ${tree.errors[0]!.message}`]
    }
  }
  const root = tree.root
  if (root === undefined || root === null) return { requests, problems }
  if (typeof root !== 'object' || Array.isArray(root)) {
    return { requests, problems: ['the front matter is not a map of requests'] }
  }
  for (const [key, value] of Object.entries(root as Record<string, unknown>)) {
    // The contract's fields are read by contract-fields.ts.
    if ((FIELD_KEYS as readonly string[]).includes(key)) continue
    if (!(KEYS as readonly string[]).includes(key)) {
      problems.push(
        `unknown key "${clip(key, 40)}" ignored; use ${[...KEYS, ...FIELD_KEYS].join(', ')}`
      )
      continue
    }
    if (typeof value !== 'string' || !value.trim()) {
      problems.push(`${key} must be a non-empty string`)
      continue
    }
    const clean = sanitizeUntrusted(value).text.trim()
    if (key === 'move_state') requests.moveState = clip(clean, 100)
    else if (key === 'comment') requests.comment = clip(clean, MAX_COMMENT)
    else if (key === 'comment_pr') requests.commentPr = clip(clean, MAX_COMMENT)
    else {
      const verdict = clean.toUpperCase()
      if (verdict === 'PASS' || verdict === 'FAIL') requests.verdict = verdict
      else problems.push(`verdict must be PASS or FAIL, not "${clip(clean, 40)}"`)
    }
  }
  return { requests, problems }
}

/**
 * Keeps the requests the profile's allowed_actions permit; a move must name a state WORKFLOW.md
 * knows (it is returned in WORKFLOW.md's spelling) within the stage's scope (see moveScope).
 * `verdict` needs no permission: it only counts in a review.
 */
export function permittedRequests(
  requests: AgentRequests,
  allowedActions: string[],
  states: string[],
  scope: { from: string; profile: string; states: string[] }
): { permitted: AgentRequests; refused: string[] } {
  const permitted: AgentRequests = {}
  const refused: string[] = []
  const allows = (action: string) => allowedActions.includes(action)
  // Only a person approves a gate: an agent's words cannot become the command or the label.
  const approves = (key: string, text: string): boolean => {
    if (!carriesApproval(text)) return false
    refused.push(
      `${key}: agents cannot approve; a line "/approve" is a person's approval, so the text was not posted`
    )
    return true
  }
  if (requests.moveState !== undefined && sameState(requests.moveState, APPROVED_LABEL)) {
    refused.push(`move_state: agents cannot approve; ${APPROVED_LABEL} is a person's approval`)
  } else if (requests.moveState !== undefined) {
    const known = states.find((s) => sameState(s, requests.moveState!))
    if (!allows('move_state')) refused.push('move_state: the profile may not move the issue')
    else if (!known)
      refused.push(`move_state: "${requests.moveState}" is not a state of WORKFLOW.md`)
    else if (!scope.states.some((s) => sameState(s, known))) {
      const reach = scope.states.map((s) => `"${s}"`).join(', ') || 'no other state'
      refused.push(
        `move_state: "${known}" is outside the pipeline from "${scope.from}" (it may move to ${reach}); to allow it, add it to agent.profiles.${scope.profile}.allowed_states`
      )
    } else permitted.moveState = known
  }
  if (requests.comment !== undefined) {
    if (!allows('comment')) refused.push('comment: the profile may not comment on the issue')
    else if (!approves('comment', requests.comment)) permitted.comment = requests.comment
  }
  if (requests.commentPr !== undefined) {
    if (!allows('comment_pr')) {
      refused.push('comment_pr: the profile may not comment on the pull request')
    } else if (!approves('comment_pr', requests.commentPr)) permitted.commentPr = requests.commentPr
  }
  if (requests.verdict) permitted.verdict = requests.verdict
  return { permitted, refused }
}

/** The prompt section telling the agent which requests its profile may make, and where to. */
export function requestsSection(
  allowedActions: string[],
  review: boolean,
  moveTargets: string[]
): string {
  const lines = [
    '## Requests to the pipeline',
    '',
    'You hold no token. To ask for an action, start your deliverable with YAML front matter, for example:',
    '',
    '```',
    '---'
  ]
  const allowed: string[] = []
  if (allowedActions.includes('move_state') && moveTargets.length > 0) {
    lines.push('move_state: <one of the states below>')
    const to = moveTargets.map((s) => JSON.stringify(s)).join(', ')
    allowed.push(`\`move_state\` (move the issue to one of: ${to})`)
  }
  if (allowedActions.includes('comment')) {
    lines.push('comment: <text for a comment on the issue>')
    allowed.push('`comment` (comment on the issue)')
  }
  if (allowedActions.includes('comment_pr')) {
    lines.push('comment_pr: <text for a comment on the pull request>')
    allowed.push('`comment_pr` (comment on the pull request)')
  }
  if (review) {
    lines.push('verdict: PASS')
    allowed.push('`verdict` (required in this review: PASS, or FAIL with your findings below it)')
  }
  lines.push('---', '```', '')
  lines.push(
    allowed.length > 0
      ? `Your profile may request: ${allowed.join(', ')}. Anything else is refused.`
      : 'Your profile may not request any action; do not add front matter.'
  )
  lines.push('Requests are carried out after you exit, and only if your deliverable is complete.')
  lines.push(
    "If you cannot go on without a person's answer, end your reply with the question, then a line holding only `<!-- itervox:needs-input -->`; the stage waits for the answer."
  )
  return lines.join('\n')
}
