// Byte accounting for the Prior Agent Handoffs block. The budget covers the whole rendered
// block (preamble, marker, joins, headers, bodies), so the block is never longer than it.
import { isForgedLine } from './forged-lines.js'
import { JOIN, cutNotice, fileHeader, frameBytes, joinBlock, renderPiece } from './layout.js'
import { cutUtf8, utf8Length } from './utf8.js'

export class BlockBudget {
  /** Newest first: files are offered from the newest back. */
  private readonly pieces: string[] = []
  private readonly names: string[] = []
  private piecesBytes = 0
  // An empty newest body leaves `### name\n\n` at the end, which the final trim removes.
  private trimmed = 0
  truncatedFile?: string

  constructor(readonly budget: number) {}

  get isEmpty(): boolean {
    return this.pieces.length === 0
  }

  /** Roughly how many more body bytes could fit; used only to size read-ahead. */
  get remaining(): number {
    return this.budget - frameBytes(0) - this.piecesBytes
  }

  /** Names shown, oldest first. */
  get included(): string[] {
    return [...this.names].reverse()
  }

  /**
   * Adds the next older file if the whole block fits, counting `dropped` files as left out
   * (everything older than this one, were the walk to stop here).
   */
  tryAdd(name: string, body: string, dropped: number): boolean {
    const piece = renderPiece(name, body)
    const trimmed = this.isEmpty ? (body === '' ? JOIN.length : 0) : this.trimmed
    const size = frameBytes(dropped) + this.piecesBytes + JOIN.length + utf8Length(piece) - trimmed
    if (size > this.budget) return false
    this.push(name, piece)
    this.trimmed = trimmed
    return true
  }

  /**
   * Shows the start of a newest file that does not fit whole, cut between code points and
   * ended by a notice. False when the budget cannot hold even the header and the notice.
   */
  tryCut(name: string, body: string, dropped: number): boolean {
    if (!this.isEmpty) throw new Error('tryCut: only the newest file is ever cut')
    const total = utf8Length(body)
    const fixed = frameBytes(dropped) + JOIN.length + utf8Length(fileHeader(name)) + JOIN.length
    const noticeMax = utf8Length(cutNotice(total, total))
    if (fixed + noticeMax > this.budget) return false
    const room = this.budget - fixed - noticeMax - JOIN.length
    const prefix = room > 0 ? dropCutForgedLine(cutUtf8(body, room).trimEnd()) : ''
    const notice = cutNotice(utf8Length(prefix), total)
    this.push(name, renderPiece(name, prefix ? prefix + JOIN + notice : notice))
    this.truncatedFile = name
    return true
  }

  render(dropped: number): string {
    return joinBlock([...this.pieces].reverse(), dropped)
  }

  private push(name: string, piece: string): void {
    this.pieces.push(piece)
    this.names.push(name)
    this.piecesBytes += JOIN.length + utf8Length(piece)
  }
}

// Whole lines that imitate our headers were escaped before the cut, but cutting a line short
// can make a new one (`### a.mdx` → `### a.md`); such a last line goes.
function dropCutForgedLine(prefix: string): string {
  const start = prefix.lastIndexOf('\n') + 1
  return isForgedLine(prefix.slice(start)) ? prefix.slice(0, start).trimEnd() : prefix
}
