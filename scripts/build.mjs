// Bundles each entry point with ncc into dist/ (or the folder given as the first argument).
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { rmSync, readFileSync, writeFileSync, chmodSync } from 'node:fs'
import { join, resolve } from 'node:path'

const out = resolve(process.argv[2] ?? 'dist')
const entries = { main: 'src/action/main.ts', post: 'src/action/post.ts', cli: 'src/cli/index.ts' }

rmSync(out, { recursive: true, force: true })
// The bundles are independent; building them side by side uses both cores.
const run = promisify(execFile)
const builds = Object.entries(entries).map(([name, entry]) =>
  run(
    process.execPath,
    [
      'node_modules/@vercel/ncc/dist/ncc/cli.js',
      'build',
      entry,
      '-o',
      join(out, name),
      '--license',
      'licenses.txt',
      // Smaller bundles start faster: every stage is a fresh `node` process.
      '--minify',
      '-q'
    ],
    { maxBuffer: 64 * 1024 * 1024 }
  ).then(({ stderr }) => process.stderr.write(stderr))
)
await Promise.all(builds)
const cli = join(out, 'cli', 'index.js')
const text = readFileSync(cli, 'utf8')
if (!text.startsWith('#!')) writeFileSync(cli, '#!/usr/bin/env node\n' + text)
chmodSync(cli, 0o755)
