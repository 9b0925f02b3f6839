import { NeedsInputScanner } from './needs-input.js'
import { keepEnd, RESULT_TEXT_MAX_CHARS } from './text.js'
import type { StreamFindings, StreamParser } from './types.js'

/**
 * A plain-text agent's stdout: no events, no stats; the sentinel counts anywhere in it, and
 * the final text is its end.
 */
export class TextParser implements StreamParser {
  private readonly needsInput = new NeedsInputScanner()
  private tail: string[] = []
  private tailChars = 0

  line(text: string): undefined {
    this.needsInput.line(text)
    this.tail.push(text)
    this.tailChars += text.length + 1
    while (this.tailChars > RESULT_TEXT_MAX_CHARS && this.tail.length > 1) {
      this.tailChars -= (this.tail.shift() as string).length + 1
    }
    return undefined
  }

  finish(): StreamFindings {
    const resultText = keepEnd(this.tail.join('\n').trim(), RESULT_TEXT_MAX_CHARS)
    return {
      stats: {},
      ...(resultText ? { resultText } : {}),
      ...(this.needsInput.result() ? { needsInput: this.needsInput.result() } : {})
    }
  }
}
