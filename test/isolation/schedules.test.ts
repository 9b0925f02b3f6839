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
    // Each job leaves a file named for the minute it ran in (minutes since 1970).
    const marks = (who: string) =>
      readdirSync(dir)
        .filter((n) => n.startsWith(`${who}-`))
        .map((n) => Number(n.slice(who.length + 1)))
    for (const [u, who] of [
      [agent, 'agent'],
      [other, 'other']
    ] as const) {
      const job = `* * * * * touch ${dir}/${who}-$(( $(date +\\%s) / 60 ))\n`
      expect(runAs(u, ['crontab', '-'], job).status).toBe(0)
    }
    const cron = spawn('/usr/sbin/cron', ['-f'], { stdio: ['ignore', 'ignore', 'pipe'] })
    let said = ''
    cron.stderr.on('data', (d: Buffer) => (said += d.toString()))
    const exited = new Promise((resolve) => cron.once('exit', resolve))
    try {
      // The agent's job runs while nothing bars it: cron here runs users' jobs.
      await until(() => marks('agent').length > 0 || cron.exitCode !== null, 150_000)
      expect([cron.exitCode, said]).toEqual([null, ''])

      await startIsolation({ user: agent.name, protect: [] })
      const barred = Math.floor(Date.now() / 60_000)
      // Cron's tick of the next minute started after the bar; the other user's job of the minute
      // after that shows a whole minute has gone by since, for the agent's job to have run in.
      await until(() => marks('other').some((m) => m >= barred + 2), 200_000)
      expect(marks('agent').filter((m) => m > barred)).toEqual([])
    } finally {
      if (cron.exitCode === null) cron.kill('SIGTERM')
      await exited
    }
  }, 400_000)
})
