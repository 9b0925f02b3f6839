// The fake GitHub's git-data operations (commits and refs) and its workflow runs. Commits and refs
// are made in the fake's bare origin with real git, so a ref update is atomic the way GitHub's is:
// `git update-ref <ref> <new> <old>` refuses when the ref moved since it was read, which is what
// makes create-only and fast-forward-only updates compare-and-swap records.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { repoJson, type Roots } from './github-objects.js'
import type { GitHubState } from './fake-github-state.js'
import { errorReply, notFound, type Route } from './fake-github-routes.js'
import type { GitObject, GitObjectReader } from './git-object-reader.js'

const exec = promisify(execFile)

const ZERO = '0000000000000000000000000000000000000000'

/** A workflow run the fake knows; tests add them with `setRun`. */
export interface RunRecord {
  id: number
  status: 'queued' | 'in_progress' | 'completed'
  conclusion: string | null
}

interface Ident {
  name: string
  email: string
  date: string
}

export function gitRoutes(
  state: GitHubState,
  roots: Roots,
  originDir: string | undefined,
  reader: GitObjectReader | undefined,
  runs: Map<number, RunRecord>
): Record<string, Route> {
  const base = `${roots.api}/repos/${state.fullName}`

  async function git(args: string[], env: Record<string, string> = {}): Promise<string> {
    if (!originDir) throw new Error('the fake GitHub serves git data only with an originDir')
    const { stdout } = await exec('git', ['--git-dir', originDir, ...args], {
      env: { ...process.env, ...env }
    })
    return stdout
  }
  const tryGit = (args: string[]): Promise<string | undefined> =>
    git(args).then(
      (out) => out.trim(),
      () => undefined
    )
  /** `input` on git's stdin; git's stdout, or undefined when git fails. */
  const gitWith = (args: string[], input: string, env: Record<string, string> = {}) =>
    new Promise<string | undefined>((resolve) => {
      const child = execFile(
        'git',
        ['--git-dir', originDir ?? '', ...args],
        { env: { ...process.env, ...env } },
        (err, stdout) => resolve(err ? undefined : stdout)
      )
      child.stdin?.end(input)
    })

  /** What each name (an object id or a ref) is, and for `withContent` what it holds. */
  function objects(names: string[], withContent = false): Promise<(GitObject | undefined)[]> {
    if (!reader) throw new Error('the fake GitHub serves git data only with an originDir')
    return reader.read(names, withContent)
  }
  const typeOf = async (sha: string) => (await objects([sha]))[0]?.type

  const refJson = (ref: string, sha: string) => ({
    ref,
    node_id: `REF_${Buffer.from(ref).toString('base64url')}`,
    url: `${base}/git/${ref}`,
    object: { type: 'commit', sha, url: `${base}/git/commits/${sha}` }
  })

  async function commitJson(sha: string): Promise<Record<string, unknown> | undefined> {
    const [object] = await objects([sha], true)
    if (object?.type !== 'commit') return undefined
    const raw = object.content
    const split = raw.indexOf('\n\n')
    const headers = raw.slice(0, split).split('\n')
    const field = (name: string) =>
      headers.filter((h) => h.startsWith(`${name} `)).map((h) => h.slice(name.length + 1))
    const ident = (line = ''): Ident => {
      const m = /^(.*) <(.*)> (\d+) [+-]\d{4}$/.exec(line)
      const seconds = Number(m?.[3] ?? 0)
      return {
        name: m?.[1] ?? '',
        email: m?.[2] ?? '',
        date: new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
      }
    }
    const tree = field('tree')[0] ?? ''
    return {
      sha,
      node_id: `C_${sha.slice(0, 16)}`,
      url: `${base}/git/commits/${sha}`,
      html_url: `${roots.html}/${state.fullName}/commit/${sha}`,
      author: ident(field('author')[0]),
      committer: ident(field('committer')[0]),
      tree: { sha: tree, url: `${base}/git/trees/${tree}` },
      // GitHub gives back the message as written (git adds a final newline only when asked).
      message: raw.slice(split + 2),
      parents: field('parent').map((p) => ({
        sha: p,
        url: `${base}/git/commits/${p}`,
        html_url: `${roots.html}/${state.fullName}/commit/${p}`
      })),
      verification: {
        verified: false,
        reason: 'unsigned',
        signature: null,
        payload: null,
        verified_at: null
      }
    }
  }

  const identEnv = (who: 'AUTHOR' | 'COMMITTER', i: Partial<Ident> | undefined) => ({
    [`GIT_${who}_NAME`]: i?.name ?? state.tokenUser.login,
    [`GIT_${who}_EMAIL`]:
      i?.email ?? `${state.tokenUser.id}+${state.tokenUser.login}@users.noreply.github.com`,
    [`GIT_${who}_DATE`]: i?.date ?? new Date().toISOString()
  })

  const current = async (ref: string) => (await objects([ref]))[0]?.sha

  return {
    'POST /repos/{owner}/{repo}/git/commits': async (req) => {
      const b = req.body as {
        message: string
        tree: string
        parents?: string[]
        author?: Ident
        committer?: Partial<Ident>
      }
      const [tree, ...parentObjects] = await objects([b.tree, ...(b.parents ?? [])])
      if (tree?.type !== 'tree') {
        return errorReply(422, 'Tree SHA does not exist')
      }
      if (parentObjects.some((p) => p?.type !== 'commit')) {
        return errorReply(422, 'Parent SHA does not exist or is not a commit object')
      }
      const env = {
        ...identEnv('AUTHOR', b.author),
        ...identEnv('COMMITTER', b.committer ?? b.author)
      }
      const parents = (b.parents ?? []).flatMap((p) => ['-p', p])
      // The message is passed as a file so it is kept byte for byte (`-m` would add a newline).
      const made = await gitWith(['commit-tree', b.tree, ...parents, '-F', '-'], b.message, env)
      if (made === undefined) throw new Error(`git commit-tree failed on ${b.tree}`)
      const sha = made.trim()
      return { status: 201, body: await commitJson(sha) }
    },

    'GET /repos/{owner}/{repo}/git/commits/{commit_sha}': async (req) => {
      const body = await commitJson(req.params.commit_sha ?? '')
      return body ? { status: 200, body } : notFound()
    },

    'POST /repos/{owner}/{repo}/git/refs': async (req) => {
      const { ref, sha } = req.body as { ref: string; sha: string }
      if (!/^refs\/[^/]+\/./.test(ref) || ref.endsWith('/')) {
        return errorReply(422, 'Reference name is invalid')
      }
      if ((await typeOf(sha)) === undefined) return errorReply(422, 'Object does not exist')
      // The zero old value makes the update fail when the ref exists: the create is atomic.
      if ((await tryGit(['update-ref', ref, sha, ZERO])) === undefined) {
        return errorReply(422, 'Reference already exists')
      }
      return { status: 201, body: refJson(ref, sha) }
    },

    'PATCH /repos/{owner}/{repo}/git/refs/{ref}': async (req) => {
      const ref = `refs/${req.params.ref ?? ''}`
      const { sha, force } = req.body as { sha: string; force?: boolean }
      // The ref's value and the new object's type, from one git process.
      const [now, object] = await objects([ref, sha])
      const old = now?.sha
      if (!old) return errorReply(422, 'Reference does not exist')
      if (object === undefined) return errorReply(422, 'Object does not exist')
      if (!force && (await tryGit(['merge-base', '--is-ancestor', old, sha])) === undefined) {
        return errorReply(422, 'Update is not a fast forward')
      }
      // Against the value just checked: a concurrent update in between makes this one fail.
      if ((await tryGit(['update-ref', ref, sha, old])) === undefined) {
        return errorReply(422, 'Update is not a fast forward')
      }
      return { status: 200, body: refJson(ref, sha) }
    },

    'DELETE /repos/{owner}/{repo}/git/refs/{ref}': async (req) => {
      const ref = `refs/${req.params.ref ?? ''}`
      const old = await current(ref)
      if (!old || (await tryGit(['update-ref', '-d', ref, old])) === undefined) {
        return errorReply(422, 'Reference does not exist')
      }
      return { status: 204 }
    },

    'GET /repos/{owner}/{repo}/git/matching-refs/{ref}': async (req) => {
      const prefix = `refs/${req.params.ref ?? ''}`
      const out = await git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/'])
      const list = out
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(' ') as [string, string])
        .filter(([ref]) => ref.startsWith(prefix))
        .map(([ref, sha]) => refJson(ref, sha))
      return { status: 200, body: list }
    },

    'GET /repos/{owner}/{repo}/actions/runs/{run_id}': (req) => {
      const run = runs.get(Number(req.params.run_id))
      return run ? { status: 200, body: runJson(run) } : notFound()
    }
  }

  function runJson(run: RunRecord): Record<string, unknown> {
    const url = `${base}/actions/runs/${run.id}`
    const repo = repoJson(roots, state.repoRecord, state.openIssueCount())
    const at = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
    return {
      id: run.id,
      node_id: `WFR_${run.id}`,
      name: 'itervox',
      head_branch: state.repoRecord.defaultBranch,
      head_sha: ZERO,
      path: '.github/workflows/itervox.yml',
      display_title: 'itervox',
      run_number: run.id,
      run_attempt: 1,
      event: 'repository_dispatch',
      status: run.status,
      conclusion: run.conclusion,
      workflow_id: 1,
      url,
      html_url: `${roots.html}/${state.fullName}/actions/runs/${run.id}`,
      pull_requests: [],
      created_at: at,
      updated_at: at,
      head_commit: null,
      head_repository: repo,
      repository: repo,
      jobs_url: `${url}/jobs`,
      logs_url: `${url}/logs`,
      check_suite_url: `${base}/check-suites/${run.id}`,
      cancel_url: `${url}/cancel`,
      rerun_url: `${url}/rerun`,
      artifacts_url: `${url}/artifacts`,
      workflow_url: `${base}/actions/workflows/1`
    }
  }
}
