// cron and at, as Debian ships them (apt-get install -y cron at), against the agent user: what
// an agent queues runs after its stage, as it, unless the action bars it and empties its spool.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import type { AgentUser } from '../../src/isolation/agent-user.js'
import { startIsolation } from '../../src/isolation/sandbox.js'
import { sharedDir } from '../harness/action-run.js'
import {
  asRoot,
  createUser,
  deleteUser,
  ensureCronAndAt,
  requirePrivilege,
  runAs
} from './throwaway-user.js'

const users: AgentUser[] = []

beforeAll(() => {
  requirePrivilege()
  ensureCronAndAt()
})

afterAll(() => {
  for (const u of users) deleteUser(u.name)
})

function user(prefix: string): AgentUser {
  const made = createUser(prefix)
  users.push(made)
  return made
}

/** The files of cron's and at's spools that belong to `u`: its crontab and its at jobs. */
function queued(u: AgentUser): string[] {
  return asRoot(['find', '/var/spool/cron', '-type', 'f', '-user', String(u.uid)])
    .split('\n')
    .filter(Boolean)
}

/** How many lines of a deny list name `u`. */
function listed(list: string, u: AgentUser): number {
  return readFileSync(list, 'utf8')
    .split('\n')
    .filter((line) => line === u.name).length
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function until(check: () => boolean, ms: number): Promise<void> {
  const stop = Date.now() + ms
  while (!check()) {
    if (Date.now() > stop) throw new Error('timed out waiting')
    await sleep(200)
  }
}

describe('cron and at, for the agent user', () => {
  it('are barred when a stage starts, and what it queued before is gone', async () => {
    const agent = user('itervox-q')
    // What an agent of an earlier stage queued, before this defence.
    expect(runAs(agent, ['crontab', '-'], '* * * * * true\n').status).toBe(0)
    expect(runAs(agent, ['at', 'now + 1 hour'], 'true\n').status).toBe(0)
    expect(queued(agent)).toHaveLength(2)

    await startIsolation({ user: agent.name, protect: [] })
    expect(queued(agent)).toEqual([])
    expect(asRoot(['atq'])).not.toContain(agent.name)
    const cron = runAs(agent, ['crontab', '-'], '* * * * * true\n')
    expect([cron.status, cron.stderr]).toEqual([1, expect.stringContaining('not allowed')])
    const at = runAs(agent, ['at', 'now + 1 hour'], 'true\n')
    expect([at.status, at.stderr]).toEqual([1, expect.stringContaining('permission')])
    expect(queued(agent)).toEqual([])

    // Every stage bars it again; the lists name it once.
    await startIsolation({ user: agent.name, protect: [] })
    expect([listed('/etc/cron.deny', agent), listed('/etc/at.deny', agent)]).toEqual([1, 1])
  })

  it('leave a running cron nothing of the agent user to run', async () => {
    const agent = user('itervox-q')
    const other = user('itervox-k')
    const dir = sharedDir()
    const marks = (who: string) => readdirSync(dir).filter((n) => n.startsWith(`${who}-`))
    // Both queue a job for every minute; the other user's waits a moment, so that the agent's
    // job of the same tick, had it one, has left its mark by the time the other's shows.
    for (const [u, job] of [
      [agent, `* * * * * touch ${dir}/agent-$$\n`],
      [other, `* * * * * sleep 2; touch ${dir}/other-$$\n`]
    ] as const) {
      expect(runAs(u, ['crontab', '-'], job).status).toBe(0)
    }
    await startIsolation({ user: agent.name, protect: [] })
    const cron = spawn('/usr/sbin/cron', ['-f'], { stdio: ['ignore', 'ignore', 'pipe'] })
    let said = ''
    cron.stderr.on('data', (d: Buffer) => (said += d.toString()))
    const exited = new Promise((resolve) => cron.once('exit', resolve))
    try {
      // A tick ran users' jobs: the agent's would have run in it.
      await until(() => marks('other').length > 0 || cron.exitCode !== null, 150_000)
      expect([cron.exitCode, said]).toEqual([null, ''])
      expect(marks('agent')).toEqual([])
    } finally {
      if (cron.exitCode === null) cron.kill('SIGTERM')
      await exited
    }
  }, 200_000)
})
