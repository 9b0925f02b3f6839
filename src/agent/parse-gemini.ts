import { findNeedsInput } from './needs-input.js'
import { JsonStreamParser } from './json-stream-parser.js'
import { asCount, asObject, asString, mentionsRateLimit, type JsonObject } from './stream-json.js'
import { firstLine, keepStart, RESULT_TEXT_MAX_CHARS, safeName } from './text.js'
import type { StreamFindings } from './types.js'

/**
 * Gemini CLI's `--output-format stream-json`: `init`, `message` (user or assistant, the
 * assistant's often as `delta` chunks), `tool_use`, `tool_result`, `error` (warnings the CLI
 * goes on from) and a last `result` with `status` and `stats`. The final text is the
 * assistant's text after its last tool call.
 */
export class GeminiParser extends JsonStreamParser {
  private answer = ''
  private toolSinceAnswer = false
  private result: Record<string, unknown> | undefined
  private rateLimited = false

  protected event(type: string, event: JsonObject): string | undefined {
    switch (type) {
      case 'message': {
        if (event.role !== 'assistant') return `${safeName(event.role)} message`
        const content = asString(event.content) ?? ''
        if (this.toolSinceAnswer) this.answer = ''
        this.toolSinceAnswer = false
        this.answer = event.delta === true ? this.answer + content : content
        return 'assistant text'
      }
      case 'tool_use':
        this.toolSinceAnswer = true
        return `tool ${safeName(event.tool_name)}`
      case 'error':
        if (mentionsRateLimit(asString(event.message) ?? '')) this.rateLimited = true
        return `${safeName(event.severity) || 'error'} event`
      case 'result':
        this.result = event
        return `result ${safeName(event.status)}`
      default:
        return safeName(type)
    }
  }

  protected findings(): StreamFindings {
    const r = this.result
    const st = asObject(r?.stats) ?? {}
    const findings: StreamFindings = { stats: {} }
    const input = asCount(st.input_tokens) ?? asCount(st.input)
    const output = asCount(st.output_tokens)
    if (input !== undefined) findings.stats.inputTokens = input
    if (output !== undefined) findings.stats.outputTokens = output
    const fullText = this.answer.trim()
    if (fullText) findings.resultText = keepStart(fullText, RESULT_TEXT_MAX_CHARS)
    if (this.rateLimited) findings.rateLimited = true
    const error = asObject(r?.error)
    if (error || (typeof r?.status === 'string' && r.status !== 'success')) {
      const message = asString(error?.message) ?? ''
      const kind = asString(error?.type) ?? ''
      findings.error = firstLine(message) || safeName(kind) || 'the agent reported an error'
      if (mentionsRateLimit(`${message} ${kind}`)) findings.rateLimited = true
      return findings
    }
    const needsInput = fullText ? findNeedsInput(fullText) : undefined
    if (needsInput) findings.needsInput = needsInput
    return findings
  }
}
