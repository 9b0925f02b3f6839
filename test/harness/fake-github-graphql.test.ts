import { afterEach, describe, expect, it } from '@jest/globals'
import { startFakeGitHub, type FakeGitHub } from './fake-github.js'
import { cleanup, makeOrigin } from '../git/repos.js'

let gh: FakeGitHub | undefined
afterEach(async () => {
  await gh?.stop()
  gh = undefined
  cleanup()
})

const CREATE = `mutation ($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) { commit { oid } }
}`

async function post(query: string, variables: unknown): Promise<unknown> {
  const r = await fetch(`${gh!.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables })
  })
  return r.json()
}

describe("the fake's GraphQL endpoint", () => {
  it("lists a document GitHub's schema refuses, and variables it cannot coerce", async () => {
    gh = await startFakeGitHub()
    await post('query { viewer { login email } }', {})
    await post(CREATE, { input: { branch: { branchName: 'x' }, message: { headline: 'h' } } })
    expect(gh.violations.map((v) => v.errors.join(' '))).toEqual([
      expect.stringContaining('Cannot query field "email" on type "User"'),
      expect.stringContaining('expectedHeadOid')
    ])
  })

  it("answers a stale expectedHeadOid with GitHub's STALE_DATA error and moves nothing", async () => {
    const origin = makeOrigin()
    gh = await startFakeGitHub({ originDir: origin.dir })
    const stale = '0'.repeat(40)
    const body = await post(CREATE, {
      input: {
        branch: { repositoryNameWithOwner: 'octo-org/demo', branchName: 'main' },
        expectedHeadOid: stale,
        message: { headline: 'h' },
        fileChanges: { additions: [{ path: 'a.txt', contents: 'YQo=' }] }
      }
    })
    expect(body).toEqual({
      data: { createCommitOnBranch: null },
      errors: [
        expect.objectContaining({
          type: 'STALE_DATA',
          path: ['createCommitOnBranch'],
          message: `Expected branch to point to "${stale}" but it did not.  Pull and try again.`
        })
      ]
    })
    expect(gh.violations).toEqual([])
  })
})
