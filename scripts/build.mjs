// Bundles each entry point with ncc into dist/ (or the folder given as the first argument).
import { execFileSync } from 'node:child_process'
import { rmSync, readFileSync, writeFileSync, chmodSync } from 'node:fs'
import { join, resolve } from 'node:path'

const out = resolve(process.argv[2] ?? 'dist')
const entries = { main: 'src/action/main.ts', post: 'src/action/post.ts', cli: 'src/cli/index.ts' }

rmSync(out, { recursive: true, force: true })
for (const [name, entry] of Object.entries(entries)) {
  execFileSync(
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
    { stdio: 'inherit' }
  )
}
const cli = join(out, 'cli', 'index.js')
const text = readFileSync(cli, 'utf8')
if (!text.startsWith('#!')) writeFileSync(cli, '#!/usr/bin/env node\n' + text)
chmodSync(cli, 0o755)
