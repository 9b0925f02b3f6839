import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import path from 'node:path'
import { prepareIssueBranch } from '../../src/git/branch.js'
import { commitAllowed } from '../../src/git/commit.js'
import { basicCredential, git } from '../../src/git/git.js'
import { pushWithRetry } from '../../src/git/push.js'
import { serveRepos, type HttpOrigin } from './http-origin.js'
import { cleanup, makeOrigin, sh, tmp, write } from './repos.js'

const TOKEN = 'ghs_not-a-real-token'
const BRANCH = 'itervox/5'

let origin: HttpOrigin
let decoy: HttpOrigin

beforeAll(async () => {
  origin = await serveRepos(path.dirname(makeOrigin().dir))
  decoy = await serveRepos(path.dirname(makeOrigin().dir))
})

afterAll(async () => {
  await origin.close()
  await decoy.close()
  cleanup()
})

function workspace(): string {
  const work = tmp()
  sh(work, 'init', '--quiet')
  sh(work, 'remote', 'add', 'origin', `${origin.server}/origin.git`)
  return work
}

describe('auth over HTTP', () => {
  it('sends our token to the origin, once per request, instead of one checkout persisted', async () => {
    const work = workspace()
    sh(work, 'config', `http.${origin.server}/.extraheader`, 'AUTHORIZATION: basic c3RhbGU=')
    const auth = { serverUrl: origin.server, token: TOKEN }
    const seenBefore = origin.seen.length

    const prepared = await prepareIssueBranch({ repo: work, branch: BRANCH, base: 'main', auth })
    write(work, 'docs/x.md', 'x\n')
    const { sha } = await commitAllowed({
      repo: work,
      branch: BRANCH,
      baseSha: prepared.baseSha,
      deliverablePaths: ['docs/x.md'],
      allowGlobs: [],
      forbiddenGlobs: [],
      message: 'stage',
      trailers: []
    })
    await pushWithRetry({ ...prepared, repo: work, sha: sha!, auth })

    const requests = origin.seen.slice(seenBefore)
    expect(requests.map((r) => r.path)).toContain('/origin.git/git-receive-pack')
    for (const r of requests) expect(r.authorization).toEqual([`basic ${basicCredential(TOKEN)}`])
  })

  it('never sends the token to a host an insteadOf rewrites the origin to', async () => {
    const work = workspace()
    sh(work, 'config', `url.${decoy.server}/.insteadOf`, `${origin.server}/`)
    const seenOrigin = origin.seen.length
    const seenDecoy = decoy.seen.length

    await git(work, ['ls-remote', 'origin'], { auth: { serverUrl: origin.server, token: TOKEN } })
    const requests = decoy.seen.slice(seenDecoy)
    expect(requests.length).toBeGreaterThan(0)
    for (const r of requests) expect(r.authorization).toEqual([])
    expect(origin.seen.length).toBe(seenOrigin)
  })
})
