// `itervox-handoff reconcile` against the loopback fake GitHub (on a bare origin, for the claim
// refs), in a repository that `init` set up. One run per exit status (0, 1, 2) goes through the
// bundle; the rest run in-process.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { FakeGitHub } from '../harness/fake-github.js'
import { cleanup, makeOrigin } from '../git/repos.js'
import { cliFromSource as cli, git, repoWith } from './helpers.js'
import { cliInProcess } from './in-process.js'

const TOKEN = 'ghp_reconcile_test_token'

let repo: string
let fake: FakeGitHub

beforeAll(async () => {
  repo = repoWith({})
  expect((await cliInProcess(repo, ['init'])).code).toBe(0)
  git(repo, 'remote', 'add', 'origin', 'https://github.com/octo-org/demo.git')
})

beforeEach(async () => {
  fake = await new FakeGitHub({ token: TOKEN, originDir: makeOrigin().dir }).start()
})

afterEach(async () => {
  expect(fake.violations).toEqual([])
  await fake.stop()
  cleanup()
})

const reconcile = (args: string[] = [], env: Record<string, string> = {}, run = cliInProcess) =>
  run(repo, ['reconcile', ...args], { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: fake.url, ...env })

describe('itervox-handoff reconcile', () => {
  it('prints what a dry run would start, then starts it once', async () => {
    fake.addCollaborator('ada', 'write')
    const n = fake.addIssue({ labeller: 'ada', title: 'x', labels: ['todo'] })
    fake.addIssue({ title: 'y', labels: ['bug'] })
    const dry = await reconcile(['--dry-run'])
    expect(dry.stderr).toBe('')
    expect(dry.stdout).toMatch(
      /^#1 Todo: would start Todo, entry 1 \(no stage started on entering "Todo"\)\nreconcile: 1 issue looked at, 1 would start, \d+ requests\n$/
    )
    expect(fake.dispatches).toEqual([])

    const r = await reconcile([], { GITHUB_TOKEN: '', GH_TOKEN: TOKEN }, cli)
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/reconcile: 1 issue looked at, 1 stage started, \d+ requests\n$/)
    expect(fake.dispatches).toEqual([
      { eventType: 'itervox-handoff', clientPayload: { issue: String(n), state: 'Todo', entry: 1 } }
    ])
    const again = await reconcile(['--repo', 'octo-org/demo'])
    expect(again.stdout).toMatch(/another reconcile started Todo, entry 1/)
    expect(fake.dispatches).toHaveLength(1)
  })

  it('says what to change without a token or with a bad --repo', async () => {
    const none = await reconcile([], { GITHUB_TOKEN: '' }, cli)
    expect(none.code).toBe(1)
    expect(none.stderr).toMatch(/^reconcile: no token; set GITHUB_TOKEN or GH_TOKEN/)
    const bad = await reconcile(['--repo', 'demo'], {}, cli)
    expect(bad.code).toBe(2)
    expect(bad.stderr.trim().split('\n').at(-1)).toMatch(/--repo takes OWNER\/NAME, not "demo"/)
  })
})
