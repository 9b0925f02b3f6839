// Extracts the GitHub REST operations the fake API serves from GitHub's OpenAPI description into
// the small committed fixture test/fixtures/openapi/github-subset.json.
//
// @octokit/openapi is ~385 MB, so it is never a project dependency. To regenerate:
//   mkdir -p /tmp/oa && cd /tmp/oa && npm init -y && npm install @octokit/openapi
//   cd /work/main && npx tsx scripts/extract-openapi.ts /tmp/oa/node_modules/@octokit/openapi
// To serve another operation, add it to OPERATIONS, regenerate, and route it in
// test/harness/fake-github.ts.
//
// Per operation it keeps the parameters, the JSON request body schema and the success response
// schema, without annotations (descriptions, examples, x-* keys). Identical large subschemas
// (the pull request, the repository, the user...) are stored once under `definitions` and
// referenced as {"$ref": "github-subset#/definitions/<name>"}.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const OPERATIONS = [
  'GET /repos/{owner}/{repo}',
  'GET /repos/{owner}/{repo}/actions/permissions',
  'GET /repos/{owner}/{repo}/actions/permissions/workflow',
  'GET /repos/{owner}/{repo}/collaborators/{username}/permission',
  'GET /repos/{owner}/{repo}/issues',
  'GET /repos/{owner}/{repo}/issues/{issue_number}',
  'GET /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by',
  'GET /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocking',
  'GET /repos/{owner}/{repo}/issues/{issue_number}/labels',
  'POST /repos/{owner}/{repo}/issues/{issue_number}/labels',
  'PUT /repos/{owner}/{repo}/issues/{issue_number}/labels',
  'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}',
  'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
  'GET /repos/{owner}/{repo}/issues/{issue_number}/events',
  'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
  'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
  'GET /repos/{owner}/{repo}/labels',
  'POST /repos/{owner}/{repo}/labels',
  'GET /repos/{owner}/{repo}/labels/{name}',
  'GET /repos/{owner}/{repo}/pulls',
  'POST /repos/{owner}/{repo}/pulls',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}',
  'PATCH /repos/{owner}/{repo}/pulls/{pull_number}',
  'POST /repos/{owner}/{repo}/dispatches',
  'GET /repos/{owner}/{repo}/actions/runs/{run_id}',
  'POST /repos/{owner}/{repo}/git/commits',
  'GET /repos/{owner}/{repo}/git/commits/{commit_sha}',
  'POST /repos/{owner}/{repo}/git/refs',
  'PATCH /repos/{owner}/{repo}/git/refs/{ref}',
  'DELETE /repos/{owner}/{repo}/git/refs/{ref}',
  'GET /repos/{owner}/{repo}/git/matching-refs/{ref}'
]

/** Keywords that only document a schema; dropping them changes no validation result. */
const ANNOTATIONS = new Set([
  'description',
  'example',
  'examples',
  'title',
  'externalDocs',
  'deprecated',
  'readOnly',
  'writeOnly'
])
/** Subschemas at least this long (as JSON) that occur twice or more become shared definitions. */
const SHARE_MIN_CHARS = 400
const SUBSET_ID = 'github-subset'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

interface Parameter {
  name: string
  in: string
  required?: boolean
  schema?: Json
}
interface Operation {
  operationId: string
  parameters?: Parameter[]
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> }
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>
}

const isObject = (v: Json | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Drops annotations; keys directly under `properties` are property names, never dropped. */
function strip(schema: Json, underProperties = false): Json {
  if (Array.isArray(schema)) return schema.map((s) => strip(s))
  if (!isObject(schema)) return schema
  const out: JsonObject = {}
  for (const [key, value] of Object.entries(schema)) {
    if (!underProperties && (ANNOTATIONS.has(key) || key.startsWith('x-'))) continue
    out[key] = strip(value, !underProperties && key === 'properties')
  }
  // ajv takes OpenAPI's `nullable` only beside `type`; beside a combinator, null is an alternative.
  if (!underProperties && out.nullable === true && !('type' in out) && Array.isArray(out.anyOf)) {
    delete out.nullable
    out.anyOf = [...out.anyOf, { type: 'null' }]
  }
  return out
}

/** The subschemas of a schema: what sits under properties, items, combinators and the like. */
function subschemas(schema: JsonObject): JsonObject[] {
  const out: JsonObject[] = []
  const add = (v: Json | undefined): void => {
    if (isObject(v)) out.push(v)
  }
  if (isObject(schema.properties)) Object.values(schema.properties).forEach(add)
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    const list = schema[key]
    if (Array.isArray(list)) list.forEach(add)
  }
  add(schema.items)
  add(schema.not)
  add(schema.additionalProperties)
  return out
}

function countSubschemas(schema: Json, counts: Map<string, number>): void {
  if (!isObject(schema)) return
  const text = JSON.stringify(schema)
  if (text.length >= SHARE_MIN_CHARS) counts.set(text, (counts.get(text) ?? 0) + 1)
  for (const sub of subschemas(schema)) countSubschemas(sub, counts)
}

/** Replaces shared subschemas by references, filling `definitions` in order of first encounter. */
function share(
  schema: Json,
  counts: Map<string, number>,
  names: Map<string, string>,
  definitions: JsonObject
): Json {
  if (!isObject(schema)) return schema
  const text = JSON.stringify(schema)
  const shared = (counts.get(text) ?? 0) > 1
  if (shared && names.has(text)) return { $ref: `${SUBSET_ID}#/definitions/${names.get(text)}` }
  const name = `s${names.size + 1}`
  if (shared) names.set(text, name)
  const inner: JsonObject = { ...schema }
  const recur = (v: Json): Json => share(v, counts, names, definitions)
  if (isObject(schema.properties)) {
    inner.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([k, v]) => [k, recur(v)])
    )
  }
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    const list = schema[key]
    if (Array.isArray(list)) inner[key] = list.map(recur)
  }
  for (const key of ['items', 'not', 'additionalProperties']) {
    if (isObject(schema[key])) inner[key] = recur(schema[key])
  }
  if (!shared) return inner
  definitions[name] = inner
  return { $ref: `${SUBSET_ID}#/definitions/${name}` }
}

function main(): void {
  const pkgDir = resolve(process.argv[2] ?? '/tmp/oa/node_modules/@octokit/openapi')
  const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as JsonObject)
    .version
  const spec = JSON.parse(
    readFileSync(join(pkgDir, 'generated', 'api.github.com.deref.json'), 'utf8')
  ) as { paths: Record<string, Record<string, Operation>> }

  const extracted: Record<string, JsonObject> = {}
  for (const key of OPERATIONS) {
    const [method, path] = key.split(' ')
    const op = spec.paths[path]?.[method.toLowerCase()]
    if (!op) throw new Error(`${key} is not in the OpenAPI description`)
    const status = Object.keys(op.responses).find((code) => /^2\d\d$/.test(code))
    if (!status) throw new Error(`${key} has no success response`)
    const body = op.requestBody?.content?.['application/json']
    extracted[key] = {
      operationId: op.operationId,
      parameters: (op.parameters ?? []).map((p) => ({
        name: p.name,
        in: p.in,
        required: p.required === true,
        schema: strip(p.schema ?? {})
      })),
      requestBody: body
        ? { required: op.requestBody?.required === true, schema: strip(body.schema ?? {}) }
        : null,
      response: {
        status: Number(status),
        schema: strip(op.responses[status].content?.['application/json']?.schema ?? null)
      }
    }
  }

  // Only schemas are shared, so the operation records themselves keep their plain shape.
  const schemasOf = (op: JsonObject): JsonObject[] => [
    ...(op.parameters as JsonObject[]),
    ...(isObject(op.requestBody) ? [op.requestBody] : []),
    op.response as JsonObject
  ]
  const counts = new Map<string, number>()
  for (const op of Object.values(extracted)) {
    for (const holder of schemasOf(op)) countSubschemas(holder.schema, counts)
  }
  const definitions: JsonObject = {}
  const names = new Map<string, string>()
  for (const op of Object.values(extracted)) {
    for (const holder of schemasOf(op)) {
      holder.schema = share(holder.schema, counts, names, definitions)
    }
  }

  const out = {
    $comment: 'Generated by scripts/extract-openapi.ts; do not edit. See that file to regenerate.',
    source: {
      package: '@octokit/openapi',
      version,
      file: 'generated/api.github.com.deref.json'
    },
    id: SUBSET_ID,
    operations: extracted,
    definitions
  }
  const target = fileURLToPath(
    new URL('../test/fixtures/openapi/github-subset.json', import.meta.url)
  )
  mkdirSync(dirname(target), { recursive: true })
  writeFileSync(target, JSON.stringify(out, null, 1) + '\n')
  console.log(`wrote ${target}: ${OPERATIONS.length} operations from @octokit/openapi ${version}`)
}

main()
