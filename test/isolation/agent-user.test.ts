import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { UserError } from '../../src/errors.js'
import { ensureAgentUser } from '../../src/isolation/agent-user.js'
import type { Privilege } from '../../src/isolation/privilege.js'
import {
  asRoot,
  createUser,
  deleteUser,
  groupExists,
  lookUp,
  requirePrivilege,
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
