import { splitFrontMatter } from '../config/front-matter.js'
import { isMap } from '../config/section-input.js'
import { readYamlTree } from '../config/yaml-tree.js'
import { UserError } from '../errors.js'

/** The front matter fields of a local issue file, each checked to be what the tracker uses. */
export interface IssueFrontMatter {
  title?: string
  state?: string
  labels: string[]
  created?: string
  updated?: string
}

const NO_FRONT_MATTER =
  'the issue file has no front matter (line 1 is not exactly "---"); start it with a "---" line, then title: and state: lines, then a closing "---"'
const UNCLOSED =
  'the front matter that starts here is never closed; add a "---" line after its last field, before the description'

/**
 * Cuts an issue file into its front matter and its trimmed body. The YAML is read as
 * WORKFLOW.md's is (bounded nesting and alias expansion, no merge keys), and a field of the
 * wrong shape is a UserError at its line rather than "[object Object]" downstream.
 */
export function readIssueFrontMatter(
  text: string,
  file: string
): { meta: IssueFrontMatter; body: string } {
  const parts = splitFrontMatter(text)
  // Without one the issue has no state, and the run would stop at that instead of at this.
  if (parts.frontMatter === null) throw new UserError(NO_FRONT_MATTER, { file, line: 1, col: 1 })
  // Read on, the description would be taken for fields and yaml's error would point into it;
  // and the state could not be moved (setLocalIssueState writes before the closing line).
  if (parts.unclosed) throw new UserError(UNCLOSED, { file, line: 1, col: 1 })
  const tree = readYamlTree(parts.frontMatter, parts.frontMatterLine)
  const first = tree.errors[0]
  if (first) throw new UserError(`invalid front matter: ${first.message}`, { file, ...first.pos })
  const root = tree.root ?? Object.create(null)
  if (!isMap(root)) {
    throw new UserError('front matter must be a map of keys (title, state, labels, ...)', {
      file,
      ...tree.map.value([])
    })
  }
  const at = (path: (string | number)[]) => ({ file, ...tree.map.value(path) })
  const field = (key: string): string | undefined => {
    const v = root[key]
    if (v === undefined || v === null) return undefined
    if (isText(v)) return String(v)
    throw new UserError(`${key} must be text, not ${shape(v)}; write it on one line`, at([key]))
  }
  return {
    meta: {
      title: field('title'),
      state: field('state'),
      labels: labelsOf(root.labels, at),
      created: field('created'),
      updated: field('updated')
    },
    body: parts.body
  }
}

function labelsOf(
  value: unknown,
  at: (path: (string | number)[]) => { file: string; line: number; col: number }
): string[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) {
    throw new UserError(
      `labels must be a list, not ${shape(value)}; e.g. labels: [bug, ui]`,
      at(['labels'])
    )
  }
  return value.map((label, i) => {
    if (isText(label)) return String(label)
    throw new UserError(
      `labels[${i}] must be text, not ${shape(label)}; e.g. labels: [bug, ui]`,
      at(['labels', i])
    )
  })
}

// A number or boolean is taken as text: `title: 2026` is the title "2026".
function isText(v: unknown): v is string | number | boolean | bigint {
  return ['string', 'number', 'boolean', 'bigint'].includes(typeof v)
}

function shape(v: unknown): string {
  if (Array.isArray(v)) return 'a list'
  if (isMap(v)) return 'a map'
  if (isText(v)) return `the text ${JSON.stringify(String(v))}`
  return 'a tagged value'
}
