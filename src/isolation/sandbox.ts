import { realpathSync, statSync } from 'node:fs'
import path from 'node:path'
import type { AgentSandbox } from '../agent/types.js'
import { UserError } from '../errors.js'
import { ensureAgentUser, lookUser, type AgentUser } from './agent-user.js'
import { handOver, putBackLeft, takeBack, type HandedOver, type TakenBack } from './agent-tree.js'
import { leftBehind, storeOf } from './in-place.js'
import { findPrivilege, systemProgram, type Privilege } from './privilege.js'
import { closeToOthers } from './runner-paths.js'
import { barSchedules } from './schedules.js'
import { UserProcesses } from './user-processes.js'

/** `user`: the agent runs as a second Unix user (the default); `none`: as the runner's. */
export type IsolationMode = 'user' | 'none'

export interface Isolation {
  privilege: Privilege
  user: AgentUser
  /** The runner's folders closed to other users for the stage. */
  closed: string[]
}

/**
 * Once per job: root or `sudo -n`, the agent user, the runner's folders closed to it, and
 * nothing of an earlier job's agent still running or queued.
 */
export async function startIsolation(o: { user: string; protect: string[] }): Promise<Isolation> {
  const privilege = findPrivilege()
  if (!privilege) {
    throw new UserError(
      'isolation: user runs the agent as a second Unix user, which needs root or passwordless sudo (sudo -n), and this runner has neither; set isolation: none to run the agent as the runner user, with the job token in its reach'
    )
  }
  const user = await ensureAgentUser(o.user, privilege)
  const closed = await closeToOthers(o.protect)
  await endAgentUser(user, privilege, 1000)
  return { privilege, user, closed }
}

/**
 * Everything the agent user runs or has queued: cron and at first, so that no job of theirs
 * starts once its processes are gone.
 */
export async function endAgentUser(user: AgentUser, p: Privilege, graceMs: number): Promise<void> {
  await barSchedules(user, p)
  await new UserProcesses(user, p).end(graceMs)
}

/**
 * Before anything reads the checkout: a stage whose job was killed with no post step may have
 * left the checkout's objects in the store and its files in the agent's area. They come back,
 * once every process of the agent user is gone. One line saying so, or null when nothing was
 * left (a look at one file).
 */
export async function putBackLeftBehind(name: string): Promise<string | null> {
  const user = lookUser(name)
  if (!user || !(await leftBehind(user))) return null
  const privilege = findPrivilege()
  if (!privilege) {
    throw new UserError(
      `an earlier stage left the checkout's objects in ${storeOf(user)} and this runner has neither root nor sudo -n to put them back; run the job where it ran before, or restore them as root`
    )
  }
  await endAgentUser(user, privilege, 1000)
  return putBackLeft(privilege, user)
}

export interface OpenSandbox {
  sandbox: AgentSandbox
  handedOver: HandedOver
  /** Ends everything of the agent user, then takes its tree back. */
  close(graceMs: number): Promise<TakenBack>
}

/** The agent's tree and HOME handed over, and how to start and end it as the agent user. */
export async function openSandbox(
  iso: Isolation,
  o: {
    repo: string
    branch: string
    baseSha: string
    workDir: string
    homeFiles: { path: string; content: string }[]
    prepareTree?: (tree: string) => Promise<void>
    model: { set: Record<string, string>; unset: string[] }
  }
): Promise<OpenSandbox> {
  const { privilege, user } = iso
  const handedOver = await handOver({ privilege, user, ...o })
  const processes = new UserProcesses(user, privilege)
  const shell = systemProgram('bash') ?? systemProgram('sh') ?? '/bin/sh'
  const envProgram = systemProgram('env') ?? '/usr/bin/env'
  const sandbox: AgentSandbox = {
    home: handedOver.home,
    env: {
      set: {
        ...o.model.set,
        USER: user.name,
        LOGNAME: user.name,
        TMPDIR: path.join(handedOver.home, 'tmp'),
        SHELL: shell
      },
      unset: o.model.unset
    },
    processes,
    cannotRun: (file) => cannotRunAs(file, user.uid),
    launch: (file, args, env, cwd) => {
      if (privilege.kind === 'root') return { file, args, env, cwd, uid: user.uid, gid: user.gid }
      // sudo resets PATH (secure_path) and cannot chdir where the runner user may not look,
      // so `env` sets both; nothing secret goes on the command line.
      return {
        file: privilege.sudo,
        args: [
          '-n',
          '-E',
          '-u',
          user.name,
          '--',
          envProgram,
          '-C',
          cwd,
          ...['SUDO_USER', 'SUDO_UID', 'SUDO_GID', 'SUDO_COMMAND'].flatMap((n) => ['-u', n]),
          `PATH=${env.PATH ?? ''}`,
          `HOME=${env.HOME ?? ''}`,
          file,
          ...args
        ],
        env,
        cwd: '/'
      }
    }
  }
  return {
    sandbox,
    handedOver,
    close: async (graceMs) => {
      await endAgentUser(user, privilege, graceMs)
      return takeBack(privilege, handedOver)
    }
  }
}

/** Why the agent user cannot run `file` (each folder on its way must let it through). */
export function cannotRunAs(file: string, uid: number): string | null {
  const barred =
    'which the agent user cannot run; install the CLI where every user can (npm install -g, /usr/local/bin) or set isolation: none'
  let real: string
  try {
    real = realpathSync(file)
  } catch {
    return barred
  }
  // Its own files by the owner bits, everyone else's by the "other" bits: it shares no group.
  const allows = (p: string, bits: number) => {
    const st = statSync(p)
    return ((st.uid === uid ? st.mode >> 6 : st.mode) & bits) === bits
  }
  const parts = real.split(path.sep)
  for (let i = 1; i < parts.length; i++) {
    if (!allows(parts.slice(0, i).join(path.sep) || '/', 0o1)) return barred
  }
  return allows(real, 0o5) ? null : barred
}
