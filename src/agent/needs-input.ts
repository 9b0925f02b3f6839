import { keepEnd } from './text.js'

/** The itervox marker an agent puts on its own line to say it needs a human answer. */
const NEEDS_INPUT_SENTINEL = '<!-- itervox:needs-input -->'

/** The longest question reported (it goes into an issue comment). */
export const QUESTION_MAX_CHARS = 4000

// How much text before the marker is kept while scanning a stream.
const WINDOW_CHARS = 64 * 1024

/**
 * Finds the sentinel line by line, outside fenced code blocks (CommonMark: a run of at least
 * three backticks or tildes, indented at most three spaces, closed by a run of the same
 * character at least as long). The question is the text before the last sentinel found.
 */
export class NeedsInputScanner {
  private fence: { char: string; length: number } | undefined
  private window: string[] = []
  private windowChars = 0
  private found: { question: string } | undefined

  line(line: string): void {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)
    if (fence) {
      const run = fence[1] as string
      if (!this.fence) {
        // A backtick fence's info string may not contain a backtick.
        if (run[0] !== '`' || !line.slice(fence[0].length).includes('`')) {
          this.fence = { char: run[0] as string, length: run.length }
        }
      } else if (
        run[0] === this.fence.char &&
        run.length >= this.fence.length &&
        line.slice(fence[0].length).trim() === ''
      ) {
        this.fence = undefined
      }
    } else if (!this.fence && line.trim() === NEEDS_INPUT_SENTINEL) {
      this.found = { question: capQuestion(this.window.join('\n').trim()) }
      this.window = []
      this.windowChars = 0
      return
    }
    this.window.push(line)
    this.windowChars += line.length + 1
    while (this.windowChars > WINDOW_CHARS && this.window.length > 1) {
      this.windowChars -= (this.window.shift() as string).length + 1
    }
  }

  result(): { question: string } | undefined {
    return this.found
  }
}

/** The sentinel check over a whole final text. */
export function findNeedsInput(text: string): { question: string } | undefined {
  const scanner = new NeedsInputScanner()
  for (const line of text.split('\n')) scanner.line(line.replace(/\r$/, ''))
  return scanner.result()
}

// The end of the text is what sits right above the sentinel, so a long question keeps it.
function capQuestion(text: string): string {
  return keepEnd(text, QUESTION_MAX_CHARS)
}
