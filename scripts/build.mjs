// Bundles each entry point with ncc into dist/ (or the folder given as the first argument).
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { rmSync, readFileSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ncc from '@vercel/ncc'
import { asciiOnly } from './ascii-bundle.mjs'
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
// The bundles take undici from dist/undici/index.cjs, tsc's output of
// src/tracker/undici-on-demand.cts (why is told there), instead of carrying it.
const UNDICI = { undici: '../undici/index.cjs' }
const UNDICI_SHIM = 'tracker/undici-on-demand.cjs'
// `dir` in dist/, its entry, the bundle's file name there, and what it imports from outside.
const bundles = [
  // The two steps' entries are small and load the steps' shared bundle only when they need it.
  { dir: 'main', entry: join(js, 'action/main.js'), file: 'index.js', externals: UNDICI },
  { dir: 'post', entry: join(js, 'action/post.js'), file: 'index.js', externals: UNDICI },
  { dir: 'steps', entry: join(js, 'action/steps.js'), file: 'index.js', externals: UNDICI },
  { dir: 'cli', entry: join(js, 'cli/index.js'), file: 'index.js', externals: UNDICI },
  // The real undici, which dist/undici/index.cjs loads when a proxy is used.
  { dir: 'undici', entry: 'node_modules/undici/index.js', file: 'undici.cjs', externals: {} }
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
 * Writes tsc's output of one module to dist/ as it is, with no bundler around it, if it loads
 * nothing but the `allowed` requires (as written, quotes included); else prints `complaint`.
 */
function copyEmitted(from, to, complaint, allowed = []) {
  const text = readFileSync(join(js, from), 'utf8')
  const loads = [...text.matchAll(/\brequire\(([^)]*)\)|^\s*import\b|\bimport\(/gm)]
  if (loads.some(([, what]) => !allowed.includes(what))) {
    console.error(complaint)
    return false
  }
  mkdirSync(dirname(join(out, to)), { recursive: true })
  writeFileSync(join(out, to), text)
  return true
}

/**
 * The Linear webhook relay is deployed as one file to platforms that run web-standard
 * JavaScript, not Node: its one dependency-free module is that file.
 */
const relay = () =>
  copyEmitted(
    'relay/linear-webhook.js',
    'relay/index.js',
    'src/relay/linear-webhook.ts must import nothing: it is deployed as one file'
  )

/**
 * dist/undici/index.cjs, which the bundles load for `undici`, beside the real undici that
 * bundleAll wrote there: the one thing it may require.
 */
const undiciShim = () =>
  copyEmitted(
    UNDICI_SHIM,
    'undici/index.cjs',
    'src/tracker/undici-on-demand.cts may require ./undici.cjs only',
    ["'./undici.cjs'"]
  )

/**
 * ncc bundles each entry, one after another in this one process: webpack, warmed by the first
 * bundle, makes the next ones for a fraction of what a fresh ncc process spends on each (the
 * whole build took 39 CPU-s with four processes side by side, 32 this way, in about the same
 * time). The files are those `ncc build` writes: index.js and the assets (licenses.txt,
 * package.json); it would also link the symlinks a package ships, so any such is refused.
 * No ncc cache: it is kept per checkout path, so a fresh clone never reads it back, and a warm
 * one did not build faster.
 */
async function bundleAll() {
  for (const { dir, entry, file, externals } of bundles) {
    try {
      const { code, assets, symlinks } = await ncc(resolve(entry), {
        cache: false,
        externals,
        license: 'licenses.txt',
        quiet: true
      })
      if (Object.keys(symlinks ?? {}).length)
        throw new Error('it has symlinks, which dist/ has not')
      const missing = missingModules(code)
      if (missing.length) throw new Error(`it imports what is not there: ${missing.join(', ')}`)
      const folder = join(out, dir)
      mkdirSync(folder, { recursive: true })
      writeFileSync(join(folder, file), asciiOnly(code, join(dir, file)))
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
    built = (await bundleAll()) && undiciShim() && relay()
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
