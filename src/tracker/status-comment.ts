import { fieldEntries } from '../handoff/contract-fields.js'
import { Buffer } from 'node:buffer'
import { sameState, stateKey } from '../config/lookup.js'
import type { WorkflowConfig } from '../config/types.js'
import { sanitizeUntrusted } from '../handoff/sanitize.js'
import { APPROVED_LABEL } from '../pipeline/decision/approval.js'
import { agentFigures } from '../pipeline/stage/agent-figures.js'
import { formatDuration } from '../pipeline/record/duration.js'
import type { IssueRecord, StageRecord } from '../pipeline/record/record.js'
import { cellText, clip, fenced, oneLine } from '../pipeline/untrusted-text.js'
import { MAX_HALTED, MAX_QUESTION, MAX_REASON, recordComment } from './comment-record.js'
import { recoveryNote, verifyEvidence } from './status-evidence.js'

// GitHub refuses comment bodies over 65,536 characters; we stay well below, counting bytes.
const COMMENT_BUDGET = 60_000

const MAX_STATE_LABEL = 80
const MAX_PROFILE_LABEL = 60

/**
 * A Mermaid `flowchart LR` of the pipeline: every state an enabled automation starts from or
 * moves to, plus the completion and failed states; `state -->|profile| next` per move, a dashed
 * `retries spent` edge from each working state to the failed state, the send-backs review
 * rounds allow (see `sendBackEdges`), and `current` (matched case-insensitively, like labels)
 * styled.
 */
export function pipelineDiagram(config: WorkflowConfig, current: string | null): string {
  const nodes = new Map<string, { id: string; label: string }>()
  const node = (state: string): string => {
    const key = stateKey(state)
    let n = nodes.get(key)
    if (!n) {
      n = { id: `s${nodes.size}`, label: state }
      nodes.set(key, n)
    }
    return n.id
  }
  const edges = new Set<string>()
  const automations = config.automations.filter((a) => a.enabled)

  for (const a of automations) {
    for (const state of a.states) {
      const from = node(state)
      if (a.moveToState) {
        edges.add(
          `${from} -->|"${mermaidText(a.profile, MAX_PROFILE_LABEL)}"| ${node(a.moveToState)}`
        )
      }
    }
  }
  const { completionState, failedState } = config.tracker
  if (completionState) node(completionState)
  const failed = failedState ? node(failedState) : null

  for (const [from, to, label] of sendBackEdges(config)) {
    edges.add(`${node(from)} -.->|"${mermaidText(label, MAX_PROFILE_LABEL)}"| ${node(to)}`)
  }
  for (const a of automations) {
    for (const state of a.states) {
      const from = node(state)
      if (failed && failed !== from) edges.add(`${from} -.->|"retries spent"| ${failed}`)
    }
  }
  const marked = current ? node(current) : null

  const lines = ['flowchart LR']
  for (const n of nodes.values())
    lines.push(`  ${n.id}["${mermaidText(n.label, MAX_STATE_LABEL)}"]`)
  for (const e of edges) lines.push(`  ${e}`)
  if (marked) {
    lines.push('  classDef current fill:#fff4ce,stroke:#9a6700,stroke-width:3px,color:#1f2328')
    lines.push(`  class ${marked} current`)
  }
  return lines.join('\n')
}

/**
 * The ways work can be sent back, as `[from, to, label]`, read from the config alone: with
 * `auto_review`, a reviewer's FAIL sends a stage back to its own state; a profile allowed
 * `move_state` may send the work back to a state whose automation leads into its own (the
 * agent may name any earlier state; the one step back is what a reviewer's send-back is).
 * None when `max_review_rounds` is 1: the first send-back escalates instead.
 */
function sendBackEdges(config: WorkflowConfig): [string, string, string][] {
  if (config.agent.maxReviewRounds <= 1) return []
  const automations = config.automations.filter((a) => a.enabled)
  const out: [string, string, string][] = []
  const reviewers = config.agent.autoReview ? config.agent.reviewers : []
  const reviewer = reviewers.length > 0 ? reviewers.join(', ') : undefined
  for (const a of automations) {
    const mayMove = config.agent.profiles[a.profile]?.allowedActions.includes('move_state')
    for (const state of a.states) {
      if (reviewer && !reviewers.includes(a.profile)) out.push([state, state, `${reviewer} FAIL`])
      if (!mayMove) continue
      for (const before of automations) {
        if (!before.moveToState || !sameState(before.moveToState, state)) continue
        for (const back of before.states) {
          if (!sameState(back, state)) out.push([state, back, 'sent back'])
        }
      }
    }
  }
  return out
}

export interface StageTableOptions {
  /**
   * A link to a file at a commit. A stage's deliverable links to the commit the record says
   * holds it, which later pushes cannot change; without one it never reached the repository,
   * and is shown as its path.
   */
  blobUrl?: (commit: string, path: string) => string | undefined
  /** Show only the newest this many stages. */
  maxRows?: number
}

/**
 * The record's stages, oldest first: a narrow table (what ran, how it ended, its deliverable
 * and run) that fits a comment's width, then the rest of each stage (start, kind, attempt,
 * round, duration, the agent's figures) in a collapsed list keyed by the same numbers. Every
 * cell is escaped and capped.
 */
export function stageTable(record: IssueRecord, options: StageTableOptions = {}): string {
  const stages = chronological(record.stages)
  if (stages.length === 0) return '_No stage has run yet._'
  const shown = Math.max(0, Math.min(stages.length, options.maxRows ?? stages.length))
  const first = stages.length - shown
  const rows = stages.slice(first).map((s, i) => {
    const cells = [
      String(first + i + 1),
      cellText(s.state),
      cellText(s.profile),
      cellText(s.outcome) + (oneLine(s.reason) ? ` — ${cellText(s.reason, MAX_REASON)}` : ''),
      deliverable(s, options.blobUrl),
      link(cellText(s.run, 40), s.runUrl)
    ]
    return `| ${cells.join(' | ')} |`
  })
  const details = stages.slice(first).map((s, i) => {
    const figures = agentFigures(s.agent)
    return (
      `- **${first + i + 1}** started ${utcTime(s.startedAt)} UTC, ${runKind(s)}, took ${formatDuration(s.durationMs)}` +
      (figures ? `; ${figures}` : '') +
      recoveryNote(s)
    )
  })
  return [
    ...(first > 0 ? [`_${first} earlier stage${first === 1 ? '' : 's'} not shown._`, ''] : []),
    '| # | State | Profile | Outcome | Deliverable | Run |',
    '|---|---|---|---|---|---|',
    ...rows,
    ...(details.length > 0
      ? ['', '<details><summary>Stage details</summary>', '', ...details, '', '</details>']
      : [])
  ].join('\n')
}

export interface StatusCommentInput {
  config: WorkflowConfig
  record: IssueRecord
  /** How the heading names the issue, e.g. `#12`. */
  issueRef: string
  /** The first line is `<!-- marker -->`, by which the tracker finds its comment again. */
  marker: string
  blobUrl?: StageTableOptions['blobUrl']
  /**
   * Warnings under the state line: how the stages run (isolation: none), a pull request the
   * repository's settings kept from being opened.
   */
  warnings?: readonly string[]
}

/**
 * The issue's one living status comment: marker, heading, current state, the diagram, the
 * stage table, what the pipeline waits for or why it halted, and the record itself in a
 * final hidden comment. It stays under GitHub's comment size limit: the oldest table rows go
 * first, then the diagram; the record is made to fit on its own (see `fitRecord`).
 */
export function renderStatusComment(o: StatusCommentInput): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9:._]*(?:-[A-Za-z0-9:._]+)*$/.test(o.marker)) {
    throw new Error(`status comment marker "${o.marker}" cannot sit in an HTML comment`)
  }
  const head = [
    `<!-- ${o.marker} -->`,
    `### itervox handoff: ${plainText(o.issueRef)}`,
    '',
    `**Current state:** ${o.record.state === null ? '_not started_' : cellText(o.record.state, MAX_STATE_LABEL)}`,
    ...(o.warnings ?? []).flatMap((w) => ['', `> **Warning:** ${w}`])
  ]
  const tail: string[] = withheldLines(o.record)
  const evidence = verifyEvidence(o.record)
  if (evidence.length > 0) tail.push(...(tail.length > 0 ? [''] : []), ...evidence)
  const w = o.record.waiting
  if (w) {
    if (tail.length > 0) tail.push('')
    tail.push(
      `**Waiting for input:** ${cellText(w.profile, MAX_PROFILE_LABEL)} (in ${cellText(w.state, MAX_STATE_LABEL)}) asks the question below. A person with write access answers with a comment on this issue, and the stage resumes with that answer.`,
      '',
      fencedQuestion(w.question)
    )
  }
  const gate = gateLines(o.record)
  if (gate.length > 0) {
    if (tail.length > 0) tail.push('')
    tail.push(...gate)
  }
  const refused = refusedRequests(o.record)
  if (refused.length > 0) {
    if (tail.length > 0) tail.push('')
    tail.push('**Refused requests:**', '', ...refused)
  }
  const fields = handoffFields(o.record)
  if (fields.length > 0) {
    if (tail.length > 0) tail.push('')
    tail.push('**Handoff fields** (as the agents wrote them):', '', ...fields)
  }
  if (o.record.halted !== undefined) {
    if (tail.length > 0) tail.push('')
    tail.push(`**Halted:** ${cellText(o.record.halted, MAX_HALTED) || 'no reason given'}`)
  }
  const recordLine = recordComment(o.record)

  const assemble = (rows: number, diagram: boolean): string =>
    [
      ...head,
      '',
      diagram
        ? '```mermaid\n' + pipelineDiagram(o.config, o.record.state) + '\n```'
        : '_The pipeline diagram is too large for this comment._',
      '',
      stageTable(o.record, { blobUrl: o.blobUrl, maxRows: rows }),
      ...(tail.length > 0 ? ['', ...tail] : []),
      '',
      recordLine
    ].join('\n')

  let rows = o.record.stages.length
  let body = assemble(rows, true)
  while (Buffer.byteLength(body) > COMMENT_BUDGET && rows > 0) {
    rows = Math.floor(rows / 2)
    body = assemble(rows, true)
  }
  return Buffer.byteLength(body) > COMMENT_BUDGET ? assemble(0, false) : body
}

/** The approval gate of the current entry, and the stop switch. */
function gateLines(record: IssueRecord): string[] {
  const lines: string[] = []
  const a = record.approval
  if (a && a.entry === record.entry && record.state !== null && sameState(a.state, record.state)) {
    if (a.by === undefined) {
      const starter =
        record.startedBy !== undefined
          ? ` (${cellText(`@${record.startedBy}`, 120)} started it)`
          : ''
      lines.push(
        `**Waiting for approval:** the stage in ${cellText(a.state, MAX_STATE_LABEL)} starts when a person with write access adds the \`${APPROVED_LABEL}\` label or comments \`/approve\`${starter}.`
      )
      if (a.refused) lines.push('', `**Approval refused:** ${cellText(a.refused, MAX_HALTED)}`)
    } else {
      lines.push(
        `**Approved by** ${cellText(`@${a.by}`, 120)} for this entry into ${cellText(a.state, MAX_STATE_LABEL)}.`
      )
    }
  }
  if (record.paused !== undefined) {
    if (lines.length > 0) lines.push('')
    lines.push(`**Paused:** new stages do not start; ${cellText(record.paused, MAX_HALTED)}.`)
  }
  return lines
}

const MAX_REFUSED_SHOWN = 5

/** The newest requests agents made that were not carried out, as list items. */
function refusedRequests(record: IssueRecord): string[] {
  const lines = chronological(record.stages).flatMap((s) =>
    (Array.isArray(s.refused) ? s.refused : []).map(
      (r) =>
        `- ${cellText(s.profile, MAX_PROFILE_LABEL)} in ${cellText(s.state, MAX_STATE_LABEL)}: ${cellText(r, MAX_REASON)}`
    )
  )
  return lines.slice(-MAX_REFUSED_SHOWN)
}

const MAX_FIELDS_SHOWN = 20

/** Each stage's key facts, decisions, open questions and confidence: an agent's words, as data. */
function handoffFields(record: IssueRecord): string[] {
  const lines = chronological(record.stages).flatMap((s) =>
    s.fields
      ? fieldEntries(s.fields).map(
          ([label, value]) =>
            `- ${cellText(s.profile, MAX_PROFILE_LABEL)} in ${cellText(s.state, MAX_STATE_LABEL)}, ${label}: ${cellText(value, MAX_REASON)}`
        )
      : []
  )
  return lines.slice(-MAX_FIELDS_SHOWN)
}

/** Stages oldest first: by start time where it parses, otherwise where the record put them. */
function chronological(stages: StageRecord[]): StageRecord[] {
  let last = -Infinity
  const keyed = stages.map((s, i) => {
    const t = Date.parse(String(s.startedAt))
    if (!Number.isNaN(t)) last = t
    return { s, i, t: Number.isNaN(t) ? last : t }
  })
  return keyed.sort((a, b) => a.t - b.t || a.i - b.i).map((k) => k.s)
}

/**
 * A Mermaid label for use inside `"…"`: anything but letters, digits and a few inert marks
 * becomes a `#code;` entity, so quotes, brackets, pipes, `%%` directives, `<`/`>` and
 * backticks (Markdown strings) can never reach the parser.
 */
function mermaidText(text: string, max: number): string {
  const flat = clip(oneLine(text), max) || '(none)'
  return flat.replace(/[^\p{L}\p{N} _.,'-]/gu, (c) => `#${c.codePointAt(0)};`)
}

/** Our own text (the issue reference): escaped, but `#12` still links. */
function plainText(text: string): string {
  return oneLine(text).replace(/[&<>|`\\[\]]/g, (c) => `&#${c.charCodeAt(0)};`)
}

// Lines of the newest stages that had secrets withheld; the record keeps up to ten a stage.
const MAX_WITHHELD_STAGES = 5

/** One line per stage whose secrets were kept out of its commit, comments or record. */
function withheldLines(record: IssueRecord): string[] {
  const stages = chronological(record.stages).filter((s) => s.withheld?.length)
  return stages.slice(-MAX_WITHHELD_STAGES).flatMap((s, i) => {
    const what = (s.withheld ?? []).map((w) => cellText(w, 200)).join('; ')
    return [
      ...(i > 0 ? [''] : []),
      `**Secrets withheld** (${cellText(s.profile, MAX_PROFILE_LABEL)}, run ${cellText(s.run, 40)}): ${what}. Rotate them if they are real.`
    ]
  })
}

/** The question, capped, in a fence it cannot close. */
function fencedQuestion(text: string): string {
  return fenced(clip(sanitizeUntrusted(String(text ?? '')).text, MAX_QUESTION))
}

/**
 * e.g. `work, attempt 2`, `review, attempt 1, round 2` or `automation on-comment for
 * comment-42`; attempts count from 1 here.
 */
function runKind(s: StageRecord): string {
  if (s.automation) {
    return `automation ${cellText(s.automation.id, 60)} for ${cellText(s.automation.event, 80)}`
  }
  const n = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null)
  const attempt = n(s.attempt)
  const round = n(s.round)
  return (
    `${cellText(s.kind)}, attempt ${attempt === null ? '?' : attempt + 1}` +
    (round ? `, round ${round + 1}` : '')
  )
}

function utcTime(iso: string): string {
  const t = Date.parse(String(iso))
  if (Number.isNaN(t)) return cellText(iso, 40)
  return new Date(t).toISOString().slice(0, 19).replace('T', ' ')
}

// Only a plain handoff path is linked: a forged `../..` path must not turn our link elsewhere.
const HANDOFF_FILE = /^\.itervox\/handoff\/[A-Za-z0-9._-]+\.md$/
// A commit id, nothing else: it becomes part of the link's path.
const COMMIT = /^[0-9a-f]{7,64}$/

/**
 * The deliverable linked at its commit, by its file name less the timestamp (which is in the
 * details) to keep the column narrow; its path where there is no link.
 */
function deliverable(s: StageRecord, blobUrl: StageTableOptions['blobUrl']): string {
  const path = s.handoffPath
  if (!path) return ''
  const url =
    blobUrl && HANDOFF_FILE.test(path) && !path.includes('..') && COMMIT.test(String(s.commit))
      ? safeUrl(blobUrl(String(s.commit), path))
      : null
  if (!url) return cellText(path)
  return `[${cellText(
    path
      .split('/')
      .pop()
      ?.replace(/^[^_]*_/, '')
  )}](${url})`
}

function link(text: string, url: string | undefined): string {
  const safe = safeUrl(url)
  return safe ? `[${text}](${safe})` : text
}

/** http(s) URLs only, with everything that could end a Markdown link percent-encoded. */
function safeUrl(raw: string | undefined): string | null {
  if (typeof raw !== 'string' || raw.length > 2000) return null
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  return url.href.replace(
    /[()<>"'`|[\]\\\s]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`
  )
}
