import { costWords } from '../agent/prices.js'
import { formatDuration } from '../pipeline/record/duration.js'
import type { JobSections } from '../pipeline/ports.js'
import type { LocalStage, LocalStageStart } from './local-pipeline.js'

/** How a command reports: a live line per stage on a terminal, plain lines, or JSON at the end. */
export type OutputMode = 'tty' | 'plain' | 'json'

export interface Out {
  write(text: string): unknown
  isTTY?: boolean
  columns?: number
}

/**
 * JSON when asked; the live line only on a terminal that can move the cursor: never into a
 * pipe or a file, nor with TERM=dumb (an editor's shell, a CI log).
 */
export function outputMode(json: boolean, out: Out, env: Env = process.env): OutputMode {
  if (json) return 'json'
  return out.isTTY && env.TERM !== 'dumb' ? 'tty' : 'plain'
}

type Env = Record<string, string | undefined>

/** Colour only on the live terminal, and not when NO_COLOR is set (https://no-color.org). */
export function colourOn(mode: OutputMode, env: Env = process.env): boolean {
  return mode === 'tty' && !env.NO_COLOR
}

const COLOURS = { green: '\x1b[32m', red: '\x1b[31m', yellow: '\x1b[33m' } as const
const RESET = '\x1b[39m'

const TICK_MS = 200
const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

/**
 * One line per stage. On a terminal the running stage's line shows the time so far and is
 * rewritten in place; elsewhere each stage prints a line when it starts and one when it ends.
 */
export class StageProgress {
  private timer: NodeJS.Timeout | undefined
  private startedAt = 0
  private frame = 0

  constructor(
    private readonly out: Out,
    private readonly mode: OutputMode,
    private readonly colour = false
  ) {}

  start(s: LocalStageStart): void {
    if (this.mode === 'json') return
    this.startedAt = Date.now()
    if (this.mode === 'plain') {
      this.out.write(`${stageName(s)}: running\n`)
      return
    }
    this.frame = 0
    this.draw(s)
    this.timer = setInterval(() => this.draw(s), TICK_MS)
    // A forgotten line must not keep the process alive.
    this.timer.unref()
  }

  end(s: LocalStage): void {
    this.clear()
    if (this.mode === 'json') return
    this.out.write(stageLine(s, this.colour) + '\n')
    // Refused requests change what the pipeline does next: never cut, unlike refused files.
    const requests = s.refused.filter((r) => r.startsWith('request refused: '))
    const others = s.refused.filter((r) => !requests.includes(r))
    for (const r of [...requests, ...others.slice(0, 5)]) this.out.write(`    ${r}\n`)
    if (others.length > 5) this.out.write(`    and ${others.length - 5} more\n`)
    for (const w of s.warnings) this.out.write(`    warning: ${w}\n`)
    if (s.logPath) this.out.write(`    agent log: ${s.logPath}\n`)
  }

  /** The job's phases as headings: the live line, if any, is redrawn below each. */
  readonly sections: JobSections = {
    open: (title) => {
      if (this.mode === 'json') return
      if (this.timer) this.out.write('\r\x1b[2K')
      this.out.write(`── ${title}\n`)
    },
    close: () => undefined
  }

  /** Stops the live line (after an error, or Ctrl-C). */
  clear(): void {
    if (!this.timer) return
    clearInterval(this.timer)
    this.timer = undefined
    this.out.write('\r\x1b[2K')
  }

  private draw(s: LocalStageStart): void {
    const spin = SPINNER[this.frame++ % SPINNER.length]
    const line = `${spin} ${stageName(s)} · ${formatDuration(Date.now() - this.startedAt, { tenths: true })}`
    // A pseudo-terminal without a size reports 0 columns.
    const width = Math.max(20, (this.out.columns || 80) - 1)
    this.out.write(`\r\x1b[2K${line.slice(0, width)}`)
  }
}

/** `researcher in "Todo"`, with the kind and attempt when they are not the plain first run. */
export function stageName(s: LocalStageStart): string {
  const extra = [
    ...(s.kind === 'review' ? ['review'] : []),
    ...(s.attempt > 0 ? [`attempt ${s.attempt + 1}`] : [])
  ]
  return `${s.profile} in "${s.state}"${extra.length ? ` (${extra.join(', ')})` : ''}`
}

function stageLine(s: LocalStage, colour: boolean): string {
  const [sign, hue] =
    s.outcome === 'succeeded'
      ? (['✓', 'green'] as const)
      : s.outcome === 'input_required'
        ? (['?', 'yellow'] as const)
        : (['✗', 'red'] as const)
  const mark = colour ? `${COLOURS[hue]}${sign}${RESET}` : sign
  const what = s.outcome === 'succeeded' ? s.outcome : `${s.outcome} (${s.reason})`
  const file = s.handoffPath ? `\n    ${s.handoffPath}` : ''
  const cost = s.cost ? ` · ${costWords(s.cost)}` : ''
  return `${mark} ${stageName(s)} · ${what} · ${formatDuration(s.durationMs, { tenths: true })}${cost} · ${s.summary}${file}`
}
