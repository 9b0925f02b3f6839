// The package as npm would publish it: `npm pack` once, then the tarball run through `npm exec`
// in an empty folder with a cache of its own and --offline. The bundle in dist/ holds every
// runtime package, so the tarball must install nothing else: any download would fail here.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFile, execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT, type Run } from './helpers.js'

const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }

interface Packed {
  filename: string
  files: { path: string }[]
}

let dir: string
let tarball: string
let packed: Packed

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'handoff-pack-'))
  const out = execFileSync(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', dir],
    { cwd: ROOT, encoding: 'utf8', env: npmEnv() }
  )
  packed = (JSON.parse(out) as Packed[])[0]!
  tarball = join(dir, packed.filename)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** npm with a HOME and cache of its own, offline, and none of jest's switches. */
function npmEnv(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    npm_config_cache: join(dir, 'npm-cache'),
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false'
  }
}

/**
 * `npm exec --package=<tarball> -c SCRIPT` in `cwd`: SCRIPT's shell finds the package's
 * `itervox-handoff` on its PATH. One npm run (about 1.3 CPU-s) serves all the script's commands.
 */
function npmExec(cwd: string, script: string): Promise<Run> {
  const argv = ['exec', '--yes', `--package=${tarball}`, '-c', script]
  return new Promise((done) => {
    execFile('npm', argv, { cwd, env: npmEnv() }, (err, stdout, stderr) => {
      const code = err ? (err as { code?: unknown }).code : 0
      done({ code: typeof code === 'number' ? code : 1, stdout, stderr })
    })
  })
}

describe('the published package', () => {
  it('holds the bundles, the action and the documents, and no dependency', () => {
    const paths = packed.files.map((f) => f.path)
    expect(paths).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'CHANGELOG.md',
        'action.yml',
        'dist/index.js',
        'dist/cli/index.js',
        'dist/relay/index.js'
      ])
    )
    const outside = paths.filter(
      (p) =>
        !p.startsWith('dist/') &&
        !['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'action.yml'].includes(p)
    )
    expect(outside).toEqual([])
    const manifest = JSON.parse(
      execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })
    ) as Record<string, unknown>
    expect(manifest).toMatchObject({
      name: '@itervox/handoff',
      bin: { 'itervox-handoff': 'dist/cli/index.js' },
      publishConfig: { access: 'public' }
    })
    expect(manifest).not.toHaveProperty('private')
    expect(manifest).not.toHaveProperty('dependencies')
    // The install from a tarball, as the README and the CLI's page show it, names this file.
    for (const page of ['README.md', 'docs/cli.md']) {
      const named = readFileSync(join(ROOT, page), 'utf8').match(/[\w.-]+\.tgz/g)
      expect(new Set(named)).toEqual(new Set([packed.filename]))
    }
  })

  it('runs from the tarball in an empty folder, offline: --version, then the demo', async () => {
    const empty = join(dir, 'empty')
    mkdirSync(empty)
    // The demo runs only once --version has succeeded.
    const r = await npmExec(
      empty,
      `itervox-handoff --version && itervox-handoff demo --dir '${join(dir, 'demo')}'`
    )
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const [version, ...demo] = r.stdout.split('\n')
    expect(version).toBe(`itervox-handoff ${PKG.version}`)
    expect(demo.join('\n')).toContain('DEMO-1 is in "Done"')
    // npm installed it outside the folder; nothing was written here.
    expect(execFileSync('ls', ['-A', empty], { encoding: 'utf8' })).toBe('')
  }, 120_000)
})
