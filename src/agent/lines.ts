import { StringDecoder } from 'node:string_decoder'

// A stream-json line can be big (a Write tool call carries the whole file), but a line with
// no end in sight must not hold memory forever; past this size it is skipped.
const MAX_LINE_CHARS = 4 * 1024 * 1024

/**
 * Turns a byte stream into lines. Chunks may split a line or a UTF-8 character anywhere;
 * `\r\n` and `\n` both end a line; an over-long line is dropped up to its end.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8')
  private partial = ''
  private skipping = false

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxChars = MAX_LINE_CHARS
  ) {}

  /** Feeds bytes; returns them decoded. */
  push(chunk: Buffer): string {
    const text = this.decoder.write(chunk)
    this.take(text)
    return text
  }

  /** Ends the stream; a last line without a newline still counts. */
  end(): string {
    const text = this.decoder.end()
    this.take(text)
    if (!this.skipping && this.partial !== '') this.emit(this.partial)
    this.partial = ''
    this.skipping = false
    return text
  }

  private take(text: string): void {
    let start = 0
    for (;;) {
      const nl = text.indexOf('\n', start)
      if (nl < 0) break
      if (!this.skipping) this.emit(this.partial + text.slice(start, nl))
      this.partial = ''
      this.skipping = false
      start = nl + 1
    }
    if (this.skipping) return
    this.partial += text.slice(start)
    if (this.partial.length > this.maxChars) {
      this.partial = ''
      this.skipping = true
    }
  }

  private emit(line: string): void {
    this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line)
  }
}
