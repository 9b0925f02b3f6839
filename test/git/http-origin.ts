// Serves bare repositories over smart HTTP on 127.0.0.1 through `git http-backend`, and records
// the Authorization headers each request carried, so tests can see where a token went. Faults a
// real remote produces (5xx, a dropped connection, a hung one, a push GitHub refuses or applies
// without saying so) can be injected per kind of request.
import { spawn } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

interface Seen {
  method: string
  path: string
  /** Every Authorization header of the request (duplicates kept). */
  authorization: string[]
  /** Which of the smart-HTTP requests it was; undefined for anything else. */
  request?: GitRequest
}

/**
 * The four requests of the smart-HTTP protocol: a push asks for the refs (`push-refs`, a GET of
 * info/refs) and then sends the pack (`push`); a fetch does `fetch-refs` and then `fetch`.
 */
export type GitRequest = 'push-refs' | 'push' | 'fetch-refs' | 'fetch'

export type GitFault =
  /** Answers with this status and a plain-text body, as GitHub's front end does. */
  | { status: number; message: string }
  /** Closes the connection before anything is done. */
  | { reset: true }
  /** Accepts the request and never answers. */
  | { hang: true }
  /** Does the request (a push lands), then closes the connection instead of answering. */
  | { answerLost: true }
  /**
   * A push only: answers that the ref was not updated, for `reason`, after `remote:` lines,
   * without updating it (GitHub's `[remote rejected] <ref> (Internal Server Error)`).
   */
  | { refRejected: string; remoteSays: string[] }

/** The failures a git remote produces, as GitHub produces them. */
export const GIT_FAULTS = {
  serverError: (status = 502): GitFault => ({ status, message: 'Server Error' }),
  permissionDenied: (who = 'github-actions[bot]'): GitFault => ({
    status: 403,
    message: `Permission to octo-org/demo.git denied to ${who}.`
  }),
  connectionReset: (): GitFault => ({ reset: true }),
  hang: (): GitFault => ({ hang: true }),
  answerLost: (): GitFault => ({ answerLost: true }),
  internalServerError: (): GitFault => ({
    refRejected: 'Internal Server Error',
    remoteSays: ['Internal Server Error']
  }),
  /** GitHub's answer when its storage could not commit the ref update. */
  commitRefsFailed: (): GitFault => ({
    refRejected: 'failure',
    remoteSays: ['fatal error in commit_refs']
  })
}

export interface HttpOrigin {
  /** `http://127.0.0.1:<port>` */
  server: string
  seen: Seen[]
  /** Answers the next `times` requests of that kind with the fault; `Infinity`: all of them. */
  fail(request: GitRequest, fault: GitFault, times?: number): void
  /** Drops every fault still waiting. */
  heal(): void
  close(): Promise<void>
}

export async function serveRepos(projectRoot: string): Promise<HttpOrigin> {
  const seen: Seen[] = []
  const faults = new Map<GitRequest, Array<{ fault: GitFault; left: number }>>()
  const takeFault = (kind: GitRequest | undefined): GitFault | undefined => {
    const queue = kind ? faults.get(kind) : undefined
    const next = queue?.[0]
    if (!next) return undefined
    if (--next.left <= 0) queue.shift()
    return next.fault
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const request = gitRequest(req.method ?? '', url)
    seen.push({
      method: req.method ?? '',
      path: url.pathname,
      authorization: req.headersDistinct['authorization'] ?? [],
      request
    })
    const fault = takeFault(request)
    if (fault && 'hang' in fault) return
    if (fault && 'reset' in fault) return void req.socket.destroy()
    if (fault && 'status' in fault) {
      res.writeHead(fault.status, { 'content-type': 'text/plain; charset=utf-8' })
      res.end(`${fault.message}\n`)
      return
    }
    if (fault && 'refRejected' in fault) {
      readAll(req).then(
        (body) => refuseRefs(res, body, fault),
        () => req.socket.destroy()
      )
      return
    }
    runBackend(projectRoot, req, url, (status, headers, body) => {
      if (fault && 'answerLost' in fault) return void req.socket.destroy()
      res.writeHead(status, headers)
      res.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    server: `http://127.0.0.1:${port}`,
    seen,
    fail(request, fault, times = 1) {
      faults.set(request, [...(faults.get(request) ?? []), { fault, left: times }])
    },
    heal: () => faults.clear(),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

function gitRequest(method: string, url: URL): GitRequest | undefined {
  const service = url.searchParams.get('service')
  if (method === 'GET' && url.pathname.endsWith('/info/refs')) {
    if (service === 'git-receive-pack') return 'push-refs'
    if (service === 'git-upload-pack') return 'fetch-refs'
  }
  if (method === 'POST' && url.pathname.endsWith('/git-receive-pack')) return 'push'
  if (method === 'POST' && url.pathname.endsWith('/git-upload-pack')) return 'fetch'
  return undefined
}

function runBackend(
  projectRoot: string,
  req: http.IncomingMessage,
  url: URL,
  answer: (status: number, headers: Record<string, string>, body: Buffer) => void
): void {
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
      const [name = '', ...rest] = line.split(': ')
      if (name.toLowerCase() === 'status') status = parseInt(rest.join(': '), 10)
      else headers[name] = rest.join(': ')
    }
    answer(status, headers, all.subarray(split + 4))
  })
}

async function readAll(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

function pkt(data: Buffer | string): Buffer {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8')
  return Buffer.concat([Buffer.from((bytes.length + 4).toString(16).padStart(4, '0')), bytes])
}

const FLUSH = Buffer.from('0000')

/**
 * A receive-pack answer that refuses every ref the push named, in the report-status format,
 * inside side-band channel 1 with the `remote:` lines on channel 2 when the client asked for
 * side-band (git always does over HTTP).
 */
function refuseRefs(
  res: http.ServerResponse,
  body: Buffer,
  fault: { refRejected: string; remoteSays: string[] }
): void {
  const commands: string[] = []
  let caps = ''
  for (let at = 0; at + 4 <= body.length;) {
    const len = parseInt(body.subarray(at, at + 4).toString('latin1'), 16)
    if (!len) break
    const line = body.subarray(at + 4, at + len).toString('latin1')
    const [command = '', capabilities] = line.split('\0')
    if (capabilities !== undefined) caps = capabilities
    // `<old> <new> <ref>`
    const ref = command.trim().split(' ')[2]
    if (ref) commands.push(ref)
    at += len
  }
  const report = Buffer.concat([
    pkt('unpack ok\n'),
    ...commands.map((ref) => pkt(`ng ${ref} ${fault.refRejected}\n`)),
    FLUSH
  ])
  const sideband = /\bside-band(-64k)?\b/.test(caps)
  const out = sideband
    ? Buffer.concat([
        ...fault.remoteSays.map((line) => pkt(`\x02${line}\n`)),
        pkt(Buffer.concat([Buffer.from([1]), report])),
        FLUSH
      ])
    : report
  res.writeHead(200, { 'content-type': 'application/x-git-receive-pack-result' })
  res.end(out)
}
