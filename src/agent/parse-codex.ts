import { findNeedsInput } from './needs-input.js'
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
 * `codex exec --json`: `thread.started`, then per turn `turn.started`, `item.*` events
 * (agent_message, reasoning, command_execution, file_change, ...) and `turn.completed` with
 * its usage, or `turn.failed`; a top-level `error` for a failure outside a turn. The final
 * text is the last completed agent message. Codex names rate limits only in its messages.
 * Its usage counts tokens only: no cost, and no count of model calls (an `exec` is one turn
 * however many calls it makes), so no turns either.
 */
export class CodexParser extends JsonStreamParser {
  private inputTokens: number | undefined
  private outputTokens: number | undefined
  private lastMessage: string | undefined
  private error: string | undefined
  private rateLimited = false

  protected event(type: string, event: JsonObject): string | undefined {
    switch (type) {
      case 'turn.completed': {
        const usage = asObject(event.usage) ?? {}
        this.inputTokens = addCounts(this.inputTokens, asCount(usage.input_tokens))
        this.outputTokens = addCounts(this.outputTokens, asCount(usage.output_tokens))
        this.error = undefined // an error before a completed turn was recovered from
        return 'turn completed'
      }
      case 'turn.failed':
        this.fail(asString(asObject(event.error)?.message) ?? 'turn failed')
        return 'turn failed'
      case 'error':
        this.fail(asString(event.message) ?? 'error')
        return 'error'
      case 'item.started':
      case 'item.updated':
      case 'item.completed':
        return this.item(type, asObject(event.item))
      default:
        return safeName(type)
    }
  }

  protected findings(): StreamFindings {
    const findings: StreamFindings = { stats: {} }
    if (this.inputTokens !== undefined) findings.stats.inputTokens = this.inputTokens
    if (this.outputTokens !== undefined) findings.stats.outputTokens = this.outputTokens
    const fullText = this.lastMessage?.trim()
    if (fullText) findings.resultText = keepStart(fullText, RESULT_TEXT_MAX_CHARS)
    if (this.rateLimited) findings.rateLimited = true
    if (this.error) {
      findings.error = this.error
      return findings
    }
    const needsInput = fullText ? findNeedsInput(fullText) : undefined
    if (needsInput) findings.needsInput = needsInput
    return findings
  }

  private item(type: string, item: Record<string, unknown> | undefined): string {
    const kind = asString(item?.type) ?? 'item'
    if (type === 'item.completed' && kind === 'agent_message') {
      this.lastMessage = asString(item?.text) ?? this.lastMessage
    }
    // An error item is a warning inside a turn; the turn's own end says whether it failed.
    if (kind === 'error' && mentionsRateLimit(asString(item?.message) ?? '')) {
      this.rateLimited = true
    }
    return `${safeName(kind)} ${type.slice('item.'.length)}`
  }

  private fail(message: string): void {
    this.error = firstLine(message) || 'error'
    if (mentionsRateLimit(message)) this.rateLimited = true
  }
}
