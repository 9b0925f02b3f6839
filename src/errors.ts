/** Where in a user's file a mistake is; columns and lines are 1-based. */
export interface Location {
  file: string
  line?: number
  col?: number
}

/**
 * A mistake the user can fix. It prints as one line, `file:line:col: message`, and the
 * message says what to change; adapters print it without a stack trace.
 */
export class UserError extends Error {
  constructor(
    message: string,
    readonly location?: Location
  ) {
    super(message)
    this.name = 'UserError'
  }

  /** The one line shown to the user. */
  format(): string {
    const where = this.location ? formatLocation(this.location) : ''
    return where ? `${where}: ${this.message}` : this.message
  }
}

export function formatLocation(loc: Location): string {
  let out = loc.file
  if (loc.line !== undefined) {
    out += `:${loc.line}`
    if (loc.col !== undefined) out += `:${loc.col}`
  }
  return out
}

/** Many user mistakes found at once (e.g. every problem in WORKFLOW.md); each is one line. */
export class UserErrors extends UserError {
  constructor(readonly errors: UserError[]) {
    super(errors.map((e) => e.format()).join('\n'))
    this.name = 'UserErrors'
  }

  override format(): string {
    return this.errors.map((e) => e.format()).join('\n')
  }
}

/** An error as one line for the user: a UserError's own format, else its message. */
export function messageOf(err: unknown): string {
  if (err instanceof UserError) return err.format()
  return err instanceof Error ? err.message : String(err)
}
