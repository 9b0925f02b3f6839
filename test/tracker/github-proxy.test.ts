// The runner's proxy: with HTTPS_PROXY set, the GitHub client sends through it, as
// @actions/github's client does. Its proxy code reads the environment once, when first loaded,
// so this file sets it before it loads the client and has a file of its own.
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { startConnectProxy, type ConnectProxy } from '../harness/connect-proxy.js'
import { type FakeGitHub, startFakeGitHub } from '../harness/fake-github.js'

let fake: FakeGitHub
let proxy: ConnectProxy
const saved = { ...process.env }
let createGitHubClient: typeof import('../../src/tracker/github-client.js').createGitHubClient

beforeAll(async () => {
  fake = await startFakeGitHub()
  proxy = await startConnectProxy()
  for (const name of ['NO_PROXY', 'no_proxy', 'https_proxy', 'GITHUB_API_URL']) {
    delete process.env[name]
  }
  process.env.HTTPS_PROXY = proxy.url
  ;({ createGitHubClient } = await import('../../src/tracker/github-client.js'))
})

afterAll(async () => {
  process.env = saved
  await proxy.stop()
  await fake.stop()
})

it('sends every request through the proxy HTTPS_PROXY names', async () => {
  const n = fake.addIssue({ title: 'through the proxy' })
  const c = createGitHubClient({ token: 't', apiUrl: fake.url, secondMs: 1 })
  const { data } = await c.octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', {
    owner: 'octo-org',
    repo: 'demo',
    issue_number: n
  })
  expect(data.title).toBe('through the proxy')
  expect(c.requests()).toBe(1)
  expect(proxy.tunnels).toEqual([new URL(fake.url).host])
  expect(fake.violations).toEqual([])
})
