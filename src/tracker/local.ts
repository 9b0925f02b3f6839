import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { frontMatterEnd } from '../config/front-matter.js'
import { UserError } from '../errors.js'
import { FileRefused, readCappedText } from '../files/read-capped.js'
import { writeWhole } from '../files/write-whole.js'
import { readIssueFrontMatter } from './local-front-matter.js'
import type { Issue } from '../pipeline/ports.js'

/** itervox's local tracker: one Markdown file per issue under `.itervox/issues/`. */
export const LOCAL_ISSUES_DIR = '.itervox/issues'

export interface LocalComment {
  createdAt: string
  author: string
  body: string
}

export interface LocalIssue extends Issue {
  comments: LocalComment[]
}

// Identifiers become file names, so they are checked before any path is built from them.
const ID_PATTERN = /^[A-Za-z][A-Za-z0-9_]*-\d+$/

export function localIssuePath(repoRoot: string, id: string): string {
  if (!ID_PATTERN.test(id)) {
    throw new UserError(
      `issue "${id}" is not a local issue identifier; use the form PREFIX-N, e.g. DEMO-1`
    )
  }
  return join(repoRoot, LOCAL_ISSUES_DIR, `${id}.md`)
}

/**
 * The identifier as the issue's file spells it, so that `eng-1` finds ENG-1.md whatever the
 * file system's case rules; the typed one when no file, or more than one, matches.
 */
export function localIssueId(repoRoot: string, typed: string): string {
  // The form is checked before any name is compared.
  localIssuePath(repoRoot, typed)
  let names: string[]
  try {
    names = readdirSync(join(repoRoot, LOCAL_ISSUES_DIR))
  } catch {
    return typed
  }
  const file = `${typed}.md`
  if (names.includes(file)) return typed
  const same = names.filter((n) => n.toLowerCase() === file.toLowerCase())
  return same.length === 1 ? same[0]!.slice(0, -'.md'.length) : typed
}

// An issue file holds a description and comments: a few KiB, seldom more than some hundred.
export const LOCAL_ISSUE_MAX_BYTES = 4 * 1024 * 1024

export function readLocalIssue(repoRoot: string, id: string): LocalIssue {
  const path = localIssuePath(repoRoot, id)
  const display = `${LOCAL_ISSUES_DIR}/${id}.md`
  let text: string
  try {
    text = readCappedText(path, LOCAL_ISSUE_MAX_BYTES, display)
  } catch (e) {
    if (!(e instanceof FileRefused) || e.reason !== 'missing') throw e
    throw new UserError(
      `no local issue ${id}; create ${display} with title and state in its front matter`
    )
  }
  return parseLocalIssue(text, id, display)
}

export function parseLocalIssue(raw: string, id: string, file: string): LocalIssue {
  const text = raw.replace(/\r\n?/g, '\n')
  const { meta, body } = readIssueFrontMatter(text, file)
  const { description, comments } = splitComments(body)
  return {
    id,
    identifier: id,
    title: meta.title ?? '',
    description,
    state: meta.state ?? null,
    labels: meta.labels,
    url: file,
    isPullRequest: false,
    createdAt: meta.created,
    updatedAt: meta.updated,
    comments
  }
}

/** Moves the issue file's state, keeping every other byte of it as it was. */
export function setLocalIssueState(repoRoot: string, id: string, state: string): void {
  const path = localIssuePath(repoRoot, id)
  const text = readFileSync(path, 'utf8').replace(/\r\n?/g, '\n')
  const lines = text.split('\n')
  const end = frontMatterEnd(lines)
  if (end < 0 || end === lines.length)
    throw new UserError(`${id}: the issue file has no front matter to hold its state`)
  const now = new Date().toISOString()
  const quoted = JSON.stringify(state)
  let sawState = false
  let sawUpdated = false
  for (let i = 1; i < end; i++) {
    if (/^state\s*:/.test(lines[i] ?? '')) {
      lines[i] = `state: ${quoted}`
      sawState = true
    } else if (/^updated\s*:/.test(lines[i] ?? '')) {
      lines[i] = `updated: ${now}`
      sawUpdated = true
    }
  }
  const added = [
    ...(sawState ? [] : [`state: ${quoted}`]),
    ...(sawUpdated ? [] : [`updated: ${now}`])
  ]
  lines.splice(end, 0, ...added)
  writeWhole(path, lines.join('\n'))
}

/**
 * Appends an entry to the issue's `## Comments` section in itervox's form, `### <RFC3339> —
 * <author>`, adding the section when the file has none. Body lines that start with `#` are
 * escaped, so a comment (often an agent's words) cannot forge another entry or section.
 */
export function appendLocalComment(
  repoRoot: string,
  id: string,
  comment: { author: string; body: string; at?: Date }
): void {
  const path = localIssuePath(repoRoot, id)
  let text = readFileSync(path, 'utf8').replace(/\r\n?/g, '\n').replace(/\n*$/, '\n')
  if (!COMMENTS_HEADING.test(text)) text += '\n## Comments\n'
  const at = (comment.at ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z')
  const author = comment.author.replace(/\s+/g, ' ').trim() || 'unknown'
  const body = comment.body
    .replace(/\r\n?/g, '\n')
    .trim()
    .split('\n')
    .map((line) => (line.startsWith('#') ? `\\${line}` : line))
    .join('\n')
  writeWhole(path, `${text}\n### ${at} — ${author}\n\n${body}\n`)
}

/** Writes a new issue file; an existing one is never replaced. */
export function createLocalIssue(
  repoRoot: string,
  id: string,
  issue: { title: string; state: string; description: string; at?: Date }
): string {
  const path = localIssuePath(repoRoot, id)
  if (existsSync(path)) throw new UserError(`${LOCAL_ISSUES_DIR}/${id}.md already exists`)
  const at = (issue.at ?? new Date()).toISOString()
  const meta = [
    `title: ${JSON.stringify(issue.title)}`,
    `state: ${JSON.stringify(issue.state)}`,
    `created: ${at}`,
    `updated: ${at}`
  ]
  mkdirSync(dirname(path), { recursive: true })
  writeWhole(path, `---\n${meta.join('\n')}\n---\n\n${issue.description.trim()}\n`)
  return path
}

const COMMENTS_HEADING = /^## Comments[ \t]*$/m
const COMMENT_ENTRY = /^### (\S+) — (.+)$/
const KEY_LINE = /^<!-- itervox:[A-Za-z0-9:._-]+ -->\n/

function splitComments(body: string): { description: string; comments: LocalComment[] } {
  const m = COMMENTS_HEADING.exec(body)
  if (!m) return { description: body, comments: [] }
  const description = body.slice(0, m.index).trim()
  const comments: LocalComment[] = []
  let current: LocalComment | null = null
  const bodyLines: string[] = []
  const flush = (): void => {
    // The runner's idempotency key (see local-port.ts) is bookkeeping, not the comment.
    const body = bodyLines.join('\n').trim().replace(KEY_LINE, '')
    if (current) comments.push({ ...current, body })
    bodyLines.length = 0
  }
  for (const line of body.slice(m.index + m[0].length).split('\n')) {
    const entry = COMMENT_ENTRY.exec(line)
    if (entry) {
      flush()
      current = { createdAt: entry[1]!, author: entry[2]!.trim(), body: '' }
    } else if (current) {
      bodyLines.push(line)
    }
  }
  flush()
  return { description, comments }
}
