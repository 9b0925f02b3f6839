// Serves bare repositories over smart HTTP on 127.0.0.1 through `git http-backend`, and records
// the Authorization headers each request carried, so tests can see where a token went.
import { spawn } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Seen {
  method: string
  path: string
  /** Every Authorization header of the request (duplicates kept). */
  authorization: string[]
}

export interface HttpOrigin {
  /** `http://127.0.0.1:<port>` */
  server: string
  seen: Seen[]
  close(): Promise<void>
}

export async function serveRepos(projectRoot: string): Promise<HttpOrigin> {
  const seen: Seen[] = []
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    seen.push({
      method: req.method ?? '',
      path: url.pathname,
      authorization: req.headersDistinct['authorization'] ?? []
    })
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: 'tester',
        REMOTE_ADDR: '127.0.0.1',
        REQUEST_METHOD: req.method,
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: req.headers['git-protocol']?.toString() ?? ''
      }
    })
    req.pipe(cgi.stdin)
    const out: Buffer[] = []
    cgi.stdout.on('data', (b: Buffer) => out.push(b))
    cgi.on('close', () => {
      const all = Buffer.concat(out)
      const split = all.indexOf('\r\n\r\n')
      const head = all.subarray(0, split).toString('latin1').split('\r\n')
      let status = 200
      const headers: Record<string, string> = {}
      for (const line of head) {
        const [name, ...rest] = line.split(': ')
        if (name.toLowerCase() === 'status') status = parseInt(rest.join(': '), 10)
        else headers[name] = rest.join(': ')
      }
      res.writeHead(status, headers)
      res.end(all.subarray(split + 4))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    server: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}
