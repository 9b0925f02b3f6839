// GitHub's published OpenAPI description (the subset in test/fixtures/openapi/github-subset.json,
// made by scripts/extract-openapi.ts), compiled with ajv: which operation a request is, and whether
// its parameters, its body and the fake's answer conform.
import { createHash } from 'node:crypto'
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { _, Ajv, type AnySchema, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import standaloneModule from 'ajv/dist/standalone/index.js'

type Schema = Record<string, unknown>

interface ParameterSpec {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required: boolean
  schema: Schema
}

interface OperationSpec {
  operationId: string
  parameters: ParameterSpec[]
  requestBody: { required: boolean; schema: Schema } | null
  response: { status: number; schema: Schema | null }
}

interface SubsetFile {
  id: string
  source: { package: string; version: string; file: string }
  operations: Record<string, OperationSpec>
  definitions: Record<string, Schema>
}

/** One operation of the description, e.g. `POST /repos/{owner}/{repo}/pulls`. */
export interface Operation {
  /** `METHOD /template`, the key faults and hooks use. */
  key: string
  method: string
  template: string
  operationId: string
  successStatus: number
  /** The path parameters, decoded. */
  params: Record<string, string>
}

interface Compiled {
  spec: OperationSpec
  method: string
  template: string
  pattern: RegExp
  names: string[]
  literalSegments: number
  path: ValidateFunction
  query: ValidateFunction
  body: ValidateFunction | null
  response: ValidateFunction | null
}

const SUBSET_URL = new URL('../fixtures/openapi/github-subset.json', import.meta.url)

/**
 * Request bodies are checked more strictly than GitHub does: an object that lists its properties
 * accepts no others, so a misspelt field (which GitHub would silently ignore) is caught.
 */
function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects)
  if (typeof schema !== 'object' || schema === null) return schema
  const out: Schema = {}
  for (const [key, value] of Object.entries(schema)) {
    out[key] =
      key === 'properties' && typeof value === 'object' && value !== null
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, closeObjects(v)]))
        : closeObjects(value)
  }
  if ('properties' in out && !('additionalProperties' in out)) out.additionalProperties = false
  return out
}

function parameterSchema(params: ParameterSpec[], where: 'path' | 'query'): AnySchema {
  const mine = params.filter((p) => p.in === where)
  return {
    type: 'object',
    properties: Object.fromEntries(mine.map((p) => [p.name, p.schema])),
    required: mine.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false
  }
}

function describe(errors: ErrorObject[] | null | undefined, where: string): string[] {
  return (errors ?? []).map((e) => {
    const at = `${where}${e.instancePath}`
    const extra =
      e.keyword === 'additionalProperties'
        ? ` (${String((e.params as { additionalProperty: string }).additionalProperty)})`
        : ''
    return `${at} ${e.message ?? e.keyword}${extra}`
  })
}

const require = createRequire(import.meta.url)

/** GitHub's own formats, beside ajv-formats' full set. */
const GITHUB_FORMATS = {
  int64: { type: 'number' as const, validate: (n: number) => Number.isInteger(n) },
  'repo.nwo': /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/
}

/** The validators' source refers to every format through `require("formats")`. */
function formats(): Record<string, unknown> {
  const { fullFormats } = require('ajv-formats/dist/formats') as { fullFormats: object }
  return { ...fullFormats, ...GITHUB_FORMATS }
}

function newAjv(coerceTypes: boolean, file: SubsetFile): Ajv {
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    coerceTypes,
    code: { source: true, formats: _`require("formats")` }
  })
  addFormatsModule.default(ajv)
  for (const [name, format] of Object.entries(GITHUB_FORMATS)) ajv.addFormat(name, format)
  ajv.addSchema({ $id: file.id, definitions: file.definitions })
  return ajv
}

/** The schemas of one operation, as compiled: path and query coerce, body and response do not. */
interface OperationSchemas {
  path: AnySchema
  query: AnySchema
  body: AnySchema | null
  response: AnySchema | null
}

interface Validators {
  path: ValidateFunction
  query: ValidateFunction
  body: ValidateFunction | null
  response: ValidateFunction | null
}

/**
 * Compiles every operation's validators. ajv takes over a second for the subset, and every
 * suite that serves the fake would pay it again (jest gives each its own modules), so the
 * generated code is kept in the temp folder, named by a hash of all that goes into it.
 */
function compileValidators(file: SubsetFile, ops: OperationSchemas[]): Validators[] {
  const versions = ['ajv', 'ajv-formats'].map(
    (name) => (require(`${name}/package.json`) as { version: string }).version
  )
  const key = createHash('sha256')
    .update(JSON.stringify({ versions, file: file.id, definitions: file.definitions, ops }))
    .update(Object.values(GITHUB_FORMATS).map(String).join('\n'))
    .update(newAjv.toString() + generate.toString())
    .digest('hex')
    .slice(0, 16)
  const cache = join(tmpdir(), `handoff-openapi-${key}.json`)
  let code: { coercing: string; strict: string }
  try {
    code = JSON.parse(readFileSync(cache, 'utf8')) as typeof code
  } catch {
    code = { coercing: generate(newAjv(true, file), ops, ['path', 'query']), strict: '' }
    code.strict = generate(newAjv(false, file), ops, ['body', 'response'])
    const partial = `${cache}.${process.pid}`
    writeFileSync(partial, JSON.stringify(code))
    renameSync(partial, cache)
  }
  const exported: Record<string, ValidateFunction> = {}
  const shared = formats()
  for (const source of [code.coercing, code.strict]) {
    const load = new Function('require', 'exports', source) as (
      r: (id: string) => unknown,
      e: object
    ) => void
    load((id) => (id === 'formats' ? shared : require(id)), exported)
  }
  const parameters = (name: string) => {
    const validate = exported[name]
    if (!validate) throw new Error(`${cache} has no validator ${name}`)
    return validate
  }
  return ops.map((_op, i) => ({
    path: parameters(`${i}.path`),
    query: parameters(`${i}.query`),
    body: exported[`${i}.body`] ?? null,
    response: exported[`${i}.response`] ?? null
  }))
}

/** The standalone source of these kinds of validator, exported as `<operation index>.<kind>`. */
function generate(ajv: Ajv, ops: OperationSchemas[], kinds: (keyof OperationSchemas)[]): string {
  const refs: Record<string, string> = {}
  ops.forEach((op, i) => {
    for (const kind of kinds) {
      const schema = op[kind]
      if (schema === null) continue
      // A plain id: ajv resolves the schemas' references against it as a base.
      const id = `v${i}${kind}`
      ajv.addSchema(schema, id)
      refs[`${i}.${kind}`] = id
    }
  })
  return standaloneModule.default(ajv, refs)
}

export class OpenApiSubset {
  readonly source: SubsetFile['source']
  private readonly compiled: Compiled[]
  private readonly byKey: Map<string, Compiled>

  private constructor(file: SubsetFile) {
    this.source = file.source
    const operations = Object.entries(file.operations)
    // Path and query values arrive as strings; `issue_number=7` must satisfy `type: integer`.
    const validators = compileValidators(
      file,
      operations.map(([, spec]) => ({
        path: parameterSchema(spec.parameters, 'path'),
        query: parameterSchema(spec.parameters, 'query'),
        body: spec.requestBody ? (closeObjects(spec.requestBody.schema) as Schema) : null,
        response: spec.response.schema
      }))
    )
    this.compiled = operations.map(([key, spec], i) => {
      const v = validators[i]!
      const [method = '', template = ''] = key.split(' ')
      const names: string[] = []
      const pattern = new RegExp(
        '^' +
          template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
            names.push(name)
            return '([^/]+)'
          }) +
          '$'
      )
      return {
        spec,
        method,
        template,
        pattern,
        names,
        literalSegments: template.split('/').filter((s) => s && !s.startsWith('{')).length,
        ...v
      }
    })
    // The most literal template wins: `/issues/comments/{id}` before `/issues/{issue_number}`.
    this.compiled.sort((a, b) => b.literalSegments - a.literalSegments)
    this.byKey = new Map(this.compiled.map((c) => [`${c.method} ${c.template}`, c]))
  }

  static load(): OpenApiSubset {
    return new OpenApiSubset(JSON.parse(readFileSync(SUBSET_URL, 'utf8')) as SubsetFile)
  }

  get operationKeys(): string[] {
    return [...this.byKey.keys()]
  }

  has(key: string): boolean {
    return this.byKey.has(key)
  }

  /** The operation a request is, or undefined when the description has no such method + path. */
  match(method: string, pathname: string): Operation | undefined {
    for (const c of this.compiled) {
      if (c.method !== method) continue
      const m = c.pattern.exec(pathname)
      if (!m) continue
      const params: Record<string, string> = {}
      c.names.forEach((name, i) => {
        params[name] = decodeURIComponent(m[i + 1] ?? '')
      })
      return {
        key: `${c.method} ${c.template}`,
        method: c.method,
        template: c.template,
        operationId: c.spec.operationId,
        successStatus: c.spec.response.status,
        params
      }
    }
    return undefined
  }

  /** Every way a request breaks the operation's description; empty when it conforms. */
  checkRequest(
    op: Operation,
    query: Record<string, string>,
    body: unknown,
    bodyPresent: boolean
  ): string[] {
    const c = this.find(op.key)
    const errors = [
      ...(c.path({ ...op.params }) ? [] : describe(c.path.errors, 'path')),
      ...(c.query({ ...query }) ? [] : describe(c.query.errors, 'query'))
    ]
    const spec = c.spec.requestBody
    if (!c.body) {
      if (bodyPresent) errors.push('body: this operation takes no request body')
    } else if (!bodyPresent) {
      if (spec?.required) errors.push('body: a JSON request body is required')
    } else if (!c.body(body)) {
      errors.push(...describe(c.body.errors, 'body'))
    }
    return errors
  }

  /** Every way a success response breaks the operation's response schema. */
  checkResponse(key: string, status: number, body: unknown): string[] {
    const c = this.find(key)
    if (status !== c.spec.response.status) {
      return [`status ${status}, the description says ${c.spec.response.status}`]
    }
    if (!c.response) return body === undefined ? [] : ['a body where none is described']
    return c.response(body) ? [] : describe(c.response.errors, 'response')
  }

  private find(key: string): Compiled {
    const c = this.byKey.get(key)
    if (!c) throw new Error(`no operation ${key} in the OpenAPI subset`)
    return c
  }
}
