import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { authorizeActor } from '../../src/tracker/authorize.js'
import { GitHubApi } from '../../src/tracker/github-api.js'
import { type FakeGitHub, startFakeGitHub } from '../harness/fake-github.js'

let fake: FakeGitHub
let tracker: GitHubApi

beforeAll(async () => {
  fake = await startFakeGitHub()
  for (const role of ['admin', 'maintain', 'write', 'triage', 'read'] as const) {
    fake.addCollaborator(`${role}-user`, role)
  }
  fake.addCollaborator('renovate[bot]', 'write', 'Bot')
  tracker = new GitHubApi({
    token: 't',
    apiUrl: fake.url,
    owner: 'octo-org',
    repo: 'demo',
    states: [],
    secondMs: 1
  })
})

afterAll(async () => {
  expect(fake.violations).toEqual([])
  await fake.stop()
})

describe('authorizeActor', () => {
  it.each(['admin', 'maintain', 'write'])('allows a collaborator with %s', async (role) => {
    expect(await authorizeActor({ tracker, actor: `${role}-user`, actorType: 'User' })).toEqual({
      allowed: true
    })
  })

  it.each(['triage', 'read'])('denies a collaborator with %s, naming it', async (role) => {
    expect(await authorizeActor({ tracker, actor: `${role}-user` })).toEqual({
      allowed: false,
      reason: `@${role}-user has ${role} permission on this repository; stages need write, maintain or admin`
    })
  })

  it('denies someone who is not a collaborator', async () => {
    expect(await authorizeActor({ tracker, actor: 'outsider' })).toEqual({
      allowed: false,
      reason:
        '@outsider is not a collaborator on this repository; stages need write, maintain or admin'
    })
  })

  it('denies bots, by login or by type, even with write access', async () => {
    const before = fake.requests.length
    for (const [actor, actorType] of [
      ['renovate[bot]', undefined],
      ['renovate[bot]', 'Bot'],
      ['write-user', 'Bot']
    ] as const) {
      const result = await authorizeActor({ tracker, actor, actorType })
      expect(result).toEqual({
        allowed: false,
        reason: `@${actor} is a bot and not in the allowed bots; add it there to let it start stages`
      })
    }
    expect(fake.requests.length).toBe(before)
  })

  it('allows a listed bot, matching its login exactly but in any case', async () => {
    const allowedBots = ['Renovate[bot]']
    expect(await authorizeActor({ tracker, actor: 'renovate[bot]', allowedBots })).toEqual({
      allowed: true
    })
    expect(
      await authorizeActor({ tracker, actor: 'renovate-fork[bot]', actorType: 'Bot', allowedBots })
    ).toMatchObject({ allowed: false })
    expect(
      await authorizeActor({ tracker, actor: 'renovate', actorType: 'Bot', allowedBots })
    ).toMatchObject({ allowed: false })
  })

  it('denies an event without an actor', async () => {
    expect(await authorizeActor({ tracker, actor: '' })).toEqual({
      allowed: false,
      reason: 'the event names no actor to authorise'
    })
  })
})
