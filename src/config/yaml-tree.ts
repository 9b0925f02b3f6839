import {
  type Alias,
  Composer,
  type CST,
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  Parser,
  Scalar
} from 'yaml'
import { type Path, type Pos, quoted, SourceMap } from './source-map.js'

interface YamlProblem {
  pos: Pos
  message: string
}

/** The front matter as plain values (maps have no prototype), with where each one sits. */
export interface YamlTree {
  /** undefined when the front matter is empty. */
  root: unknown
  map: SourceMap
  errors: YamlProblem[]
  warnings: YamlProblem[]
}

// A WORKFLOW.md has a few hundred nodes; these stop alias bombs and runaway nesting.
const MAX_DEPTH = 64
const MAX_NODES = 100_000
const TOO_DEEP = `YAML: nested more than ${MAX_DEPTH} levels deep; flatten it`

class TooLarge extends Error {
  constructor(
    message: string,
    readonly pos: Pos
  ) {
    super(message)
  }
}

/** Parses YAML that starts on file line `firstLine`, keeping every key's and value's position. */
export function readYamlTree(text: string, firstLine: number): YamlTree {
  const lineCounter = new LineCounter()
  const toPos = (offset: number): Pos => {
    const { line, col } = lineCounter.linePos(offset)
    return { line: line + firstLine - 1, col }
  }
  const map = new SourceMap({ line: firstLine, col: 1 })
  const tree: YamlTree = { root: undefined, map, errors: [], warnings: [] }
  // yaml composes recursively, and deep recursion there can even abort the process (a regular
  // expression compiled near the stack limit), so the depth is checked on the flat CST first.
  const tokens = Array.from(new Parser(lineCounter.addNewLine).parse(text))
  const tooDeep = deepestCollection(tokens, MAX_DEPTH)
  if (tooDeep !== undefined) {
    tree.errors.push({ pos: toPos(tooDeep), message: TOO_DEEP })
    return tree
  }
  // forceDoc: even empty text composes to one document.
  const [doc, extra] = Array.from(
    new Composer({ uniqueKeys: false }).compose(tokens, true, text.length)
  )
  if (!doc) return tree
  if (extra) {
    tree.errors.push({
      pos: toPos(extra.range[0]),
      message: 'YAML: the front matter holds more than one document; remove the "..." line'
    })
  }
  for (const e of placedErrors(text, doc.errors)) {
    tree.errors.push({ pos: toPos(e.pos[0]), message: e.message })
  }
  for (const w of doc.warnings)
    tree.warnings.push({ pos: toPos(w.pos[0]), message: yamlMessage(w) })
  if (tree.errors.length > 0 || doc.contents === null) return tree

  const converter = new Converter(doc, toPos, map, tree.errors)
  try {
    tree.root = converter.convert(doc.contents, [], undefined, 0)
  } catch (e) {
    if (!(e instanceof TooLarge)) throw e
    tree.errors.push({ pos: e.pos, message: e.message })
  }
  return tree
}

interface YamlError {
  code: string
  pos: [number, number]
  message: string
}

const DEEPER =
  'YAML: indented deeper than the key above, which already has a value; line it up with that key'

/**
 * yaml's errors, each where the user has to look. yaml puts a badly indented key at the start
 * of the blank and comment lines before it, and a key indented deeper than a key with a value
 * at that value, a line early (twice: as a nested and as a multi-line key).
 */
function placedErrors(text: string, errors: readonly YamlError[]): YamlError[] {
  const spansLine = (e: YamlError) => text.slice(e.pos[0], e.pos[1]).includes('\n')
  const deeper = errors.filter((e) => e.code === 'MULTILINE_IMPLICIT_KEY' && spansLine(e))
  const out: YamlError[] = []
  for (const e of errors) {
    if (deeper.includes(e)) {
      const offset = contentAfter(text, text.indexOf('\n', e.pos[0]))
      out.push({ ...e, pos: [offset, offset], message: DEEPER })
    } else if (!(e.code === 'BLOCK_AS_IMPLICIT_KEY' && deeper.some((d) => d.pos[0] === e.pos[0]))) {
      const offset = e.code === 'BAD_INDENT' ? contentAfter(text, e.pos[0]) : e.pos[0]
      out.push({ ...e, pos: [offset, e.pos[1]], message: yamlMessage(e) })
    }
  }
  return out
}

/** The offset of the first character at or after `from` that is not blank or a comment. */
function contentAfter(text: string, from: number): number {
  const content = /[ \t\r\n]*(?:#[^\n]*[ \t\r\n]*)*/y
  content.lastIndex = from
  content.exec(text)
  return Math.min(content.lastIndex, text.length)
}

function yamlMessage(e: { message: string }): string {
  return `YAML: ${e.message.replace(/\s+/g, ' ').trim()}`
}

class Converter {
  private nodes = 0
  // Nodes being converted right now: an alias back to one of them is a cycle.
  private readonly active = new Set<unknown>()
  // yaml's resolve() walks the document each time; an alias inside a repeated anchor is met
  // once per repetition.
  private readonly targets = new Map<Alias, ReturnType<Alias['resolve']>>()

  constructor(
    private readonly doc: Document.Parsed,
    private readonly toPos: (offset: number) => Pos,
    private readonly map: SourceMap,
    private readonly errors: YamlProblem[]
  ) {}

  convert(node: unknown, path: Path, keyPos: Pos | undefined, depth: number): unknown {
    const range = hasRange(node) ? node.range : undefined
    const pos = range ? this.toPos(range[0]) : (keyPos ?? this.map.key(path))
    if (++this.nodes > MAX_NODES) {
      throw new TooLarge(`YAML: more than ${MAX_NODES} values (through aliases?); simplify it`, pos)
    }
    if (depth > MAX_DEPTH) throw new TooLarge(TOO_DEEP, pos)
    const empty =
      node == null || (isScalar(node) && node.value === null && range?.[0] === range?.[1])
    const block =
      isScalar(node) && (node.type === Scalar.BLOCK_LITERAL || node.type === Scalar.BLOCK_FOLDED)
    this.map.set(path, { key: keyPos, value: pos, empty, block })

    if (isAlias(node)) {
      const target = this.resolve(node)
      if (!target || this.active.has(target)) {
        this.errors.push({
          pos,
          message: `YAML: alias *${node.source} refers to itself or to nothing`
        })
        return null
      }
      this.active.add(target)
      const value = this.convert(target, path, keyPos, depth + 1)
      this.active.delete(target)
      this.map.set(path, { key: keyPos, value: pos, empty: false, block: false })
      return value
    }
    if (isScalar(node)) return node.value
    if (isSeq(node)) {
      this.active.add(node)
      const items = node.items.map((item, i) =>
        this.convert(item, [...path, i], undefined, depth + 1)
      )
      this.active.delete(node)
      return items
    }
    if (isMap(node)) {
      this.active.add(node)
      const out = this.convertMap(node.items, path, pos, depth)
      this.active.delete(node)
      return out
    }
    return null
  }

  private resolve(alias: Alias): ReturnType<Alias['resolve']> {
    if (!this.targets.has(alias)) this.targets.set(alias, alias.resolve(this.doc))
    return this.targets.get(alias)
  }

  private convertMap(
    pairs: { key: unknown; value: unknown }[],
    path: Path,
    mapPos: Pos,
    depth: number
  ): Record<string, unknown> {
    const out: Record<string, unknown> = Object.create(null)
    for (const pair of pairs) {
      const key = pair.key
      const keyPos = hasRange(key) ? this.toPos(key.range[0]) : mapPos
      if (!isScalar(key)) {
        this.errors.push({
          pos: keyPos,
          message: 'YAML: keys must be plain text, not lists, maps or aliases'
        })
        continue
      }
      const name = keyText(key)
      if (name === '') {
        this.errors.push({ pos: keyPos, message: 'YAML: a key is empty; write the key before ":"' })
        continue
      }
      if (name === '<<' && key.type === Scalar.PLAIN) {
        this.errors.push({
          pos: keyPos,
          message: 'YAML merge keys ("<<") are not supported; write the keys out'
        })
        continue
      }
      if (Object.hasOwn(out, name)) {
        this.errors.push({ pos: keyPos, message: `duplicate key ${quoted(name)}; keep only one` })
        continue
      }
      out[name] = this.convert(pair.value, [...path, name], keyPos, depth + 1)
    }
    return out
  }
}

/** The offset of a collection nested more than `limit` deep, found without recursion. */
function deepestCollection(tokens: CST.Token[], limit: number): number | undefined {
  const stack = tokens.map((token) => ({ token, depth: 0 }))
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { token, depth } = next
    if ('items' in token) {
      if (depth + 1 > limit) return token.offset
      for (const item of token.items) {
        for (const child of [item.key, item.value]) {
          if (child) stack.push({ token: child, depth: depth + 1 })
        }
      }
    } else if (token.type === 'document' && token.value) {
      stack.push({ token: token.value, depth })
    }
  }
  return undefined
}

// Keys are names: `1.0:` is the name "1.0", not the number 1.
function keyText(key: Scalar): string {
  if (typeof key.value === 'string') return key.value
  if (key.value === null || key.value === undefined) return ''
  return key.source ?? String(key.value)
}

function hasRange(node: unknown): node is { range: [number, number, number] } {
  return (
    typeof node === 'object' && node !== null && Array.isArray((node as { range?: unknown }).range)
  )
}
