// Bare repositories of many files for the scale bench, made by one `git fast-import` from a
// generated stream (seconds where `git add` of the same files would take minutes), each made
// once per run and kept in the bench's temporary folder.
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { git } from '../harness/action-run.js'

/** Files per folder, and folders per top-level folder: an ordinary source tree's shape. */
const PER_FOLDER = 25
const PER_TOP = 40

// Code-like text, cut into files at varying offsets: files of one repository differ, and pack
// as text does (git deltas and deflates them) rather than as random bytes.
const TEXT = Buffer.from(
  Array.from(
    { length: 20_000 },
    (_, i) =>
      `export function step${i}(input: number): number {\n  return input * ${(i * 7919) % 1000} + ${i % 97}\n}\n`
  ).join('')
)

/** A size from 1 to 10 KiB, most files small (mean about 3.3 KiB). */
function sizeOf(i: number): number {
  const r = ((i * 2654435761) % 4294967296) / 4294967296
  return 1024 + Math.floor(r ** 3 * 9 * 1024)
}

/** `files` (small text, e.g. WORKFLOW.md) and `n` generated files, in one commit on `main`. */
export async function bigOrigin(files: Record<string, string>, n: number): Promise<string> {
  const origin = join(mkdtempSync(join(tmpdir(), `big-origin-${n}-`)), 'origin.git')
  git(tmpdir(), 'init', '--quiet', '--bare', '--initial-branch=main', origin)
  const child = spawn('git', ['fast-import', '--quiet'], {
    cwd: origin,
    stdio: ['pipe', 'ignore', 'inherit']
  })
  const ended = new Promise<number | null>((res) => child.on('close', res))
  const write = (chunk: string | Buffer) =>
    child.stdin.write(chunk)
      ? Promise.resolve()
      : new Promise((res) => child.stdin.once('drain', res))
  const message = `seed: ${n} files\n`
  await write(
    `commit refs/heads/main\ncommitter Ada <ada@example.com> 1700000000 +0000\ndata ${Buffer.byteLength(message)}\n${message}`
  )
  for (const [path, text] of Object.entries(files)) {
    await write(`M 100644 inline ${path}\ndata ${Buffer.byteLength(text)}\n${text}\n`)
  }
  for (let i = 0; i < n; i++) {
    const folder = Math.floor(i / PER_FOLDER)
    const path = `src/m${Math.floor(folder / PER_TOP)}/p${folder}/f${i}.ts`
    const size = sizeOf(i)
    const at = (i * 104729) % (TEXT.length - size)
    const head = `// ${path}\n`
    const body = TEXT.subarray(at, at + size - head.length)
    await write(`M 100644 inline ${path}\ndata ${head.length + body.length}\n${head}`)
    await write(body)
    await write('\n')
  }
  child.stdin.end()
  const code = await ended
  if (code !== 0) throw new Error(`git fast-import ended with ${code}`)
  return origin
}
