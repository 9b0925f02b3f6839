import { describe, expect, it } from '@jest/globals'
import type { Trigger } from '../../src/action/event.js'
import type { Settings } from '../../src/action/inputs.js'
import { stageStart } from '../../src/action/stage-start.js'
import { UserError } from '../../src/errors.js'

const settings = {
  workspace: '/work/demo',
  serverUrl: 'https://github.com',
  repository: { owner: 'octo-org', repo: 'demo' },
  token: 'ghs_test_token'
} as Settings

const run = (o: Partial<Extract<Trigger, { kind: 'run' }>> = {}): Trigger => ({
  kind: 'run',
  source: 'label',
  issue: '7',
  actor: { login: 'ada', type: 'User' },
  defaultBranch: 'main',
  ...o
})

describe('stageStart', () => {
  it('fetches the default branch and the issue branch, from the repository the job is for', () => {
    expect(stageStart(settings, run())).toMatchObject({
      kind: 'run',
      issueNumber: '7',
      defaultBranch: 'main',
      fetch: {
        repo: '/work/demo',
        branches: ['main', 'itervox/7'],
        remoteUrl: 'https://github.com/octo-org/demo.git',
        auth: { serverUrl: 'https://github.com', token: 'ghs_test_token' }
      }
    })
  })

  it("names a Linear issue's branch by its key, and a pull request's by its head", () => {
    expect(stageStart(settings, run({ issue: 'ENG-12' }))).toMatchObject({
      fetch: { branches: ['main', 'itervox/eng/12'] }
    })
    const pr = { number: 7, headRef: 'feature/csv', fork: false }
    expect(stageStart(settings, run({ pullRequest: pr }))).toMatchObject({
      fetch: { branches: ['main', 'feature/csv'] }
    })
  })

  it('fetches only the default branch when the head is no branch name git takes', () => {
    const pr = { number: 7, headRef: 'x..y', fork: false }
    expect(stageStart(settings, run({ pullRequest: pr }))).toMatchObject({
      fetch: { branches: ['main'] }
    })
  })

  it('passes on what the event says is no stage, and denies a head in a fork', () => {
    const skip: Trigger = { kind: 'skip', reason: 'not a state label' }
    expect(stageStart(settings, skip)).toEqual(skip)
    const pr = { number: 7, headRef: 'patch-1', fork: true }
    expect(stageStart(settings, run({ pullRequest: pr }))).toMatchObject({ kind: 'deny' })
  })

  it.each([
    ['a payload without a default branch', run({ defaultBranch: undefined }), /no default branch/]
  ])('refuses %s with a UserError', (_, trigger, message) => {
    expect(() => stageStart(settings, trigger)).toThrow(UserError)
    expect(() => stageStart(settings, trigger)).toThrow(message)
  })
})
