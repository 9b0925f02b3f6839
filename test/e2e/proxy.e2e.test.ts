// A runner behind a proxy, through the bundle as the runner runs it: the stage's API requests
// go through the runner's proxy.
import { afterAll, describe, expect, it } from '@jest/globals'
import { checkoutShallow, runAction } from '../harness/action-run.js'
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
