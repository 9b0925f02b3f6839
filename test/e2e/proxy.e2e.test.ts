// A runner behind a proxy, through the bundles as the runner runs them: the stage's API
// requests go through the runner's proxy, and undici, which only that needs, is loaded then only.
import { afterAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { checkoutShallow, ROOT, runAction } from '../harness/action-run.js'
import { startConnectProxy, type ConnectProxy } from '../harness/connect-proxy.js'
import { startPipeline, type Pipeline } from './pipeline-fixture.js'

// Resolves nowhere: a request that does not go through the proxy fails.
const API_HOST = 'api.github.invalid'

let p: Pipeline | undefined
let proxy: ConnectProxy | undefined
afterAll(async () => {
  await p?.gh.stop()
  await proxy?.stop()
})

/**
 * The files of dist/undici loaded by a node running `args`, with a preload that writes them
 * out when it exits.
 */
function undiciLoaded(...args: string[]): string[] {
  const out = join(mkdtempSync(join(tmpdir(), 'handoff-loaded-')), 'loaded.json')
  const preload = `import { createRequire } from 'node:module'
import { writeFileSync } from 'node:fs'
process.on('exit', () => {
  const loaded = Object.keys(createRequire('/').cache)
  const ours = loaded.filter((f) => f.includes('/dist/undici/')).map((f) => f.split('/').pop())
  writeFileSync(${JSON.stringify(out)}, JSON.stringify(ours))
})`
  execFileSync(process.execPath, [
    '--import',
    `data:text/javascript,${encodeURIComponent(preload)}`,
    ...args
  ])
  const loaded = JSON.parse(readFileSync(out, 'utf8')) as string[]
  rmSync(dirname(out), { recursive: true })
  return loaded
}

/**
 * Each name `code` (a bundle) takes from undici: those webpack lists for the ESM importers,
 * and those read off a variable bound to the module that requires it.
 */
function undiciNames(code: string): string[] {
  const names = new Set<string>()
  const esm = /\["(\w+)"\]: \(\) => \(__WEBPACK_EXTERNAL_MODULE__undici_index_cjs_\w+\.\1\)/g
  for (const [, name] of code.matchAll(esm)) names.add(name!)
  const required =
    /\/\*\*\*\/ (\d+):\n\/\*\*\*\/ \(\(module\) => \{\n\nmodule\.exports = __WEBPACK_EXTERNAL_createRequire\(import\.meta\.url\)\("\.\.\/undici\/index\.cjs"\)/g
  for (const [, id] of code.matchAll(required)) {
    for (const [, v] of code.matchAll(
      new RegExp(`(?:const|var|let) (\\w+) = __nccwpck_require__\\(${id}\\)`, 'g')
    )) {
      for (const [, name] of code.matchAll(new RegExp(`\\b${v}\\.(\\w+)`, 'g'))) names.add(name!)
    }
  }
  return [...names].sort()
}

describe('undici, which only a proxy needs', () => {
  const bundle = (name: string) => readFileSync(join(ROOT, 'dist', name, 'index.js'), 'utf8')

  it('is not in the steps or CLI bundle, and loading either reads only its stand-in', () => {
    for (const name of ['steps', 'cli']) {
      // undici's HTTP parser, in WebAssembly, is one of the files it carries.
      expect(bundle(name)).not.toContain('llhttp')
    }
    const steps = join(ROOT, 'dist', 'steps', 'index.js')
    expect(
      undiciLoaded('--input-type=module', '-e', `await import(${JSON.stringify(steps)})`)
    ).toEqual(['index.cjs'])
    expect(undiciLoaded(join(ROOT, 'dist', 'cli', 'index.js'), '--version')).toEqual(['index.cjs'])
  })

  it('has a stand-in for every name the bundles take from it', () => {
    const standIn = Object.keys(
      createRequire(import.meta.url)(join(ROOT, 'dist', 'undici', 'index.cjs')) as object
    )
    for (const name of ['steps', 'cli']) {
      const names = undiciNames(bundle(name))
      // Today's two, so that a bundle whose shape these patterns no longer match fails here.
      expect(names).toEqual(expect.arrayContaining(['ProxyAgent', 'fetch']))
      expect(names.filter((n) => !standIn.includes(n))).toEqual([])
    }
  })

  it('is loaded by the stand-in on first use', () => {
    const standIn = join(ROOT, 'dist', 'undici', 'index.cjs')
    const made = `const { ProxyAgent } = await import(${JSON.stringify(standIn)}); new ProxyAgent('http://127.0.0.1:9').close()`
    expect(undiciLoaded('--input-type=module', '-e', made)).toEqual(['index.cjs', 'undici.cjs'])
  })
})

describe('a stage behind the runner proxy', () => {
  it('sends every API request through the proxy, from the bundle', async () => {
    p = await startPipeline({ command: 'generic-agent' })
    checkoutShallow(p.sb)
    proxy = await startConnectProxy(p.gh.url)
    const port = new URL(p.gh.url).port
    const run = await runAction('main', p.sb, p.gh, {
      event: 'issues.labeled',
      eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada', title: 'x' },
      // A runner behind a proxy sets both; the fake API is plain HTTP, so HTTP_PROXY applies.
      env: {
        HTTP_PROXY: proxy.url,
        HTTPS_PROXY: proxy.url,
        GITHUB_API_URL: `http://${API_HOST}:${port}`
      }
    })
    expect(run.outputs.outcome + run.stdout).toMatch(/^succeeded/)
    expect(p.gh.requests.length).toBeGreaterThan(0)
    expect(new Set(proxy.tunnels)).toEqual(new Set([`${API_HOST}:${port}`]))
  })
})
