import { splitFrontMatter } from '../config/front-matter.js'
import { readYamlTree } from '../config/yaml-tree.js'

// The handoff contract's structured fields, which a deliverable may carry in its front matter
// beside the requests (requests.ts). Written by an agent: checked for type and size here, and
// only ever shown as data (a table cell), never as prompt text.

export const FIELD_KEYS = ['key_facts', 'decisions', 'open_questions', 'confidence'] as const

const MAX_ITEMS = 20
const MAX_ITEM_CHARS = 500

export interface ContractFields {
  keyFacts?: string[]
  decisions?: string[]
  openQuestions?: string[]
  /** How sure the agent was of its work, from 0 to 1. */
  confidence?: number
}

const LISTS = {
  key_facts: 'keyFacts',
  decisions: 'decisions',
  open_questions: 'openQuestions'
} as const

/** The fields a deliverable's front matter sets; a field that is not well formed is a notice. */
export function readContractFields(deliverable: string): {
  fields: ContractFields
  notices: string[]
} {
  const fields: ContractFields = {}
  const notices: string[] = []
  const parts = splitFrontMatter(deliverable.replace(/\r\n?/g, '\n'))
  if (parts.frontMatter === null || parts.unclosed) return { fields, notices }
  const tree = readYamlTree(parts.frontMatter, parts.frontMatterLine)
  const root = tree.errors.length === 0 ? tree.root : undefined
  if (!root || typeof root !== 'object' || Array.isArray(root)) return { fields, notices }
  const map = root as Record<string, unknown>
  for (const [key, name] of Object.entries(LISTS)) {
    if (!(key in map)) continue
    const value = map[key]
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
      notices.push(`${key} must be a list of strings; ignored`)
    } else if (value.length > MAX_ITEMS) {
      notices.push(`${key} has ${value.length} items, over ${MAX_ITEMS}; ignored`)
    } else if (value.some((v: string) => Array.from(v).length > MAX_ITEM_CHARS)) {
      notices.push(`an item of ${key} is over ${MAX_ITEM_CHARS} characters; ignored`)
    } else {
      fields[name] = value as string[]
    }
  }
  if ('confidence' in map) {
    const c = map.confidence
    if (typeof c === 'number' && Number.isFinite(c) && c >= 0 && c <= 1) fields.confidence = c
    else notices.push('confidence must be a number from 0 to 1; ignored')
  }
  return { fields, notices }
}

/** The fields as label and value pairs, in the contract's order. */
export function fieldEntries(f: ContractFields): [label: string, value: string][] {
  const out: [string, string][] = []
  for (const v of f.keyFacts ?? []) out.push(['key fact', v])
  for (const v of f.decisions ?? []) out.push(['decision', v])
  for (const v of f.openQuestions ?? []) out.push(['open question', v])
  if (f.confidence !== undefined) out.push(['confidence', String(f.confidence)])
  return out
}
