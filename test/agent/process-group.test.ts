import { describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { CpuMeter } from '../../src/agent/liveness.js'
import {
  endGroup,
  groupAlive,
  groupPids,
  groupProcesses,
  signalGroup
} from '../../src/agent/process-group.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Starts a shell script as the leader of a new process group; returns its pgid. */
function startGroup(script: string): number {
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' })
  child.unref()
  return child.pid as number
}

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await sleep(25)
}

describe('process groups', () => {
  it('lists every live process of a group, and nothing after it is ended', async () => {
    const pgid = startGroup('sleep 30 & sleep 30 & wait')
    await until(() => groupPids(pgid).length === 3)
    expect(groupPids(pgid)).toContain(pgid)
    expect(groupPids(pgid)).toHaveLength(3)
    expect(groupAlive(pgid)).toBe(true)
    expect(await endGroup(pgid, 200)).toEqual([])
    expect(groupPids(pgid)).toEqual([])
    expect(groupAlive(pgid)).toBe(false)
  })

  it('escalates to SIGKILL for processes that ignore SIGTERM', async () => {
    const pgid = startGroup("trap '' TERM; sleep 30 & sleep 30 & wait; wait")
    await until(() => groupPids(pgid).length === 3)
    signalGroup(pgid, 'SIGTERM')
    await sleep(200)
    expect(groupPids(pgid)).toHaveLength(3)
    expect(await endGroup(pgid, 100)).toEqual([])
    expect(groupAlive(pgid)).toBe(false)
  })

  it('does not count a zombie as alive', async () => {
    // `exec` replaces the shell with a process that never reaps the short-lived child.
    const pgid = startGroup('sleep 0.05 & exec sleep 30')
    await sleep(400)
    expect(groupPids(pgid)).toEqual([pgid])
    await endGroup(pgid, 200)
  })

  it('ending a group that is already gone is a no-op', async () => {
    const pgid = startGroup('exit 0')
    await until(() => !groupAlive(pgid))
    expect(await endGroup(pgid, 100)).toEqual([])
  })
})

describe('CpuMeter', () => {
  it('sees a busy group as busy and an idle one as idle', async () => {
    const busy = startGroup('while :; do :; done')
    const idle = startGroup('exec sleep 30')
    const busyMeter = new CpuMeter(() => groupProcesses(busy), Date.now())
    const idleMeter = new CpuMeter(() => groupProcesses(idle), Date.now())
    await sleep(100)
    idleMeter.busy(Date.now()) // the first sample includes the process's start-up
    await sleep(300)
    expect(busyMeter.busy(Date.now())).toBe(true)
    expect(idleMeter.busy(Date.now())).toBe(false)
    await Promise.all([endGroup(busy, 100), endGroup(idle, 100)])
  })
})
