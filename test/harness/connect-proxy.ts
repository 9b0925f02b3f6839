// A forwarding proxy as runners behind one have: CONNECT opens a tunnel to the host asked for.
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'

export interface ConnectProxy {
  /** `http://127.0.0.1:<port>`, for HTTPS_PROXY. */
  url: string
  /** The `host:port` of each tunnel asked for, in order. */
  tunnels: string[]
  stop(): Promise<void>
}

/**
 * `to` (`http://host:port`), when given, is where every tunnel goes, whatever host it names:
 * an API URL on a host that does not resolve then works through the proxy only.
 */
export async function startConnectProxy(to?: string): Promise<ConnectProxy> {
  const tunnels: string[] = []
  const fixed = to ? new URL(to) : undefined
  const proxy = http.createServer((_req, res) => res.writeHead(501).end())
  proxy.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    tunnels.push(req.url ?? '')
    const [host, port] = fixed ? [fixed.hostname, fixed.port] : (req.url ?? '').split(':')
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client).pipe(upstream)
    })
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    tunnels,
    async stop() {
      proxy.closeAllConnections()
      await new Promise((resolve) => proxy.close(resolve))
    }
  }
}
