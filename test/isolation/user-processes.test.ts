import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync, statSync } from 'node:fs'
import type { AgentUser } from '../../src/isolation/agent-user.js'
import type { Privilege } from '../../src/isolation/privilege.js'
import { UserProcesses } from '../../src/isolation/user-processes.js'
import { sharedDir, sharedFile } from '../harness/action-run.js'
import { asRoot, createUser, deleteUser, requirePrivilege, spawnAs } from './throwaway-user.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const stop = Date.now() + ms
  while (!check()) {
    if (Date.now() > stop) throw new Error('timed out waiting')
    await sleep(20)
  }
}

const pidsIn = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number)

function alive(pid: number): boolean {
  try {
    return !/\nState:\tZ/.test(readFileSync(`/proc/${pid}/status`, 'utf8'))
  } catch {
    return false
  }
}

let user: AgentUser
let privilege: Privilege
let processes: UserProcesses

beforeAll(() => {
  privilege = requirePrivilege()
  user = createUser('itervox-p')
  processes = new UserProcesses(user, privilege)
})

// Whatever a test left running goes before the next one starts.
afterEach(() => processes.killNow())

afterAll(async () => {
  await processes.end(0)
  deleteUser(user.name)
})

describe('UserProcesses, for every process of the agent user', () => {
  it('ends a setsid straggler that double forked and ignores SIGTERM', async () => {
    const pids = sharedFile(sharedDir(), 'pids')
    // The shell leaves a new session whose leader starts an orphan, then both wait.
    spawnAs(user, [
      'sh',
      '-c',
      `setsid sh -c 'trap "" TERM; (sleep 300 & echo $! >> ${pids}); echo $$ >> ${pids}; exec sleep 300' < /dev/null > /dev/null 2>&1 & exit 0`
    ])
    await until(() => pidsIn(pids).length === 2 && pidsIn(pids).every(alive))
    const [leader = 0, orphan = 0] = pidsIn(pids)
    expect(processes.members().map((p) => p.pid)).toEqual(expect.arrayContaining([leader, orphan]))
    asRoot(['kill', '-TERM', '--', String(leader), String(orphan)])
    await sleep(200)
    expect(alive(leader) && alive(orphan)).toBe(true)

    expect(await processes.end(200)).toEqual([])
    expect(processes.members()).toEqual([])
    expect(alive(leader) || alive(orphan)).toBe(false)
  })

  it('sees a process that made itself non-dumpable, whose /proc files turn to root', async () => {
    const pids = sharedFile(sharedDir(), 'pids')
    const script = `require "syscall.ph"; syscall(&SYS_prctl, 4, 0, 0, 0, 0) == 0 or die "prctl: $!"; open my $f, ">>", $ARGV[0] or die; print $f "$$\\n"; close $f; sleep 300`
    spawnAs(user, ['perl', '-e', script, pids])
    await until(() => pidsIn(pids).length === 1)
    const [pid = 0] = pidsIn(pids)
    // PR_SET_DUMPABLE 0: the process's files in /proc are root's now, no longer the user's.
    expect(statSync(`/proc/${pid}/status`).uid).toBe(0)
    expect(processes.members().map((p) => p.pid)).toContain(pid)
    expect(processes.alive()).toBe(true)

    expect(await processes.end(200)).toEqual([])
    expect(alive(pid)).toBe(false)
  })

  it('ends a chain of forks, each gone as soon as it started the next, which a scan can miss', async () => {
    const beats = sharedFile(sharedDir(), 'beats')
    const chain = `$SIG{TERM} = "IGNORE"; while (1) { open my $f, ">>", $ARGV[0]; print $f "."; close $f; exit if fork; select(undef, undef, undef, 0.001) }`
    spawnAs(user, ['perl', '-e', chain, beats])
    const size = () => statSync(beats).size
    await until(() => size() > 20)

    await processes.end(100)
    const after = size()
    await sleep(300)
    expect(size()).toBe(after)
  })

  it("cannot be held up by a process that stops and reads whatever runs as the user, nor shows it the action's environment", async () => {
    const seen = sharedFile(sharedDir(), 'seen')
    // Over and over: SIGSTOP to every other process of the user, never a SIGCONT, and the
    // environment of each new one kept.
    const freezer = `$SIG{TERM} = "IGNORE"; my %seen = ($$ => 1); while (1) { kill "STOP", -1; opendir my $d, "/proc" or next; for my $p (grep { /^\\d+$/ && !$seen{$_} } readdir $d) { open my $e, "<", "/proc/$p/environ" or next; local $/; my $env = <$e> // ""; $seen{$p} = 1; open my $o, ">>", $ARGV[0]; print $o "$p $env\\n"; close $o } }`
    spawnAs(user, ['perl', '-e', freezer, seen])
    await until(() => processes.alive())
    const secret = 'ghs_the_action_holds_this'
    process.env.ITERVOX_TEST_SECRET = secret
    try {
      const started = Date.now()
      expect(await processes.end(200)).toEqual([])
      expect(Date.now() - started).toBeLessThan(10_000)
    } finally {
      delete process.env.ITERVOX_TEST_SECRET
    }
    expect(processes.members()).toEqual([])
    expect(readFileSync(seen, 'utf8')).not.toContain(secret)
  })

  it('killNow ends them all at once, synchronously', async () => {
    const pids = sharedFile(sharedDir(), 'pids')
    spawnAs(user, ['sh', '-c', `trap "" TERM; sleep 300 & echo $! >> ${pids}; exec sleep 300`])
    await until(() => pidsIn(pids).length === 1)
    processes.killNow()
    await until(() => !processes.alive(), 2000)
    expect(pidsIn(pids).some(alive)).toBe(false)
  })

  it('ending a user with no process is quick and harmless', async () => {
    const started = Date.now()
    expect(await processes.end(1000)).toEqual([])
    expect(Date.now() - started).toBeLessThan(3000)
  })
})
