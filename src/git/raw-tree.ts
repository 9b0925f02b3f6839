// A raw git tree object (`<mode> <name>\0<binary oid>` per entry) indexed but not parsed: one
// pass finds where each entry starts and ends, and an entry becomes strings only when asked
// for. A 100,000-entry handoff directory then costs one scan, not 100,000 objects.

/** One entry of a tree, as a listing gives it. */
export interface TreeEntry {
  /** Six digits, as `git ls-tree` shows them: `100644`, `100755`, `120000`, `160000`, `040000`. */
  mode: string
  /** `blob`, `tree` or `commit` (a gitlink). */
  type: string
  oid: string
  /** Not known from a tree; ask `blobSizes` for the blobs that matter. */
  size: number | null
  /** The entry's name inside the listed directory. */
  name: string
}

export class RawTree {
  /** Entry i is `data[start[i], nul[i])` (`<mode> <name>`), then its oid. */
  private readonly start: Int32Array
  private readonly space: Int32Array
  private readonly nul: Int32Array
  readonly count: number

  constructor(
    readonly data: Buffer,
    private readonly oidBytes: number
  ) {
    // A byte loop: most names are short, and calling indexOf twice an entry costs more.
    const start: number[] = []
    const space: number[] = []
    const nul: number[] = []
    const n = data.length
    let i = 0
    while (i < n) {
      let sp = i
      while (sp < n && data[sp] !== 0x20) sp++
      let end = sp + 1
      while (end < n && data[end] !== 0) end++
      if (end >= n || end + 1 + oidBytes > n) throw new Error('malformed git tree object')
      start.push(i)
      space.push(sp)
      nul.push(end)
      i = end + 1 + oidBytes
    }
    this.start = Int32Array.from(start)
    this.space = Int32Array.from(space)
    this.nul = Int32Array.from(nul)
    this.count = start.length
  }

  /** The name, decoded as UTF-8 (bytes that are not UTF-8 come out as U+FFFD). */
  name(i: number): string {
    return this.data.toString('utf8', this.space[i]! + 1, this.nul[i])
  }

  /** Six digits, as `git ls-tree` shows them. */
  mode(i: number): string {
    return this.data.toString('latin1', this.start[i], this.space[i]).padStart(6, '0')
  }

  oid(i: number): string {
    const at = this.nul[i]! + 1
    return this.data.toString('hex', at, at + this.oidBytes)
  }

  entry(i: number): TreeEntry {
    const mode = this.mode(i)
    return {
      mode,
      type: mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob',
      oid: this.oid(i),
      size: null,
      name: this.name(i)
    }
  }

  entries(): TreeEntry[] {
    return Array.from({ length: this.count }, (_, i) => this.entry(i))
  }

  /** Byte order of entry i's name against entry j's of `other` (negative: i's is first). */
  compareNames(i: number, other: RawTree, j: number): number {
    // A byte loop: neighbouring names differ early, and a native call per pair costs more.
    const a = this.data
    const b = other.data
    let x = this.space[i]! + 1
    let y = other.space[j]! + 1
    const xEnd = this.nul[i]!
    const yEnd = other.nul[j]!
    for (; x < xEnd && y < yEnd; x++, y++) {
      if (a[x] !== b[y]) return a[x]! - b[y]!
    }
    return xEnd - x - (yEnd - y)
  }

  /** Where entry i's name starts in `data`; it ends at `nameEnd(i)`. */
  nameStart(i: number): number {
    return this.space[i]! + 1
  }

  nameEnd(i: number): number {
    return this.nul[i]!
  }

  /** True when entry i's mode is exactly `100644`, a plain file. */
  isPlainFile(i: number): boolean {
    const d = this.data
    const m = this.start[i]!
    return (
      this.space[i]! - m === 6 &&
      d[m] === 0x31 &&
      d[m + 1] === 0x30 &&
      d[m + 2] === 0x30 &&
      d[m + 3] === 0x36 &&
      d[m + 4] === 0x34 &&
      d[m + 5] === 0x34
    )
  }

  sameOid(i: number, other: RawTree, j: number): boolean {
    const a = this.nul[i]! + 1
    const b = other.nul[j]! + 1
    return this.data.compare(other.data, b, b + other.oidBytes, a, a + this.oidBytes) === 0
  }

  /**
   * True when the names rise strictly in byte order from entry `from` on. Git sorts a subdirectory as if its name
   * ended in `/`, so a valid tree can fail this (`a` a directory beside `a.md`); so can a
   * hand-made, unsorted one.
   */
  namesAscend(from = 0): boolean {
    for (let i = from + 1; i < this.count; i++)
      if (this.compareNames(i - 1, this, i) >= 0) return false
    return true
  }

  /** How many leading entries are byte for byte the same in `other`. */
  commonLeadingEntries(other: RawTree): number {
    if (this.oidBytes !== other.oidBytes) return 0
    // Identical bytes from the start index the same entries, so a binary search over this
    // tree's entry ends finds the longest shared run of whole entries.
    const endOf = (i: number) => this.nul[i - 1]! + 1 + this.oidBytes
    let lo = 0
    let hi = Math.min(this.count, other.count)
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2)
      const end = endOf(mid)
      const same = end <= other.data.length && this.data.compare(other.data, 0, end, 0, end) === 0
      if (same) lo = mid
      else hi = mid - 1
    }
    return lo
  }
}
