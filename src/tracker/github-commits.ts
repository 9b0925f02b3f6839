// Commits GitHub creates itself (GraphQL `createCommitOnBranch`): signed by GitHub and marked
// Verified, made only while the branch is where the stage expects (`expectedHeadOid`).
import type { CommitRequest, CommitSigner, SignVerdict } from '../git/commit-signer.js'
import { messageOf } from '../errors.js'
import type { Octokit } from './github-client.js'
import { explainFailure, GitHubRateLimitedError, GitHubUnavailableError } from './github-errors.js'

const CREATE_COMMIT = `mutation ($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) { commit { oid } }
}`

interface GraphqlFailure {
  name: 'GraphqlResponseError'
  errors?: { type?: string; message?: string }[]
}

const isGraphqlFailure = (e: unknown): e is GraphqlFailure =>
  e instanceof Error && e.name === 'GraphqlResponseError'

export class GitHubCommitSigner implements CommitSigner {
  constructor(
    private readonly octokit: Octokit,
    private readonly where: { owner: string; repo: string }
  ) {}

  async createCommit(c: CommitRequest): Promise<SignVerdict> {
    const doing = `create the stage's commit on ${c.branch}`
    try {
      const data = await this.octokit.graphql<{
        createCommitOnBranch: { commit: { oid: string } }
      }>(CREATE_COMMIT, {
        input: {
          branch: {
            repositoryNameWithOwner: `${this.where.owner}/${this.where.repo}`,
            branchName: c.branch
          },
          expectedHeadOid: c.expectedHeadOid,
          message: { headline: c.headline, ...(c.body ? { body: c.body } : {}) },
          fileChanges: c.fileChanges
        },
        // Sent twice, the second finds the branch moved by the first: the caller sees its
        // own change there and takes it.
        request: { idempotent: true }
      })
      return { kind: 'ok', oid: data.createCommitOnBranch.commit.oid }
    } catch (e) {
      if (isGraphqlFailure(e)) {
        const errors = e.errors ?? []
        if (errors.some((x) => x.type === 'STALE_DATA')) return { kind: 'moved' }
        const said = errors.map((x) => x.message ?? x.type ?? '').join('; ')
        const hint = errors.some((x) => x.type === 'FORBIDDEN')
          ? '; the token needs `permissions: contents: write`'
          : ''
        return { kind: 'refused', why: `GitHub refused to ${doing}: ${said}${hint}` }
      }
      const err = explainFailure(e, doing, 'contents: write')
      const transient =
        err instanceof GitHubUnavailableError || err instanceof GitHubRateLimitedError
      return { kind: transient ? 'transient' : 'refused', why: messageOf(err) }
    }
  }
}
