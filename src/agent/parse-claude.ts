import { BUDGET_SPENT } from './classify.js'
import { findNeedsInput, QUESTION_MAX_CHARS } from './needs-input.js'
import { JsonStreamParser } from './json-stream-parser.js'
import {
  addCounts,
  asCount,
  asObject,
  asString,
  mentionsRateLimit,
  type JsonObject
} from './stream-json.js'
import { firstLine, keepStart, RESULT_TEXT_MAX_CHARS, safeName } from './text.js'
import type { StreamFindings } from './types.js'

/**
 * Claude Code's `--output-format stream-json --verbose` stream: `system` (init, api_retry),
 * `assistant` and `user` events, `rate_limit_event`, and a last `result`. The result decides:
 * `is_error` with `api_error_status` 429 is a rate limit and any other `is_error` a failure,
 * whatever its `subtype` says (the CLI reports exhausted retries as subtype `success`);
 * subtype `error_max_budget_usd` is the run stopped at `--max-budget-usd`.
 * Output that holds no event at all (a user's `--output-format text`) is read as plain text.
 */
export class ClaudeParser extends JsonStreamParser {
  private result: JsonObject | undefined
  private lastAssistantText: string | undefined
  private limitRejected = false

  protected event(type: string, event: JsonObject): string | undefined {
    switch (type) {
      case 'system':
        return this.system(event)
      case 'assistant':
        return this.assistant(event)
      case 'user':
        return 'tool result'
      case 'rate_limit_event': {
        const status = asString(asObject(event.rate_limit_info)?.status)
        if (status === 'rejected') this.limitRejected = true
        return `rate limit ${safeName(status)}`
      }
      case 'result':
        this.result = event
        return `result ${safeName(event.subtype)}${event.is_error === true ? ' (error)' : ''}`
      default:
        return safeName(type)
    }
  }

  protected findings(): StreamFindings {
    const r = this.result
    const fullText = asString(r?.result) ?? this.lastAssistantText
    const findings: StreamFindings = { stats: r ? stats(r) : {} }
    if (fullText?.trim()) findings.resultText = keepStart(fullText.trim(), RESULT_TEXT_MAX_CHARS)
    if (r?.is_error === true) {
      const status = httpStatus(r.api_error_status)
      findings.error = errorReason(r, status, fullText)
      findings.rateLimited =
        status === 429 ||
        (status === undefined && (this.limitRejected || mentionsRateLimit(fullText ?? '')))
      return findings
    }
    if (!r && this.limitRejected) findings.rateLimited = true
    const needsInput = (fullText && findNeedsInput(fullText)) || deniedQuestion(r)
    if (needsInput) findings.needsInput = needsInput
    return findings
  }

  private system(event: JsonObject): string {
    const subtype = asString(event.subtype)
    if (subtype === 'api_retry') {
      // Advisory only: the CLI retries by itself and its result tells how that ended.
      return `api retry ${asCount(event.attempt) ?? '?'}/${asCount(event.max_retries) ?? '?'} (${asCount(event.error_status) ?? safeName(event.error)})`
    }
    return `system ${safeName(subtype)}`
  }

  private assistant(event: JsonObject): string {
    const content = asObject(event.message)?.content
    const blocks = Array.isArray(content) ? content.map(asObject) : []
    const tools: string[] = []
    for (const block of blocks) {
      if (block?.type === 'text' && typeof block.text === 'string') {
        this.lastAssistantText = block.text
      } else if (block?.type === 'tool_use') {
        tools.push(safeName(block.name))
      }
    }
    return tools.length ? `tool ${tools.join(', ')}` : 'assistant text'
  }
}

function stats(r: JsonObject): StreamFindings['stats'] {
  const usage = asObject(r.usage) ?? {}
  const out: StreamFindings['stats'] = {}
  const turns = asCount(r.num_turns)
  // Cached prompt tokens are counted apart by the API; together they are what was read.
  let input = addCounts(
    asCount(usage.input_tokens),
    asCount(usage.cache_creation_input_tokens),
    asCount(usage.cache_read_input_tokens)
  )
  let output = asCount(usage.output_tokens)
  // A run stopped at its budget reports zero `usage` (2.1.332); its figures per model hold
  // the turn it was priced for.
  if (!input && !output) ({ input, output } = modelTokens(r.modelUsage) ?? { input, output })
  const cost = asCount(r.total_cost_usd)
  if (turns !== undefined) out.turns = turns
  if (input !== undefined) out.inputTokens = input
  if (output !== undefined) out.outputTokens = output
  if (cost !== undefined) out.costUsd = cost
  return out
}

function modelTokens(value: unknown): { input?: number; output?: number } | undefined {
  const models = Object.values(asObject(value) ?? {}).map((m) => asObject(m) ?? {})
  if (!models.length) return undefined
  const input = addCounts(
    ...models.flatMap((m) => [
      asCount(m.inputTokens),
      asCount(m.cacheCreationInputTokens),
      asCount(m.cacheReadInputTokens)
    ])
  )
  return { input, output: addCounts(...models.map((m) => asCount(m.outputTokens))) }
}

function httpStatus(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value
  return typeof n === 'number' && Number.isInteger(n) && n >= 100 && n <= 599 ? n : undefined
}

function errorReason(r: JsonObject, status: number | undefined, text: string | undefined) {
  if (status === 429) return 'API error 429 (rate limited)'
  if (status !== undefined) return `API error ${status}`
  const subtype = asString(r.subtype)
  if (subtype === 'error_max_budget_usd') {
    const said = Array.isArray(r.errors) ? asString(r.errors[0]) : undefined
    return `${BUDGET_SPENT}${said ? firstLine(said) : 'the CLI stopped at --max-budget-usd'}`
  }
  if (subtype === 'error_max_turns') {
    const turns = asCount(r.num_turns)
    return `reached the turn limit${turns !== undefined ? ` (${turns} turns)` : ''}`
  }
  if (subtype && subtype !== 'success') return subtype.replace(/_/g, ' ')
  return firstLine(text ?? '') || 'the agent reported an error'
}

// In print mode nobody can answer the CLI's own question tool, so the CLI denies it and lists
// the denial in the result: the agent did need a human.
function deniedQuestion(r: JsonObject | undefined): { question: string } | undefined {
  const denials = Array.isArray(r?.permission_denials) ? r.permission_denials : []
  for (const d of denials.map(asObject)) {
    if (d?.tool_name !== 'AskUserQuestion') continue
    const questions = asObject(d.tool_input)?.questions
    const texts = (Array.isArray(questions) ? questions : [])
      .map((q) => asString(asObject(q)?.question))
      .filter((q): q is string => !!q)
    return { question: keepStart(texts.join('\n').trim(), QUESTION_MAX_CHARS) }
  }
  return undefined
}
