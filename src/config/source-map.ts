/** A key path into the front matter: map keys and list indexes. */
export type Path = readonly (string | number)[]

/** A 1-based file position. */
export interface Pos {
  line: number
  col: number
}

interface Entry {
  key?: Pos
  value: Pos
  /** The value was left empty (`key:` with nothing after it). */
  empty: boolean
  /** The value is a `|` or `>` block scalar, whose text starts on the next line. */
  block: boolean
}

const START: Pos = { line: 1, col: 1 }

/** Where each key and value of the front matter sits in the file. */
export class SourceMap {
  private readonly entries = new Map<string, Entry>()

  constructor(private readonly rootPos: Pos = START) {}

  set(path: Path, entry: Entry): void {
    this.entries.set(pathKey(path), entry)
  }

  has(path: Path): boolean {
    return this.entries.has(pathKey(path))
  }

  isBlock(path: Path): boolean {
    return this.entries.get(pathKey(path))?.block ?? false
  }

  /** The value's position; for an empty or absent value, its key's or the nearest parent's. */
  value(path: Path): Pos {
    const entry = this.entries.get(pathKey(path))
    if (entry && !entry.empty) return entry.value
    return this.key(path)
  }

  /** The key's position (the value's for a list item); else the nearest parent's. */
  key(path: Path): Pos {
    for (let end = path.length; end > 0; end--) {
      const entry = this.entries.get(pathKey(path.slice(0, end)))
      if (entry) return entry.key ?? entry.value
    }
    return this.rootPos
  }
}

function pathKey(path: Path): string {
  return JSON.stringify(path)
}

/**
 * `agent.profiles.researcher.allowed_actions[1]`: how messages name a key. A key that is not
 * a plain word is quoted, as in `agent.profiles["story writer"]`.
 */
function pathLabel(path: Path): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else if (!/^[\w-]+$/.test(part)) out += `[${quoted(part)}]`
    else out += out ? `.${part}` : part
  }
  return out
}

/** User text in a message: quoted, with newlines and control characters escaped. */
export function quoted(text: string): string {
  return JSON.stringify(text)
}

/** `tracker.kind: message`, or just the message at the top level. */
export function labelled(path: Path, message: string): string {
  const label = pathLabel(path)
  return label ? `${label}: ${message}` : message
}
