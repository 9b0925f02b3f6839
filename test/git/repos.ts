// Real repositories for the git adapter's tests: a bare origin with a default branch, checkouts
// made the way actions/checkout makes them, and a second clone that pushes behind our back.
import { execFileSync } from 'node:child_process'
import { afterAll } from '@jest/globals'
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const made: string[] = []

/** A fresh directory, removed by `cleanup()`. */
export function tmp(prefix = 'git-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix))
  made.push(dir)
  return dir
}

export function cleanup(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
}

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) e[k] = v
  return {
    ...e,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'A Human',
    GIT_AUTHOR_EMAIL: 'human@example.com',
    GIT_COMMITTER_NAME: 'A Human',
    GIT_COMMITTER_EMAIL: 'human@example.com',
    LC_ALL: 'C'
  }
}

/**
 * Plain git for setting up and inspecting; hooks are off here too, so a hook a test plants
 * can only have run from the code under test.
 */
export function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], {
    cwd,
    env: env(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe']
  }).trimEnd()
}

export function write(repo: string, rel: string, content: string | Buffer, mode?: number): void {
  const full = path.join(repo, rel)
  mkdirSync(path.dirname(full), { recursive: true })
  writeFileSync(full, content)
  if (mode !== undefined) chmodSync(full, mode)
}

export const EARLIER_HANDOFF = '.itervox/handoff/2026-01-01T00-00-00.000Z_planner.md'

export const SEED = {
  'README.md': '# demo\n',
  'WORKFLOW.md': '---\ntracker:\n  kind: github\n---\nDo the work.\n',
  '.github/workflows/ci.yml': 'on: push\n',
  '.itervox/agents/researcher.md': 'You research.\n',
  [EARLIER_HANDOFF]: '# Plan\n\nStep one.\n',
  'docs/notes.md': 'notes\n',
  'package.json': '{"name":"demo"}\n',
  '.gitignore': '*.log\n'
} satisfies Record<string, string>

export interface Origin {
  /** The bare repository's path. */
  dir: string
  /** Its file:// URL (shallow fetches need a URL, not a path). */
  url: string
  /** The default branch's head. */
  main: string
}

// Origins, and their shallow checkouts, as first made in this test file: later ones are copies,
// a copy being a fraction of the git processes that making one takes. They outlive cleanup(),
// which some files call after each test, and go when the file is done.
const templates: string[] = []
const origins = new Map<string, Origin>()
const checkouts = new Map<string, { dir: string; url: string }>()
/** Each copied origin's template. */
const copiedFrom = new Map<string, Origin>()
afterAll(() => {
  for (const dir of templates.splice(0)) rmSync(dir, { recursive: true, force: true })
  origins.clear()
  checkouts.clear()
  copiedFrom.clear()
})

/** A bare origin whose `main` holds SEED in two commits. */
export function makeOrigin(files: Record<string, string> = SEED): Origin {
  const key = JSON.stringify(files)
  let template = origins.get(key)
  if (!template) {
    const root = mkdtempSync(path.join(os.tmpdir(), 'origin-template-'))
    templates.push(root)
    template = buildOrigin(path.join(root, 'origin.git'), files)
    origins.set(key, template)
  }
  const dir = path.join(tmp('origin-'), 'origin.git')
  cpSync(template.dir, dir, { recursive: true })
  const origin = { dir, url: pathToFileURL(dir).href, main: template.main }
  copiedFrom.set(dir, template)
  return origin
}

function buildOrigin(dir: string, files: Record<string, string>): Origin {
  execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', dir], { env: env() })
  const seed = tmp('seed-')
  sh(seed, 'init', '--quiet', '--initial-branch=main')
  write(seed, 'first.txt', 'first\n')
  sh(seed, 'add', '-A')
  sh(seed, 'commit', '--quiet', '-m', 'first')
  for (const [rel, content] of Object.entries(files)) write(seed, rel, content)
  sh(seed, 'add', '-A')
  sh(seed, 'commit', '--quiet', '-m', 'seed')
  sh(seed, 'push', '--quiet', dir, 'main:refs/heads/main')
  return { dir, url: pathToFileURL(dir).href, main: sh(seed, 'rev-parse', 'HEAD') }
}

/** What actions/checkout leaves with `fetch-depth: 1`: a shallow, detached HEAD at main. */
export function shallowCheckout(origin: Origin): string {
  const dir = tmp('work-')
  const template = copiedFrom.get(origin.dir)
  // A copy of the template's checkout, while main is still where the template has it.
  if (template && readRef(origin.dir, 'refs/heads/main') === template.main) {
    let made = checkouts.get(template.dir)
    if (!made) {
      const root = mkdtempSync(path.join(os.tmpdir(), 'work-template-'))
      templates.push(root)
      checkOut(root, template.url)
      made = { dir: root, url: template.url }
      checkouts.set(template.dir, made)
    }
    cpSync(made.dir, dir, { recursive: true })
    sh(dir, 'remote', 'set-url', 'origin', origin.url)
    const fetchHead = path.join(dir, '.git', 'FETCH_HEAD')
    writeFileSync(fetchHead, readFileSync(fetchHead, 'utf8').replaceAll(made.url, origin.url))
    return dir
  }
  checkOut(dir, origin.url)
  return dir
}

function checkOut(dir: string, url: string): void {
  sh(dir, 'init', '--quiet')
  sh(dir, 'remote', 'add', 'origin', url)
  sh(dir, 'fetch', '--quiet', '--depth=1', 'origin', '+refs/heads/main:refs/remotes/origin/main')
  sh(dir, 'checkout', '--quiet', '--detach', 'refs/remotes/origin/main')
}

/** A bare repository's loose ref (a new origin's refs are loose), without a git process. */
function readRef(gitDir: string, ref: string): string | undefined {
  try {
    return readFileSync(path.join(gitDir, ref), 'utf8').trim()
  } catch {
    return undefined
  }
}

/** Someone else (a human, another stage) commits files to `branch` and pushes them. */
export function pushFromElsewhere(
  origin: Origin,
  branch: string,
  files: Record<string, string>,
  message = 'meanwhile'
): string {
  const dir = tmp('other-')
  sh(dir, 'clone', '--quiet', '--branch', branch, origin.url, '.')
  for (const [rel, content] of Object.entries(files)) write(dir, rel, content)
  sh(dir, 'add', '-A')
  sh(dir, 'commit', '--quiet', '-m', message)
  sh(dir, 'push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`)
  return sh(dir, 'rev-parse', 'HEAD')
}

/** The files a commit changed relative to its parent, as `status\tpath` lines. */
export function changesOf(repo: string, sha: string): string[] {
  const out = sh(repo, 'diff-tree', '--no-commit-id', '-r', '--name-status', `${sha}^`, sha)
  return out ? out.split('\n') : []
}

/** A hook (or any script) that leaves `marker` behind if it ever runs. */
export function markerScript(marker: string): string {
  return `#!/bin/sh\necho ran >> '${marker}'\n`
}
