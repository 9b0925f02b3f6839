import { Buffer } from 'node:buffer'
import { parseRecord, type IssueRecord } from '../pipeline/record/record.js'
import { clip } from '../pipeline/untrusted-text.js'

// The GitHub tracker's record in its status comment: the last line of the comment, a hidden
// HTML comment holding the record as JSON. The comment is a view anyone with write access can
// edit, so what is read back is parsed like any untrusted text.

/** The most record text `readRecordFromComment` accepts. */
export const MAX_RECORD_BYTES = 64 * 1024

// The record gets at most half of the comment's budget, so the table and the question always
// fit beside it (see renderStatusComment).
const RECORD_BUDGET = 32 * 1024

const RECORD_OPEN = '<!-- itervox:record '
const RECORD_CLOSE = ' -->'

// How much of an agent's or a person's text the record keeps when it must shrink; the comment
// shows no more of it than this either.
export const MAX_REASON = 300
export const MAX_HALTED = 500
export const MAX_QUESTION = 4000

/** The record as the comment's final line: a hidden comment that `readRecordFromComment` reads. */
export function recordComment(record: IssueRecord): string {
  return `${RECORD_OPEN}${fitRecord(record)}${RECORD_CLOSE}`
}

/**
 * The record from a status comment's final hidden comment, or null when there is none or it
 * is malformed, too large or not shaped like a record. Never throws: the body is untrusted
 * (anyone with write access can edit a comment).
 */
export function readRecordFromComment(body: string): IssueRecord | null {
  if (typeof body !== 'string') return null
  const at = body.lastIndexOf(RECORD_OPEN)
  if (at < 0) return null
  const rest = body.slice(at + RECORD_OPEN.length)
  // Our JSON holds no '-', so the first ' -->' closes it; only whitespace may follow.
  const end = rest.indexOf(RECORD_CLOSE)
  if (end < 0 || rest.slice(end + RECORD_CLOSE.length).trim() !== '') return null
  const json = rest.slice(0, end)
  if (json.length > MAX_RECORD_BYTES || Buffer.byteLength(json) > MAX_RECORD_BYTES) return null
  // The writer escapes all of these; a raw one means the text was not written by us.
  if (/[<>-]/.test(json)) return null
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    return null
  }
  return parseRecord(value)
}

/**
 * The record as one line of JSON that cannot end its HTML comment early: every `-`, `<` and
 * `>` is written as a `\u` escape (numbers are clamped to non-negative integers, so none of
 * those characters appear outside strings). Over the budget, reasons and the question are
 * shortened, then the oldest stages dropped; the counters always survive.
 */
function fitRecord(record: IssueRecord): string {
  const full = encodeRecord(record)
  if (Buffer.byteLength(full) <= RECORD_BUDGET) return full

  const trimmed: IssueRecord = {
    ...record,
    stages: [],
    ...(record.waiting
      ? { waiting: { ...record.waiting, question: clip(record.waiting.question, MAX_QUESTION) } }
      : {}),
    ...(record.halted !== undefined ? { halted: clip(record.halted, MAX_HALTED) } : {})
  }
  const base = Buffer.byteLength(encodeRecord(trimmed))
  const stages = record.stages.map((s) => ({ ...s, reason: clip(s.reason, MAX_REASON) }))
  let room = RECORD_BUDGET - base
  let keep = 0
  for (let i = stages.length - 1; i >= 0; i--) {
    const size = Buffer.byteLength(encodeRecord(stages[i])) + 1
    if (size > room) break
    room -= size
    keep++
  }
  trimmed.stages = stages.slice(stages.length - keep)
  if (room >= 0) return encodeRecord(trimmed)

  // Only absurdly long names get here; 200 code points of anything fit many times over.
  const short = (s: string): string => clip(s, 200)
  return encodeRecord({
    v: 1,
    state: record.state === null ? null : short(record.state),
    entry: record.entry,
    transitions: record.transitions,
    round: record.round,
    ...(record.visited ? { visited: record.visited.map(short) } : {}),
    ...(record.sentBack ? { sentBack: { ...record.sentBack, by: short(record.sentBack.by) } } : {}),
    ...(record.pendingMove !== undefined ? { pendingMove: short(record.pendingMove) } : {}),
    stages: [],
    ...(record.waiting
      ? {
          waiting: {
            ...record.waiting,
            state: short(record.waiting.state),
            profile: short(record.waiting.profile),
            timestamp: short(record.waiting.timestamp),
            question: short(record.waiting.question)
          }
        }
      : {}),
    ...(record.halted !== undefined ? { halted: short(record.halted) } : {}),
    ...(record.continuation ? { continuation: record.continuation } : {}),
    ...(record.owed ? { owed: record.owed } : {}),
    ...(record.pullRequest !== undefined ? { pullRequest: record.pullRequest } : {})
  })
}

function encodeRecord(value: unknown): string {
  const json = JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'number' ? (Number.isFinite(v) && v > 0 ? Math.round(v) : 0) : v
  )
  return json.replace(/[<>-]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`)
}
