import { type Location, UserError, UserErrors } from '../errors.js'
import { labelled, type Path, type Pos, quoted, type SourceMap } from './source-map.js'
import type { ConfigWarning } from './types.js'

/** Every mistake and warning found while loading WORKFLOW.md, each tied to a file position. */
export class Problems {
  private readonly errors: { at: Location; message: string }[] = []
  private readonly found: ConfigWarning[] = []
  /** Keys some unknown key was taken for a typo of: their absence is not reported again. */
  private readonly typoTargets = new Set<string>()
  private readonly broken = new Set<string>()
  /** Paths whose value took text from the environment: such values are never echoed. */
  private readonly fromEnv = new Set<string>()

  constructor(
    readonly file: string,
    readonly map: SourceMap
  ) {}

  error(pos: Pos, message: string): void {
    this.errors.push({ at: this.location(pos), message })
  }

  warn(pos: Pos, message: string): void {
    this.found.push({ message, location: this.location(pos) })
  }

  /** An error about the value at `path` (or its key when the value is empty or absent). */
  errorAt(path: Path, message: string): void {
    if (!this.isBroken(path)) this.error(this.map.value(path), labelled(path, message))
  }

  /** An error about the key at `path` itself. */
  errorAtKey(path: Path, message: string): void {
    if (!this.isBroken(path)) this.error(this.map.key(path), labelled(path, message))
  }

  /** The value at `path` already has an error; whatever follows from it is not reported. */
  markBroken(path: Path): void {
    this.broken.add(JSON.stringify(path))
  }

  private isBroken(path: Path): boolean {
    return this.broken.has(JSON.stringify(path))
  }

  warnAt(path: Path, message: string): void {
    this.warn(this.map.value(path), labelled(path, message))
  }

  warnAtKey(path: Path, message: string): void {
    this.warn(this.map.key(path), labelled(path, message))
  }

  markTypoOf(path: Path): void {
    this.typoTargets.add(JSON.stringify(path))
  }

  isTypoTarget(path: Path): boolean {
    return this.typoTargets.has(JSON.stringify(path))
  }

  markFromEnv(path: Path): void {
    this.fromEnv.add(JSON.stringify(path))
  }

  isFromEnv(path: Path): boolean {
    return this.fromEnv.has(JSON.stringify(path))
  }

  /** `"Todo"`, or a stand-in when the text came from the environment. */
  quote(path: Path, value: string): string {
    return this.isFromEnv(path) ? '(a value from the environment)' : quoted(value)
  }

  /** The warnings, sorted by position. */
  get warnings(): ConfigWarning[] {
    return [...this.found].sort((a, b) => byPosition(a.location, b.location))
  }

  get failed(): boolean {
    return this.errors.length > 0
  }

  /** Throws all errors found so far, sorted by position, if there are any. */
  throwIfAny(): void {
    if (this.failed) this.fail()
  }

  /** Throws all errors found so far, sorted by position. */
  fail(): never {
    const sorted = [...this.errors].sort((a, b) => byPosition(a.at, b.at))
    const unique = new Map<string, UserError>()
    for (const e of sorted) {
      const error = new UserError(e.message, e.at)
      if (!unique.has(error.format())) unique.set(error.format(), error)
    }
    throw new UserErrors([...unique.values()])
  }

  private location(pos: Pos): Location {
    return { file: this.file, line: pos.line, col: pos.col }
  }
}

function byPosition(a: Location, b: Location): number {
  return (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0)
}
