// The runner's proxy: with HTTPS_PROXY set, the GitHub client sends through it, as
// @actions/github's client does. Its proxy code reads the environment once, when first loaded,
// so this file sets it before any client is made and has a file of its own.
import { afterAll, beforeAll, expect, it } from '@jest/globals'
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import { createGitHubClient } from '../../src/tracker/github-client.js'
import { type FakeGitHub, startFakeGitHub } from '../harness/fake-github.js'

let fake: FakeGitHub
let proxy: http.Server
/** The `host:port` of each tunnel the proxy was asked for. */
const tunnels: string[] = []
const saved = { ...process.env }

beforeAll(async () => {
  fake = await startFakeGitHub()
  // A forwarding proxy as runners have: CONNECT opens a tunnel to the host asked for.
  proxy = http.createServer((_req, res) => res.writeHead(501).end())
  proxy.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    tunnels.push(req.url ?? '')
    const [host, port] = (req.url ?? '').split(':')
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client).pipe(upstream)
    })
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  for (const name of ['NO_PROXY', 'no_proxy', 'https_proxy', 'GITHUB_API_URL']) {
    delete process.env[name]
  }
  process.env.HTTPS_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
})

afterAll(async () => {
  process.env = saved
  proxy.closeAllConnections()
  await new Promise((resolve) => proxy.close(resolve))
  await fake.stop()
})

it('sends every request through the proxy HTTPS_PROXY names', async () => {
  const n = fake.addIssue({ title: 'through the proxy' })
  const c = createGitHubClient({ token: 't', apiUrl: fake.url, secondMs: 1 })
  const { data } = await c.octokit.rest.issues.get({
    owner: 'octo-org',
    repo: 'demo',
    issue_number: n
  })
  expect(data.title).toBe('through the proxy')
  expect(c.requests()).toBe(1)
  expect(tunnels).toEqual([new URL(fake.url).host])
  expect(fake.violations).toEqual([])
})
