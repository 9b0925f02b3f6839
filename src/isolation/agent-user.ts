import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { UserError } from '../errors.js'
import { runAsRoot, systemProgram, type Privilege } from './privilege.js'
import { runnerInstallation } from './runner-paths.js'

/** The unprivileged user an isolated agent runs as. */
export interface AgentUser {
  name: string
  uid: number
  gid: number
  home: string
}

/**
 * The agent user when the agent-user input is empty: one of this runner's own. Each job ends
 * every process of its agent user when it starts, so two runners on one host must never share
 * one. Runners take the host's name by default, so the name alone is not enough: a hash of it,
 * the tool cache and the runner's installation tells two installations apart. `itervox-`, at
 * most 14 characters of the runner's name, `-` and 8 hex digits: at most 31 characters, all in
 * useradd's safe set.
 */
export function defaultAgentUser(env: NodeJS.ProcessEnv, execPath = process.execPath): string {
  const runner = env.RUNNER_NAME ?? ''
  const install = [runner, env.RUNNER_TOOL_CACHE ?? '', runnerInstallation(execPath) ?? '']
  const hash = createHash('sha256').update(install.join('\0')).digest('hex').slice(0, 8)
  const slug = runner
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 14)
    .replace(/^-+|-+$/g, '')
  return `itervox-${slug || 'agent'}-${hash}`
}

// Membership in any of these would give the agent back what isolation takes away.
const PRIVILEGED_GROUPS = new Set([
  'root',
  'sudo',
  'admin',
  'wheel',
  'docker',
  'adm',
  'lxd',
  'disk'
])

const NAME = /^[a-z_][a-z0-9_-]{0,31}$/

/**
 * The agent user, created the first time (`useradd --system`, its own group, a home, no
 * login shell) and checked every time: never root, never the runner's own user, in no
 * group that grants power (sudo, docker, adm...) and sharing no group with the runner, so
 * that the runner's files are "other" to it.
 */
export async function ensureAgentUser(name: string, p: Privilege): Promise<AgentUser> {
  if (!NAME.test(name)) {
    throw new UserError(
      `agent-user "${name}" is not a valid user name; use lower-case letters, digits, - and _`
    )
  }
  let user = lookUser(name)
  if (!user) {
    const useradd = systemProgram('useradd')
    if (!useradd) {
      throw new UserError(
        'isolation: user needs useradd to create the agent user and this runner has none; install it (passwd package) or set isolation: none'
      )
    }
    await runAsRoot(
      p,
      [useradd, '--system', '--user-group', '--create-home', '--shell', '/usr/sbin/nologin', name],
      `create the agent user ${name}`
    )
    user = lookUser(name)
    if (!user) throw new Error(`the agent user ${name} was created but cannot be found`)
  }
  const problem = privilegeOf(user)
  if (problem) {
    throw new UserError(
      `agent-user ${name} ${problem}; give the action an unprivileged user of its own (agent-user input) or remove it so the action creates one`
    )
  }
  return user
}

function privilegeOf(user: AgentUser): string | null {
  if (user.uid === 0 || user.gid === 0) return 'is root'
  if (user.uid === process.getuid?.()) return "is the runner's own user"
  const groups = groupsOf(user)
  const strong = groups.find((g) => PRIVILEGED_GROUPS.has(g.name))
  if (strong) return `is in the ${strong.name} group`
  const ours = new Set([process.getgid?.(), ...(process.getgroups?.() ?? [])])
  const shared = groups.find((g) => ours.has(g.gid))
  if (shared) return `shares the group ${shared.name} with the runner's user`
  return null
}

/** The agent user by its name, if it exists (nothing is created). */
export function lookUser(name: string): AgentUser | null {
  for (const line of readLines('/etc/passwd')) {
    const [n, , uid, gid, , home] = line.split(':')
    if (n === name && uid && gid && home) return { name, uid: +uid, gid: +gid, home }
  }
  return null
}

function groupsOf(user: AgentUser): { name: string; gid: number }[] {
  const found: { name: string; gid: number }[] = []
  for (const line of readLines('/etc/group')) {
    const [n = '', , gid = '', members = ''] = line.split(':')
    if (+gid === user.gid || members.split(',').includes(user.name))
      found.push({ name: n, gid: +gid })
  }
  return found
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n')
  } catch {
    return []
  }
}
