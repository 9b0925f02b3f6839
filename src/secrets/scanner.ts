import { encodedForms } from './encodings.js'
import { KEY_SHAPES } from './key-shapes.js'
import type { KnownSecret } from './known-secrets.js'

/** Text with every secret found replaced, and what was found, in words (never the value). */
export interface Redacted {
  text: string
  /** e.g. `the value of ANTHROPIC_API_KEY (base64)`, `a GitHub token`; each once, in order. */
  kinds: string[]
}

interface Hit {
  start: number
  end: number
  kind: string
  /** What replaces it: `(redacted …)`. */
  label: string
}

/**
 * What stands in for a secret. Deliverables open with YAML front matter the pipeline reads
 * requests from, so the marker is YAML-safe wherever the secret stood in a scalar (plain,
 * quoted, block, flow): it starts with no indicator and holds no `: `, ` #`, `,`, bracket,
 * brace, quote or backslash (a variable's name in WORKFLOW.md could hold any of them).
 */
function marker(what: string): string {
  return `(redacted ${what.replace(/[^A-Za-z0-9_. -]/g, '_')})`
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** One regular expression for many literal needles, the longest tried first. */
function alternation(needles: string[], flags: string): RegExp | null {
  if (needles.length === 0) return null
  const sorted = [...new Set(needles)].sort((a, b) => b.length - a.length)
  return new RegExp(sorted.map(escape).join('|'), flags)
}

/**
 * Finds the secrets the job knows (their values, and those values base64-, URL- or
 * hex-encoded or reversed) and credentials recognised by their shape (GitHub, Anthropic,
 * OpenAI, Google, AWS, Slack, ... keys, private key blocks) in text that is about to leave the
 * runner: a commit, a comment, the job summary, the log.
 */
export class SecretScanner {
  private readonly known: RegExp | null
  private readonly knownAnyCase: RegExp | null
  /** Needle (lower case for the any-case ones) to what it is. */
  private readonly found = new Map<string, { kind: string; label: string }>()
  private readonly needles: string[] = []

  constructor(secrets: readonly KnownSecret[]) {
    const exact: string[] = []
    const anyCase: string[] = []
    for (const s of secrets) {
      for (const f of encodedForms(s.value)) {
        const key = f.anyCase ? f.needle.toLowerCase() : f.needle
        if (this.found.has(key)) continue
        this.found.set(key, {
          kind: `the value of ${s.name}${f.form ? ` (${f.form})` : ''}`,
          label: marker(`${s.name}${f.form ? ` ${f.form}` : ''}`)
        })
        ;(f.anyCase ? anyCase : exact).push(f.needle)
        this.needles.push(f.needle)
      }
    }
    this.known = alternation(exact, 'g')
    this.knownAnyCase = alternation(anyCase, 'gi')
  }

  /** Every form of every known value: what a log masker should hide. */
  masks(): string[] {
    return [...this.needles]
  }

  /** What `text` holds, in words; empty when nothing. */
  find(text: string): string[] {
    return this.hits(text).kinds
  }

  redact(text: string): Redacted {
    const { hits, kinds } = this.hits(text)
    if (hits.length === 0) return { text, kinds }
    let out = ''
    let at = 0
    for (const h of hits) {
      out += text.slice(at, h.start) + h.label
      at = h.end
    }
    return { text: out + text.slice(at), kinds }
  }

  /**
   * For text that arrives a line at a time (an agent's output): each line redacted, and every
   * line of a private key block, which no single line shows whole.
   */
  lines(): (line: string) => string {
    let inKey = false
    return (line) => {
      if (inKey) {
        if (/-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/.test(line)) inKey = false
        return marker('private key')
      }
      if (/-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/.test(line)) {
        inKey = !/-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/.test(line)
      }
      return this.redact(line).text
    }
  }

  /** Every string inside `value` (an object read back as JSON, say) redacted. */
  redactDeep<T>(value: T): { value: T; kinds: string[] } {
    const kinds: string[] = []
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') {
        const r = this.redact(v)
        kinds.push(...r.kinds)
        return r.text
      }
      if (Array.isArray(v)) return v.map(walk)
      if (v && typeof v === 'object') {
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
      }
      return v
    }
    return { value: walk(value) as T, kinds: unique(kinds) }
  }

  /** Every hit, in order, overlapping ones merged into one; and the kinds of them all. */
  private hits(text: string): { hits: Hit[]; kinds: string[] } {
    const hits: Hit[] = []
    for (const re of [this.known, this.knownAnyCase]) {
      if (!re) continue
      for (const m of text.matchAll(re)) {
        const what = this.found.get(re === this.known ? m[0] : m[0].toLowerCase())!
        hits.push({ start: m.index, end: m.index + m[0].length, ...what })
      }
    }
    for (const shape of KEY_SHAPES) {
      for (const m of text.matchAll(shape.pattern)) {
        if (shape.accept && !shape.accept(m[0])) continue
        const label = marker(shape.kind.replace(/^an? /, ''))
        hits.push({ start: m.index, end: m.index + m[0].length, kind: shape.kind, label })
      }
    }
    hits.sort((a, b) => a.start - b.start || b.end - a.end)
    const merged: Hit[] = []
    for (const h of hits) {
      const last = merged[merged.length - 1]
      if (last && h.start < last.end) last.end = Math.max(last.end, h.end)
      else merged.push({ ...h })
    }
    return { hits: merged, kinds: unique(hits.map((h) => h.kind)) }
  }
}

function unique(items: string[]): string[] {
  return [...new Set(items)]
}

/**
 * `text` with its secrets redacted; a finding is told to `note` in one line naming `where`
 * and the kinds found, never the value.
 */
export function redactNoting(
  secrets: SecretScanner,
  where: string,
  text: string,
  note: (line: string) => void
): string {
  const r = secrets.redact(text)
  if (r.kinds.length > 0) note(`${where}: ${inWords(r.kinds)} redacted`)
  return r.text
}

/** `a GitHub token and the value of ANTHROPIC_API_KEY`, for one line of a report. */
export function inWords(kinds: readonly string[]): string {
  if (kinds.length <= 1) return kinds[0] ?? 'nothing'
  return `${kinds.slice(0, -1).join(', ')} and ${kinds[kinds.length - 1]}`
}
