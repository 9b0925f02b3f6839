import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'

/**
 * The agent's log: its stdout and stderr bytes, appended as they come, readable by us alone.
 * A full disk stops the logging, not the run.
 */
export class LogFile {
  private fd: number | undefined

  /** Opens (creating its folder) or throws when the file cannot be opened. */
  constructor(path: string) {
    mkdirSync(dirname(path), { recursive: true })
    this.fd = openSync(path, 'a', 0o600)
  }

  write(chunk: Buffer): void {
    if (this.fd === undefined) return
    try {
      for (let off = 0; off < chunk.length;) off += writeSync(this.fd, chunk, off)
    } catch {
      this.close()
    }
  }

  close(): void {
    if (this.fd === undefined) return
    const fd = this.fd
    this.fd = undefined
    try {
      closeSync(fd)
    } catch {
      // Nothing more can be lost: every write has already returned.
    }
  }
}
