// The fake's GraphQL endpoint. Every document is validated, and its variables coerced, against
// the subset of GitHub's schema the action uses (test/fixtures/openapi/github-graphql-subset.graphql,
// made by scripts/extract-graphql.ts); one that does not conform is answered as GitHub answers
// it and listed as a violation. Conforming documents are executed: who the token acts as,
// readying a pull request, and creating a commit on a branch of the bare origin repository.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { buildSchema, execute, GraphQLError } from 'graphql'
import { checkDocument } from './graphql-check.js'
import { pullNodeId } from './github-objects.js'
import type { GitHubState } from './fake-github-state.js'

const exec = promisify(execFile)

const SCHEMA = buildSchema(
  readFileSync(
    new URL('../fixtures/openapi/github-graphql-subset.graphql', import.meta.url),
    'utf8'
  )
)

export interface GraphqlAnswer {
  status: number
  body: unknown
  /** Why the request does not conform, when it does not. */
  violation?: string
}

/** An error GitHub reports with its `type` (NOT_FOUND, STALE_DATA, ...). */
class TypedError extends GraphQLError {
  constructor(
    readonly type: string,
    message: string
  ) {
    super(message)
  }
}

interface CreateCommitInput {
  branch: {
    branchName?: string | null
    repositoryNameWithOwner?: string | null
    id?: string | null
  }
  expectedHeadOid: string
  message: { headline: string; body?: string | null }
  fileChanges?: {
    additions?: { path: string; contents: string }[] | null
    deletions?: { path: string }[] | null
  } | null
}

export async function answerGraphql(
  state: GitHubState,
  doc: { query?: unknown; variables?: unknown } | undefined,
  originDir: string | undefined
): Promise<GraphqlAnswer> {
  const variables = (doc?.variables ?? {}) as Record<string, unknown>
  const checked = checkDocument(SCHEMA, doc?.query, variables)
  if ('parseError' in checked) return refused(`query: ${checked.parseError}`)
  if ('problems' in checked) {
    return {
      status: 200,
      body: { errors: checked.problems.map((message) => ({ message })) },
      violation: checked.problems.join('; ')
    }
  }
  const { document } = checked
  let violation: string | undefined
  const rootValue = {
    viewer: () => ({ login: state.tokenUser.login, databaseId: state.tokenUser.id }),
    updatePullRequest: ({ input }: { input: { pullRequestId: string; body?: string | null } }) => {
      const pr = pullByNode(state, input.pullRequestId)
      if (input.body !== undefined && input.body !== null) pr.body = input.body
      return { pullRequest: { number: pr.number, isDraft: pr.pull.draft } }
    },
    markPullRequestReadyForReview: ({ input }: { input: { pullRequestId: string } }) => {
      const pr = pullByNode(state, input.pullRequestId)
      pr.pull.draft = false
      return { pullRequest: { number: pr.number, isDraft: false } }
    },
    createCommitOnBranch: async ({ input }: { input: CreateCommitInput }) => {
      const bad = [...(input.fileChanges?.additions ?? [])].find(
        (a) => Buffer.from(a.contents, 'base64').toString('base64') !== a.contents
      )
      if (bad) violation = `createCommitOnBranch: ${bad.path}: contents are not base64`
      return { commit: { oid: await createCommit(state, originDir, input) } }
    }
  }
  const result = await execute({ schema: SCHEMA, document, rootValue, variableValues: variables })
  const errors = result.errors?.map((e) => ({
    ...(e.originalError instanceof TypedError ? { type: e.originalError.type } : {}),
    path: e.path,
    locations: e.locations,
    message: e.message
  }))
  return {
    status: 200,
    body: { data: result.data ?? null, ...(errors ? { errors } : {}) },
    ...(violation ? { violation } : {})
  }
}

function pullByNode(state: GitHubState, id: string) {
  const pr = state.pullRecords().find((i) => pullNodeId(i.id) === id)
  if (!pr)
    throw new TypedError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`)
  return pr
}

/**
 * Applies the file changes to the branch's head as GitHub does: a new commit by the token's
 * user, committed by GitHub, made only while the branch is at `expectedHeadOid`.
 */
async function createCommit(
  state: GitHubState,
  originDir: string | undefined,
  input: CreateCommitInput
): Promise<string> {
  if (!originDir) throw new Error('the fake GitHub needs originDir to create commits')
  const { branchName, repositoryNameWithOwner } = input.branch
  if (!branchName || repositoryNameWithOwner?.toLowerCase() !== state.fullName.toLowerCase()) {
    throw new TypedError(
      'NOT_FOUND',
      `Could not resolve to a Repository with the name '${repositoryNameWithOwner ?? ''}'.`
    )
  }
  const ref = `refs/heads/${branchName}`
  const git = async (args: string[], o: { env?: Record<string, string>; input?: string } = {}) => {
    const child = exec('git', ['--git-dir', originDir, ...args], {
      env: { ...process.env, ...o.env },
      maxBuffer: 1 << 28
    })
    if (o.input !== undefined) child.child.stdin?.end(o.input)
    return (await child).stdout.trim()
  }
  const head = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).catch(() => '')
  if (!head) throw new TypedError('NOT_FOUND', `Could not resolve to a Ref named '${ref}'.`)
  const stale = () =>
    new TypedError(
      'STALE_DATA',
      `Expected branch to point to "${input.expectedHeadOid}" but it did not.  Pull and try again.`
    )
  if (head !== input.expectedHeadOid) throw stale()

  const index = `${originDir}/index.fake-${process.pid}-${Math.random().toString(36).slice(2)}`
  const env = { GIT_INDEX_FILE: index }
  try {
    await git(['read-tree', head], { env })
    const lines: string[] = []
    const zero = '0'.repeat(head.length)
    for (const d of input.fileChanges?.deletions ?? []) lines.push(`0 ${zero}\t${d.path}`)
    for (const a of input.fileChanges?.additions ?? []) {
      const blob = await new Promise<string>((resolve, reject) => {
        const child = execFile(
          'git',
          ['--git-dir', originDir, 'hash-object', '-w', '--stdin'],
          (err, stdout) => (err ? reject(err) : resolve(stdout.trim()))
        )
        child.stdin?.end(Buffer.from(a.contents, 'base64'))
      })
      lines.push(`100644 ${blob}\t${a.path}`)
    }
    await git(['update-index', '--add', '-z', '--index-info'], {
      env,
      input: lines.map((l) => `${l}\0`).join('')
    })
    const tree = await git(['write-tree'], { env })
    const user = state.tokenUser
    const { headline, body } = input.message
    const oid = await git(['commit-tree', tree, '-p', head, '-F', '-'], {
      env: {
        GIT_AUTHOR_NAME: user.login,
        GIT_AUTHOR_EMAIL: `${user.id}+${user.login}@users.noreply.github.com`,
        GIT_COMMITTER_NAME: 'GitHub',
        GIT_COMMITTER_EMAIL: 'noreply@github.com'
      },
      input: body ? `${headline}\n\n${body}\n` : `${headline}\n`
    })
    // Moved only from the expected head, as GitHub moves it.
    await git(['update-ref', '-m', 'createCommitOnBranch', ref, oid, head]).catch(() => {
      throw stale()
    })
    return oid
  } finally {
    await exec('rm', ['-f', index])
  }
}

function refused(violation: string): GraphqlAnswer {
  return { status: 200, body: { errors: [{ message: 'Parse error' }] }, violation }
}
