// Bundles each entry point with ncc into dist/ (or the folder given as the first argument).
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { rmSync, readFileSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ncc from '@vercel/ncc'
import { missingModules } from './missing-modules.mjs'

const [target, flag] = process.argv.slice(2)
const out = resolve(target ?? 'dist')
// `npm test` type-checks beside the dist check, so that build need not check again.
const check = flag !== '--no-check'
process.chdir(fileURLToPath(new URL('..', import.meta.url)))
// tsc type-checks src/ once and emits it here; ncc then bundles plain JavaScript rather than
// type-checking the whole program again for each entry. ncc numbers modules by their path
// relative to the checkout, so this folder has a fixed name (a fresh temp dir would give other
// bytes each time): one build at a time per checkout.
const js = '.build'
// Each bundle's folder in dist/ and its entry: the action's (both of its steps) and the CLI's.
const bundles = [
  { dir: '.', entry: join(js, 'action/main.js') },
  { dir: 'cli', entry: join(js, 'cli/index.js') }
]

/** Runs a node script (tsc), passing on what it prints. Resolves to whether it succeeded. */
async function node(...args) {
  const options = { maxBuffer: 64 * 1024 * 1024 }
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, args, options)
    process.stderr.write(stdout + stderr)
    return true
  } catch (err) {
    process.stderr.write((err.stdout ?? '') + (err.stderr ?? '') || `${err.message}\n`)
    return false
  }
}

/**
 * The Linear webhook relay is deployed as one file to platforms that run web-standard
 * JavaScript, not Node: tsc's output of its one module, written as it is if it imports nothing.
 */
function relay() {
  const text = readFileSync(join(js, 'relay/linear-webhook.js'), 'utf8')
  if (/\brequire\(|^\s*import\b|\bimport\(/m.test(text)) {
    console.error('src/relay/linear-webhook.ts must import nothing: it is deployed as one file')
    return false
  }
  mkdirSync(join(out, 'relay'), { recursive: true })
  writeFileSync(join(out, 'relay', 'index.js'), text)
  return true
}

/**
 * ncc bundles each entry, one after another in this one process: webpack, warmed by the first
 * bundle, makes the next for a fraction of what a fresh ncc process spends. The files are those `ncc build` writes: index.js and the assets (licenses.txt,
 * package.json); it would also link the symlinks a package ships, so any such is refused.
 * No ncc cache: it is kept per checkout path, so a fresh clone never reads it back, and a warm
 * one did not build faster.
 */
async function bundleAll() {
  for (const { dir, entry } of bundles) {
    try {
      const { code, assets, symlinks } = await ncc(resolve(entry), {
        cache: false,
        license: 'licenses.txt',
        quiet: true
      })
      if (Object.keys(symlinks ?? {}).length)
        throw new Error('it has symlinks, which dist/ has not')
      const missing = missingModules(code)
      if (missing.length) throw new Error(`it imports what is not there: ${missing.join(', ')}`)
      const folder = join(out, dir)
      mkdirSync(folder, { recursive: true })
      writeFileSync(join(folder, 'index.js'), code)
      for (const [path, asset] of Object.entries(assets)) {
        mkdirSync(dirname(join(folder, path)), { recursive: true })
        writeFileSync(join(folder, path), asset.source, { mode: asset.permissions })
      }
    } catch (err) {
      console.error(`ncc could not bundle ${entry}: ${err.message ?? err}`)
      return false
    }
  }
  return true
}

rmSync(out, { recursive: true, force: true })
rmSync(js, { recursive: true, force: true })
let built = false
try {
  const tsc = ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--noEmit', 'false']
  // Without the check, nothing needs the imported packages' types: each file is emitted on its
  // own (isolatedModules), so tsc need not read their declarations (a fifth of its CPU).
  if (!check) tsc.push('--noCheck', '--noResolve')
  if (await node(...tsc, '--outDir', js)) {
    built = (await bundleAll()) && relay()
  }
} finally {
  rmSync(js, { recursive: true, force: true })
}
if (!built) {
  console.error(`build failed: ${out} is incomplete`)
  process.exit(1)
}
const cli = join(out, 'cli', 'index.js')
const text = readFileSync(cli, 'utf8')
if (!text.startsWith('#!')) writeFileSync(cli, '#!/usr/bin/env node\n' + text)
chmodSync(cli, 0o755)
