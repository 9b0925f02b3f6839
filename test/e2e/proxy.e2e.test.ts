// A runner behind a proxy, through the bundles as the runner runs them: the stage's API
// requests go through HTTPS_PROXY, and undici (which only that needs) is loaded then only.
import { afterAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
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

/** The files of dist/undici that `script`, run after loading dist/`bundle`, finds loaded. */
function undiciLoaded(bundle: string, script = ''): string[] {
  const out = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { createRequire } from 'node:module'
const undici = await import(${JSON.stringify(join(ROOT, 'dist', bundle))})
${script}
const loaded = Object.keys(createRequire(import.meta.url).cache)
console.log(JSON.stringify(loaded.filter((f) => f.includes('/dist/undici/')).map((f) => f.split('/').pop())))`
    ],
    { encoding: 'utf8' }
  )
  return JSON.parse(out) as string[]
}

describe('undici, which only a proxy needs', () => {
  it('is not in the steps or CLI bundle, and loading either reads only its stand-in', () => {
    for (const bundle of ['steps', 'cli']) {
      // undici's HTTP parser, in WebAssembly, is one of the files it carries.
      expect(readFileSync(join(ROOT, 'dist', bundle, 'index.js'), 'utf8')).not.toContain('llhttp')
    }
    expect(undiciLoaded('steps/index.js')).toEqual(['index.cjs'])
  })

  it('is loaded by the stand-in on first use', () => {
    const made = 'new undici.ProxyAgent("http://127.0.0.1:9").close()'
    expect(undiciLoaded('undici/index.cjs', made)).toEqual(['index.cjs', 'undici.cjs'])
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
      // The fake API is plain HTTP, so HTTP_PROXY is the one that applies to it.
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
