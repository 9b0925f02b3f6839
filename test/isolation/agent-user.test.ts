import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readSettings } from '../../src/action/inputs.js'
import { UserError } from '../../src/errors.js'
import { ensureAgentUser } from '../../src/isolation/agent-user.js'
import type { Privilege } from '../../src/isolation/privilege.js'
import { startIsolation } from '../../src/isolation/sandbox.js'
import { UserProcesses } from '../../src/isolation/user-processes.js'
import {
  asRoot,
  createUser,
  deleteUser,
  groupExists,
  lookUp,
  requirePrivilege,
  spawnAs,
  uniqueName
} from './throwaway-user.js'

let privilege: Privilege
const users: string[] = []
let madeDocker = false

beforeAll(() => {
  privilege = requirePrivilege()
  // Hosted runners have a docker group; a machine without one gets it for this file only.
  if (!groupExists('docker')) {
    asRoot(['groupadd', '--system', 'docker'])
    madeDocker = true
  }
})

afterAll(() => {
  for (const name of users) deleteUser(name)
  if (madeDocker) asRoot(['groupdel', 'docker'])
})

/** The one line a refusal prints. */
async function refusal(name: string): Promise<string> {
  const err = await ensureAgentUser(name, privilege).then(
    () => undefined,
    (e: unknown) => e
  )
  expect(err).toBeInstanceOf(UserError)
  const line = (err as UserError).format()
  expect(line).not.toContain('\n')
  return line
}

describe('ensureAgentUser', () => {
  it('creates a missing user, unprivileged, and finds it the next time', async () => {
    const name = uniqueName('itervox-c')
    users.push(name)
    const made = await ensureAgentUser(name, privilege)
    expect(made).toEqual(lookUp(name))
    expect(made.uid).toBeGreaterThan(0)
    expect(made.gid).toBeGreaterThan(0)
    expect(made.uid).not.toBe(process.getuid?.())
    expect(asRoot(['id', '-Gn', name]).trim()).toBe(name)
    expect(await ensureAgentUser(name, privilege)).toEqual(made)
  })

  it('refuses a user in the sudo group', async () => {
    const user = createUser('itervox-s', ['sudo'])
    users.push(user.name)
    expect(await refusal(user.name)).toBe(
      `agent-user ${user.name} is in the sudo group; give the action an unprivileged user of its own (agent-user input) or remove it so the action creates one`
    )
  })

  it('refuses a user in the docker group', async () => {
    const user = createUser('itervox-d', ['docker'])
    users.push(user.name)
    expect(await refusal(user.name)).toMatch(
      new RegExp(`^agent-user ${user.name} is in the docker group; `)
    )
  })

  it('refuses root', async () => {
    expect(await refusal('root')).toMatch(/^agent-user root is root; /)
  })

  it('refuses a name that is not a user name, before anything runs', async () => {
    for (const name of ['Agent', 'a b', '../x', 'x;id', '-rf', '']) {
      expect(await refusal(name)).toBe(
        `agent-user "${name}" is not a valid user name; use lower-case letters, digits, - and _`
      )
    }
  })
})

/** The settings of a job on the runner named `runner`, installed in `/opt/<install>`. */
function settingsOn(runner: string, install: string, input: Record<string, string> = {}) {
  return readSettings({
    'INPUT_GITHUB-TOKEN': 'ghs_test',
    GITHUB_REPOSITORY: 'octo-org/demo',
    GITHUB_EVENT_NAME: 'issues',
    GITHUB_EVENT_PATH: '/dev/null',
    RUNNER_NAME: runner,
    RUNNER_TOOL_CACHE: `/opt/${install}/_work/_tool`,
    ...input
  })
}

describe("the default agent user, the runner's own", () => {
  it('is a valid user name of at most 32 characters, the same for every job of one runner', () => {
    const long = settingsOn('GitHub Actions 1000000000000000000', 'a').agentUser
    expect(long).toMatch(/^itervox-github-actions-[0-9a-f]{8}$/)
    expect(settingsOn('GitHub Actions 1000000000000000000', 'a').agentUser).toBe(long)
    expect(settingsOn('', 'a').agentUser).toMatch(/^itervox-agent-[0-9a-f]{8}$/)
    expect(settingsOn('Ünïcode!! runner', 'a').agentUser).toMatch(/^itervox-n-code-runner-/)
    for (const name of [long, settingsOn('--', 'a').agentUser]) {
      expect(name.length).toBeLessThanOrEqual(32)
      expect(name).toMatch(/^[a-z_][a-z0-9_-]{0,31}$/)
    }
  })

  it('differs between two installations that took the same name (the host name, by default)', () => {
    expect(settingsOn('build-host', 'one').agentUser).not.toBe(
      settingsOn('build-host', 'two').agentUser
    )
  })

  it('gives way to a configured agent-user', () => {
    expect(settingsOn('r', 'a', { 'INPUT_AGENT-USER': 'my-agent' }).agentUser).toBe('my-agent')
  })

  it("lets a job on one runner start without ending the agent of another runner's job", async () => {
    const tag = uniqueName('')
    const first = settingsOn(`runner ${tag}`, `runner-1-${tag}`).agentUser
    const second = settingsOn(`runner ${tag}`, `runner-2-${tag}`).agentUser
    users.push(first, second)
    const one = await startIsolation({ user: first, protect: [] })
    const agent = spawnAs(one.user, ['sleep', '300'])
    const processes = new UserProcesses(one.user, privilege)
    try {
      await new Promise((resolve) => agent.once('spawn', resolve))
      expect(processes.members().map((p) => p.pid)).toContain(agent.pid)

      // The second runner's job starts: it ends every process of its own agent user.
      await startIsolation({ user: second, protect: [] })
      expect(processes.members().map((p) => p.pid)).toContain(agent.pid)
    } finally {
      await processes.end(0)
    }
  })
})
