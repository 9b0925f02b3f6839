import { randomBytes } from 'node:crypto'
import { sanitizeUntrusted } from '../handoff/index.js'

/**
 * Echoes an agent's output into the job log without letting it act on the runner. The runner
 * executes `::set-output`, `::save-state` and friends found at the start of any stdout line,
 * so every line is prefixed (a command must start the line) and the whole echo also sits
 * between `::stop-commands::` and a per-run random token the agent never sees. Each line goes
 * through `redact` first (the runner masks only the exact values it was told of).
 */
export class AgentLogEcho {
  private readonly token = randomBytes(16).toString('hex')
  private pending = ''
  private open = false

  constructor(
    private readonly write: (text: string) => void,
    private readonly title: string,
    private readonly redact: (line: string) => string
  ) {}

  push(chunk: string): void {
    this.pending += chunk
    const lines = this.pending.split('\n')
    this.pending = lines.pop() ?? ''
    for (const line of lines) this.line(line)
  }

  close(): void {
    if (this.pending) this.line(this.pending)
    this.pending = ''
    if (this.open) {
      this.write(`::${this.token}::\n::endgroup::\n`)
      this.open = false
    }
  }

  private line(raw: string): void {
    if (!this.open) {
      this.write(`::group::${this.title}\n::stop-commands::${this.token}\n`)
      this.open = true
    }
    this.write(`│ ${this.redact(sanitizeUntrusted(raw).text)}\n`)
  }
}
