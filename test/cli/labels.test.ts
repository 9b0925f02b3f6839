// `itervox-handoff labels` against the loopback fake GitHub, whose every request is checked
// against GitHub's OpenAPI description, in a repository that `init` set up.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { FakeGitHub, FAULTS } from '../harness/fake-github.js'
import { cliFromSource as cli, git, repoWith } from './helpers.js'
import { cliInProcess } from './in-process.js'

const TOKEN = 'ghp_labels_test_token'
const LIST = 'GET /repos/{owner}/{repo}/labels/{name}'
const CREATE = 'POST /repos/{owner}/{repo}/labels'
const WORKFLOW_PERMISSIONS = 'GET /repos/{owner}/{repo}/actions/permissions/workflow'

const ALL = [
  'Todo',
  'Implementing',
  'Reviewing',
  'Done',
  'Blocked',
  'needs-input',
  'needs-attention'
]

let repo: string
let fake: FakeGitHub

beforeAll(async () => {
  repo = repoWith({})
  expect((await cliInProcess(repo, ['init'])).code).toBe(0)
  git(repo, 'remote', 'add', 'origin', 'git@github.com:octo-org/demo.git')
})

beforeEach(async () => {
  fake = await new FakeGitHub({ token: TOKEN }).start()
})

afterEach(async () => {
  expect(fake.violations).toEqual([])
  await fake.stop()
})

const labelsBy =
  (run: typeof cli) =>
  (args: string[] = [], env: Record<string, string> = {}) =>
    run(repo, ['labels', ...args], { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: fake.url, ...env })
// In-process, but for one run through the bundle per exit status (0, 1 and 2).
const labels = labelsBy(cliInProcess)
const labelsBundled = labelsBy(cli)

describe('itervox-handoff labels', () => {
  it('creates the missing state labels and says what to change in the settings', async () => {
    fake.addLabel('todo', 'ededed', 'made by hand')
    const dry = await labels(['--dry-run'])
    expect(dry.stdout.split('\n').slice(0, ALL.length)).toEqual([
      'exists       Todo',
      ...ALL.slice(1).map((l) => `would create ${l}`)
    ])
    expect(fake.requestsTo(CREATE)).toEqual([])

    const r = await labelsBundled()
    expect(r.stderr).toBe('')
    expect(r.stdout).toBe(
      [
        'exists       Todo',
        ...ALL.slice(1).map((l) => `created      ${l}`),
        '',
        'Settings of octo-org/demo:',
        'ok           GitHub Actions is enabled and may run any action',
        'change       GitHub Actions may not create pull requests, so a stage cannot open its draft pull request with GITHUB_TOKEN: in Settings → Actions → General → Workflow permissions, tick "Allow GitHub Actions to create and approve pull requests" (not needed with a GitHub App token)',
        'ok           default workflow permissions are read-only: either works, the workflow asks for the permissions it needs',
        ''
      ].join('\n')
    )
    expect(r.code).toBe(1)
    expect(fake.findLabel('Todo')).toMatchObject({ name: 'todo', description: 'made by hand' })
    expect(fake.findLabel('Implementing')).toMatchObject({
      color: '1d76db',
      description: 'itervox state: adding this label runs its pipeline stage'
    })
    expect(fake.findLabel('Blocked')).toMatchObject({ description: 'itervox state' })
    expect(fake.findLabel('needs-attention')?.description).toContain('needs a person')

    // Once the setting is on and every label is there, nothing is left to do.
    fake.actionsSettings.canApprovePullRequestReviews = true
    const again = await labelsBundled(['--repo', 'octo-org/demo'])
    expect(again.code).toBe(0)
    expect(again.stdout).toContain(ALL.map((l) => `exists       ${l}\n`).join(''))
    expect(again.stdout).toContain('ok           GitHub Actions may create pull requests\n')
  })

  it('says what it cannot read, and what the Actions policy blocks', async () => {
    for (const l of ALL) fake.addLabel(l)
    fake.fail(WORKFLOW_PERMISSIONS, FAULTS.notAccessible())
    fake.actionsSettings.allowedActions = 'local_only'
    fake.actionsSettings.shaPinningRequired = true
    const r = await labels([], { GITHUB_TOKEN: '', GH_TOKEN: TOKEN })
    expect(r.code).toBe(1)
    expect(r.stdout.split('Settings of octo-org/demo:\n')[1]).toBe(
      [
        "change       only this repository's own actions may run: in Settings → Actions → General, allow itervox/handoff-action and actions/checkout",
        'change       actions must be pinned to full commit SHAs: replace @v1 and @v6 in .github/workflows/itervox.yml by the commits those tags point at',
        'check        cannot read whether workflows may open pull requests (403 Resource not accessible by integration; it takes admin on the repository): look in Settings → Actions → General',
        ''
      ].join('\n')
    )
    fake.actionsSettings.enabled = false
    fake.actionsSettings.canApprovePullRequestReviews = true
    const off = await labels()
    expect(off.stdout).toContain(
      'change       GitHub Actions is disabled for octo-org/demo: in Settings → Actions → General, allow actions to run\n'
    )
  })

  it('reads without a token for --dry-run, which creates nothing', async () => {
    // GitHub shows a public repository's labels to anyone.
    const open = await new FakeGitHub().start()
    try {
      open.addLabel('Todo')
      const env = { GITHUB_TOKEN: '', GITHUB_API_URL: open.url }
      const dry = await cliInProcess(repo, ['labels', '--dry-run'], env)
      expect(dry.stderr).toBe('')
      expect(dry.stdout.split('\n').slice(0, ALL.length)).toEqual([
        'exists       Todo',
        ...ALL.slice(1).map((l) => `would create ${l}`)
      ])
      expect(open.violations).toEqual([])
    } finally {
      await open.stop()
    }
    // A private one, or an API that wants a token, says which to set.
    const asked = await labels(['--dry-run'], { GITHUB_TOKEN: '' })
    expect([asked.code, asked.stderr]).toEqual([
      1,
      'labels: GitHub asks for a token (401 Bad credentials); set GITHUB_TOKEN or GH_TOKEN to a valid token\n'
    ])
  })

  it('ends every mistake in one line that says what to change', async () => {
    // A port nothing listens on: a fake started and stopped.
    const gone = await new FakeGitHub().start()
    const closed = gone.url
    await gone.stop()
    const noOrigin = repoWith({})
    expect((await cliInProcess(noOrigin, ['init', '--tracker', 'local'])).code).toBe(0)
    fake.fail(CREATE, FAULTS.notAccessible())
    const cases: [() => ReturnType<typeof labels>, number, string][] = [
      [
        () => labels([], { GITHUB_TOKEN: '' }),
        1,
        'labels: no token; set GITHUB_TOKEN or GH_TOKEN to one with Issues: write on the repository (e.g. GH_TOKEN=$(gh auth token))'
      ],
      [
        () => labels([], { GITHUB_TOKEN: 'ghp_wrong' }),
        1,
        'labels: GitHub refused the token (401 Bad credentials); set GITHUB_TOKEN or GH_TOKEN to a valid token'
      ],
      [
        () => labels(['--repo', 'octo-org/elsewhere']),
        1,
        "labels: octo-org/elsewhere not found, or the token cannot see it (404 Not Found); check --repo (or git remote origin) and the token's access"
      ],
      [
        () => labelsBundled(['--repo', 'https://github.com/octo-org/demo']),
        2,
        'labels: --repo takes OWNER/NAME, not "https://github.com/octo-org/demo"'
      ],
      [
        () => labels(),
        1,
        'labels: GitHub refused to create the label "Todo" in octo-org/demo (403 Resource not accessible by integration); the token needs Issues: write (a fine-grained token) or the repo scope (a classic one)'
      ],
      [
        () => cliInProcess(noOrigin, ['labels'], { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: fake.url }),
        2,
        'labels: no --repo given and no git remote "origin" here; pass --repo OWNER/NAME'
      ],
      [
        () => labels([], { GITHUB_API_URL: closed }),
        1,
        `labels: cannot reach the GitHub API at ${closed}: the connection was refused (ECONNREFUSED); check your connection, or GITHUB_API_URL`
      ]
    ]
    for (const [run, code, line] of cases) {
      const r = await run()
      expect([r.code, r.stderr.trim().split('\n').pop()]).toEqual([code, line])
    }
    expect(fake.requestsTo(LIST).length).toBeGreaterThan(0)
  })
})
