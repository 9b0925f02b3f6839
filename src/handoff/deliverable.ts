// Checks the deliverable an agent left in the worktree before anything reads or commits it.
import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { frontMatterEnd } from '../config/front-matter.js'
import { decodeUtf8 } from './utf8.js'
import { inspectPath } from './worktree-path.js'

export interface DeliverableOptions {
  maxBytes: number
  /** Section titles that must each be a Markdown heading (any level, case-insensitive). */
  requiredSections?: string[]
}

export type DeliverableCheck = { ok: true; text: string } | { ok: false; problem: string }

/**
 * The deliverable's text if it is usable: a regular file with no symlink anywhere on its path,
 * one hard link, at most `maxBytes`, valid UTF-8 (a BOM is dropped), not blank, with every
 * required section. A YAML front matter block at the top is allowed and not counted as
 * content. Otherwise one line saying what is wrong.
 */
export async function checkDeliverable(
  repoRoot: string,
  handoffPath: string,
  opts: DeliverableOptions
): Promise<DeliverableCheck> {
  const fail = (problem: string): DeliverableCheck => ({ ok: false, problem })
  const state = await inspectPath(repoRoot, handoffPath)
  if (state.kind === 'missing') return fail(`no deliverable was written at ${handoffPath}`)
  if (state.kind === 'bad-parent') {
    return fail(`${state.parent} is ${state.what}, so ${handoffPath} was not read through it`)
  }
  if (state.kind === 'not-file') return fail(`${handoffPath} is ${state.what}, not a regular file`)
  const shape = shapeProblem(state.stat, opts.maxBytes)
  if (shape) return fail(`${handoffPath} ${shape}`)

  const bytes = await readNoFollow(join(repoRoot, handoffPath), state.stat, opts.maxBytes)
  if (typeof bytes === 'string') return fail(`${handoffPath} ${bytes}`)
  const decoded = decodeUtf8(bytes)
  if (!decoded.ok) return fail(`${handoffPath} ${decoded.problem}`)
  const text = decoded.text
  if (text.includes('\0')) return fail(`${handoffPath} contains NUL bytes; a deliverable is text`)
  const body = withoutFrontMatter(text)
  if (body.trim() === '') {
    return fail(
      body === text ? `${handoffPath} is empty` : `${handoffPath} has front matter but no content`
    )
  }
  const missing = missingSections(body, opts.requiredSections ?? [])
  if (missing.length > 0) {
    const list = missing.map((s) => JSON.stringify(s)).join(', ')
    return fail(
      `${handoffPath} is missing the required section${missing.length === 1 ? '' : 's'} ${list} (a Markdown heading of any level)`
    )
  }
  return { ok: true, text }
}

function shapeProblem(st: { nlink: number; size: number }, maxBytes: number): string | null {
  if (st.nlink !== 1) return `has ${st.nlink} hard links; a deliverable must be a file of its own`
  if (st.size > maxBytes) return `is ${st.size} bytes, over the ${maxBytes}-byte cap`
  return null
}

// Opens without following a final symlink and re-checks the opened file, so a swap between
// the lstat and the open is caught.
async function readNoFollow(
  path: string,
  seen: { dev: number; ino: number },
  maxBytes: number
): Promise<Buffer | string> {
  let fh
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (e) {
    return `could not be opened (${(e as NodeJS.ErrnoException).code ?? 'error'})`
  }
  try {
    const st = await fh.stat()
    if (!st.isFile() || st.dev !== seen.dev || st.ino !== seen.ino) {
      return 'changed while it was being checked'
    }
    const problem = shapeProblem(st, maxBytes)
    if (problem) return problem
    const buf = Buffer.alloc(st.size + 1)
    let got = 0
    for (;;) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, got)
      if (bytesRead === 0) break
      got += bytesRead
      if (got === buf.length) return `grew past ${st.size} bytes while it was being read`
    }
    return buf.subarray(0, got)
  } finally {
    await fh.close()
  }
}

/** The text after a closed front matter block at the top; the text itself when there is none. */
export function withoutFrontMatter(text: string): string {
  const lines = text.split(/\r?\n/)
  const end = frontMatterEnd(lines)
  return end < 0 || end === lines.length ? text : lines.slice(end + 1).join('\n')
}

/** Titles of the Markdown headings (ATX and setext), outside fenced code blocks. */
export function headingTitles(markdown: string): string[] {
  const titles: string[] = []
  let fence: { ch: string; len: number } | null = null
  let previous: string | null = null
  for (const line of markdown.split(/\r?\n/)) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence) {
      if (f && f[0] === fence.ch && f.length >= fence.len && /^ {0,3}[`~]+[ \t]*$/.test(line)) {
        fence = null
      }
      previous = null
      continue
    }
    if (f) {
      fence = { ch: f.charAt(0), len: f.length }
      previous = null
      continue
    }
    const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?[ \t]*$/.exec(line)
    if (atx) {
      titles.push((atx[1] ?? '').replace(/(?:^|[ \t]+)#+$/, ''))
      previous = null
      continue
    }
    if (previous !== null && /^ {0,3}(?:=+|-+)[ \t]*$/.test(line)) {
      titles.push(previous)
      previous = null
      continue
    }
    previous = line.trim() === '' || /^ {4}/.test(line) ? null : line
  }
  return titles
}

const normalTitle = (s: string): string =>
  s.replace(/^#+/, '').trim().replace(/\s+/g, ' ').toLowerCase()

function missingSections(body: string, required: string[]): string[] {
  const have = new Set(headingTitles(body).map(normalTitle))
  return required.filter((r) => !have.has(normalTitle(r)))
}
