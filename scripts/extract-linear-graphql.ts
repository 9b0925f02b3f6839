// Extracts the part of Linear's GraphQL schema the Linear tracker uses into the small committed
// fixture test/fixtures/linear/linear-subset.graphql, which the fake Linear
// (test/harness/fake-linear.ts) validates every document and its variables against.
//
// Linear publishes no SDL in a package; @linear/sdk ships the TypeScript types graphql-codegen
// generated from its schema (object types carry `__typename`, field arguments are the
// `<Type><Field>Args` types, enums are `declare enum`s, custom scalars are the keys of
// `Scalars`), and those are read back into SDL here. @linear/sdk is never a project dependency.
// To regenerate:
//   mkdir -p /tmp/linear-sdk && cd /tmp/linear-sdk && npm pack @linear/sdk && tar xzf linear-sdk-*.tgz
//   cd <checkout> && npx tsx scripts/extract-linear-graphql.ts /tmp/linear-sdk/package
// To send another document, add it to src/tracker/linear-documents.ts and regenerate.
//
// Kept: every field the documents select, the arguments they pass plus every required one, the
// input fields they write plus every required one (documents write inputs inline, see
// linear-documents.ts), and the enums and scalars on the way.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildSchema, Kind, parse, validate, type SelectionSetNode, type ValueNode } from 'graphql'
import ts from 'typescript'
import { DOCUMENTS } from '../src/tracker/linear-documents.js'

interface Member {
  optional: boolean
  type: ts.TypeNode
}

const BUILT_IN = new Set(['String', 'Int', 'Float', 'Boolean', 'ID'])

function main(): void {
  const pkgDir = resolve(process.argv[2] ?? '/tmp/linear-sdk/package')
  const version = (
    JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }
  ).version
  const typings = readdirSync(join(pkgDir, 'dist')).find((f) => /^index-.*\.d\.mts$/.test(f))
  if (!typings) throw new Error(`no generated typings in ${pkgDir}/dist`)
  const source = ts.createSourceFile(
    typings,
    readFileSync(join(pkgDir, 'dist', typings), 'utf8'),
    ts.ScriptTarget.Latest
  )

  const aliases = new Map<string, ts.TypeNode>()
  const enums = new Map<string, string[]>()
  const scalars = new Set<string>()
  for (const st of source.statements) {
    if (ts.isTypeAliasDeclaration(st)) aliases.set(st.name.text, st.type)
    if (ts.isEnumDeclaration(st)) {
      enums.set(
        st.name.text,
        st.members.map((m) =>
          m.initializer && ts.isStringLiteral(m.initializer) ? m.initializer.text : ''
        )
      )
    }
  }
  const scalarsNode = aliases.get('Scalars')
  if (!scalarsNode || !ts.isTypeLiteralNode(scalarsNode)) throw new Error('no Scalars type')
  for (const m of scalarsNode.members) {
    if (m.name && ts.isIdentifier(m.name)) scalars.add(m.name.text)
  }

  const argsByLower = new Map([...aliases.keys()].map((n) => [n.toLowerCase(), n]))
  const membersOf = (name: string): Map<string, Member> => {
    const node = aliases.get(name)
    if (!node) throw new Error(`Linear's schema has no type ${name}`)
    const out = new Map<string, Member>()
    const literals = ts.isIntersectionTypeNode(node) ? node.types : [node]
    for (const part of literals) {
      if (!ts.isTypeLiteralNode(part)) continue
      for (const m of part.members) {
        if (!ts.isPropertySignature(m) || !m.type || !ts.isIdentifier(m.name)) continue
        if (m.name.text === '__typename') continue
        out.set(m.name.text, { optional: m.questionToken !== undefined, type: m.type })
      }
    }
    return out
  }

  /** Output types: the fields selected. Input types: the fields written. Fields: the args passed. */
  const outputs = new Map<string, Set<string>>()
  const inputs = new Map<string, Set<string>>()
  const args = new Map<string, Set<string>>()
  const leaves = new Set<string>()

  const reach = (named: string, asInput: boolean): void => {
    if (BUILT_IN.has(named)) return
    if (enums.has(named) || scalars.has(named)) {
      leaves.add(named)
      return
    }
    const into = asInput ? inputs : outputs
    if (!into.has(named)) into.set(named, new Set())
    if (asInput) {
      for (const [f, m] of membersOf(named)) if (!m.optional) writeInput(named, f, undefined)
    }
  }
  const writeInput = (type: string, field: string, value: ValueNode | undefined): void => {
    const member = membersOf(type).get(field)
    if (!member) throw new Error(`${type} has no input field ${field}`)
    inputs.get(type)?.add(field)
    const named = namedType(member.type)
    reach(named, true)
    if (value?.kind === Kind.OBJECT) {
      for (const f of value.fields) writeInput(named, f.name.value, f.value)
    }
  }
  const walk = (parent: string, set: SelectionSetNode): void => {
    reach(parent, false)
    for (const sel of set.selections) {
      if (sel.kind !== Kind.FIELD) throw new Error('the documents use fields only')
      const name = sel.name.value
      const member = membersOf(parent).get(name)
      if (!member) throw new Error(`${parent} has no field ${name}`)
      outputs.get(parent)?.add(name)
      const argsType = argsByLower.get(`${parent}${name}Args`.toLowerCase())
      const key = `${parent}.${name}`
      if (!args.has(key)) args.set(key, new Set())
      if (argsType) {
        const declared = membersOf(argsType)
        const passed = new Map((sel.arguments ?? []).map((a) => [a.name.value, a.value]))
        for (const [arg, m] of declared) {
          if (!passed.has(arg) && m.optional) continue
          args.get(key)?.add(arg)
          const named = namedType(m.type)
          reach(named, true)
          const value = passed.get(arg)
          if (value?.kind === Kind.OBJECT) {
            for (const f of value.fields) writeInput(named, f.name.value, f.value)
          }
        }
      }
      const named = namedType(member.type)
      if (sel.selectionSet) walk(named, sel.selectionSet)
      else reach(named, false)
    }
  }
  for (const text of DOCUMENTS) {
    for (const def of parse(text).definitions) {
      if (def.kind !== Kind.OPERATION_DEFINITION) continue
      walk(def.operation === 'query' ? 'Query' : 'Mutation', def.selectionSet)
    }
  }

  const argList = (key: string, argsType: string | undefined): string => {
    const used = [...(args.get(key) ?? [])].sort()
    if (!argsType || used.length === 0) return ''
    const declared = membersOf(argsType)
    return `(${used.map((a) => `${a}: ${sdlType(declared.get(a) as Member)}`).join(', ')})`
  }
  const parts = [
    `# Generated by scripts/extract-linear-graphql.ts from @linear/sdk ${version} (its generated typings); do not edit.`,
    'schema { query: Query mutation: Mutation }'
  ]
  for (const [name, fields] of [...outputs].sort(([a], [b]) => a.localeCompare(b))) {
    const all = membersOf(name)
    const lines = [...fields].sort().map((f) => {
      const argsType = argsByLower.get(`${name}${f}Args`.toLowerCase())
      return `  ${f}${argList(`${name}.${f}`, argsType)}: ${sdlType(all.get(f) as Member)}`
    })
    parts.push(`type ${name} {\n${lines.join('\n')}\n}`)
  }
  for (const [name, fields] of [...inputs].sort(([a], [b]) => a.localeCompare(b))) {
    const all = membersOf(name)
    const lines = [...fields].sort().map((f) => `  ${f}: ${sdlType(all.get(f) as Member)}`)
    parts.push(`input ${name} {\n${lines.join('\n')}\n}`)
  }
  for (const name of [...leaves].sort()) {
    const values = enums.get(name)
    parts.push(
      values ? `enum ${name} {\n${values.map((v) => `  ${v}`).join('\n')}\n}` : `scalar ${name}`
    )
  }
  const target = fileURLToPath(
    new URL('../test/fixtures/linear/linear-subset.graphql', import.meta.url)
  )
  writeFileSync(target, parts.join('\n\n') + '\n')
  // The subset must accept every document.
  const subset = buildSchema(readFileSync(target, 'utf8'))
  for (const text of DOCUMENTS) {
    const errors = validate(subset, parse(text))
    if (errors.length) throw new Error(`the subset refuses ${text}: ${errors[0]?.message}`)
  }
  console.log(`wrote ${target}: ${DOCUMENTS.length} documents from @linear/sdk ${version}`)
}

/** The GraphQL type a generated TypeScript type stands for. */
function sdlType(m: Member): string {
  const t = sdl(m.type)
  return m.optional ? t.replace(/!$/, '') : t
}

function sdl(t: ts.TypeNode): string {
  if (ts.isTypeReferenceNode(t) && ts.isIdentifier(t.typeName)) {
    const name = t.typeName.text
    const inner = t.typeArguments?.[0]
    if ((name === 'Maybe' || name === 'InputMaybe') && inner) return sdl(inner).replace(/!$/, '')
    if (name === 'Array' && inner) return `[${sdl(inner)}]!`
    return `${name}!`
  }
  if (ts.isIndexedAccessTypeNode(t) && ts.isLiteralTypeNode(t.indexType)) {
    const lit = t.indexType.literal
    if (ts.isStringLiteral(lit)) return `${lit.text}!`
  }
  throw new Error(`cannot read the type ${ts.SyntaxKind[t.kind]}`)
}

function namedType(t: ts.TypeNode): string {
  return sdl(t).replace(/[[\]!]/g, '')
}

main()
