import { TextParser } from './parse-text.js'
import { asString, parseJsonLine, type JsonObject } from './stream-json.js'
import type { StreamFindings, StreamParser } from './types.js'

/**
 * The part every JSON event-stream preset shares: one event per line, anything else (garbage,
 * a cut line) ignored, and output holding no event at all (a user's `--output-format text`)
 * read as plain text instead.
 */
export abstract class JsonStreamParser implements StreamParser {
  private readonly text = new TextParser()
  private events = 0

  line(line: string): string | undefined {
    const event = parseJsonLine(line)
    const type = asString(event?.type)
    if (!event || !type) {
      this.text.line(line)
      return undefined
    }
    this.events++
    return this.event(type, event)
  }

  finish(): StreamFindings {
    return this.events === 0 ? this.text.finish() : this.findings()
  }

  /** One parsed event; returns a one-line description of it for the activity feed, if any. */
  protected abstract event(type: string, event: JsonObject): string | undefined

  /** What the stream said, once it has ended. */
  protected abstract findings(): StreamFindings
}
