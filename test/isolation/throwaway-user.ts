// Unix users made for one test file and deleted after it, through root or `sudo -n` (CI's
// runner user has passwordless sudo), like the action's own isolation.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import type { AgentUser } from '../../src/isolation/agent-user.js'
import { findPrivilege, type Privilege } from '../../src/isolation/privilege.js'

const root = () => process.getuid?.() === 0

/** `argv` run as root: directly when we are root, through `sudo -n` otherwise. */
export function asRoot(argv: string[]): string {
  const [file = '', ...args] = root() ? argv : ['sudo', '-n', '--', ...argv]
  return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

/** The action's way to act as root here; these tests cannot run without one. */
export function requirePrivilege(): Privilege {
  const found = findPrivilege()
  if (!found) throw new Error('these tests need root or passwordless sudo')
  return found
}

/**
 * sudo itself, installed when the image lacks it (a hosted runner has it; a fresh container may
 * not), and never a reason to skip. Files in two jest workers may ask at once, and apt refuses a
 * second install while one holds its lock, so the check and the install run under one flock.
 */
export function ensureSudo(): void {
  if (existsSync('/usr/bin/sudo')) return
  const install =
    '[ -x /usr/bin/sudo ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sudo; }'
  try {
    execFileSync('flock', ['/tmp/itervox-handoff-apt.lock', 'sh', '-c', install], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe']
    })
  } catch (e) {
    const said = (e as { stderr?: string }).stderr ?? String(e)
    throw new Error(`these tests need sudo and apt-get install -y sudo failed:\n${said}`, {
      cause: e
    })
  }
  if (!existsSync('/usr/bin/sudo')) throw new Error('apt-get install -y sudo left no /usr/bin/sudo')
}

/** cron and at (Debian's), installed when missing, under the lock ensureSudo takes for apt. */
export function ensureCronAndAt(): void {
  const install =
    '[ -x /usr/sbin/cron ] && [ -x /usr/bin/at ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cron at; }'
  asRoot(['flock', '/tmp/itervox-handoff-apt.lock', 'sh', '-c', install])
}

/** A name no user or group has: `prefix` and random hex, at most 32 characters. */
export function uniqueName(prefix: string): string {
  return `${prefix}${randomBytes(4).toString('hex')}`.slice(0, 32)
}

/** The user's /etc/passwd entry; throws for one that is not there. */
export function lookUp(name: string): AgentUser {
  const entry = entryOf('/etc/passwd', name)
  const [, , uid = '', gid = '', , home = ''] = entry.split(':')
  return { name, uid: Number(uid), gid: Number(gid), home }
}

function entryOf(file: string, name: string): string {
  const entry = readFileSync(file, 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`${name}:`))
  if (!entry) throw new Error(`${name} is not in ${file}`)
  return entry
}

/** A system user with its own group and no login shell; `groups` are extra groups. */
export function createUser(prefix: string, groups: string[] = []): AgentUser {
  const name = uniqueName(prefix)
  asRoot([
    'useradd',
    '--system',
    '--user-group',
    '--create-home',
    '--shell',
    '/usr/sbin/nologin',
    ...(groups.length ? ['--groups', groups.join(',')] : []),
    name
  ])
  return lookUp(name)
}

/**
 * Deletes the user, its home, its group, its crontab and at jobs, and its name in the deny lists
 * the action puts it on; one that is gone already is fine.
 */
export function deleteUser(name: string): void {
  try {
    asRoot(['find', '/var/spool/cron', '-type', 'f', '-user', name, '-delete'])
  } catch {
    // no such user, or no spool
  }
  try {
    asRoot(['userdel', '-r', name])
  } catch {
    // not there, or its home was not
  }
  const lists = ['/etc/cron.deny', '/etc/at.deny'].filter((f) => existsSync(f))
  if (lists.length > 0) asRoot(['sed', '-i', `/^${name}$/d`, ...lists])
}

/** Whether a group of that name exists. */
export function groupExists(name: string): boolean {
  try {
    return entryOf('/etc/group', name) !== ''
  } catch {
    return false
  }
}

/** Runs `argv` as `user` with `input` on stdin, to its end: what it said and its exit code. */
export function runAs(
  user: AgentUser,
  argv: string[],
  input = ''
): { status: number | null; stdout: string; stderr: string } {
  const [file = '', ...args] = root() ? argv : ['sudo', '-n', '-u', user.name, '--', ...argv]
  return spawnSync(file, args, {
    input,
    encoding: 'utf8',
    cwd: '/',
    env: { PATH: '/usr/bin:/bin' },
    ...(root() ? { uid: user.uid, gid: user.gid } : {})
  })
}

/** Starts `argv` as `user`, detached and with no stdio, the way a stray agent process lives. */
export function spawnAs(user: AgentUser, argv: string[]): ChildProcess {
  const [file = '', ...args] = root() ? argv : ['sudo', '-n', '-u', user.name, '--', ...argv]
  const child = spawn(file, args, {
    stdio: 'ignore',
    detached: true,
    env: { PATH: '/usr/bin:/bin' },
    ...(root() ? { uid: user.uid, gid: user.gid } : {})
  })
  child.unref()
  return child
}
