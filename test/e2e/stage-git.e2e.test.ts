// How much git a stage costs the action, pinned: the git processes it starts and the network
// operations among them, for an issue's first stage and a later one. Counts, not times: they
// are the same on every run, so a stray extra call fails here.
import { afterAll, describe, expect, it } from '@jest/globals'
import { renameSync } from 'node:fs'
import { checkoutShallow, runAction, type RunOptions } from '../harness/action-run.js'
import { gitCounter, isNetworkOp, subcommand } from '../harness/git-count.js'
import { wakeUp } from './drive.js'
import { startPipeline, type Pipeline } from './pipeline-fixture.js'

const MAX_GIT = 19
const MAX_NETWORK = 3

let p: Pipeline | undefined
afterAll(() => p?.gh.stop())

describe('the git a stage runs', () => {
  it('stays within 19 processes and 3 network operations, first stage and later', async () => {
    p = await startPipeline({ command: 'generic-agent' })
    checkoutShallow(p.sb)
    const counter = gitCounter()
    const env = { PATH: counter.path(`${p.sb.agentsBin}:${process.env.PATH}`) }
    const run = async (o: RunOptions) => {
      const r = await runAction('main', p!.sb, p!.gh, { ...o, env: { ...env, ...o.env } })
      expect(r.outputs.outcome + r.stdout).toMatch(/^succeeded/)
      return counter.take()
    }
    const first = await run({
      event: 'issues.labeled',
      eventOptions: { issue: p.issue, label: 'Todo', labels: ['Todo'], sender: 'ada', title: 'x' }
    })
    const dispatch = p.gh.dispatches[0]!
    const later = await run({ ...wakeUp(dispatch), env: { GITHUB_RUN_ID: '1002' } })

    for (const calls of [first, later]) {
      const subs = calls.map(subcommand)
      const times = (sub: string) => subs.filter((s) => s === sub).length
      expect({ git: calls.length <= MAX_GIT, subs }).toEqual({ git: true, subs })
      expect(calls.filter(isNetworkOp).length).toBeLessThanOrEqual(MAX_NETWORK)
      // Answers a stage already has are never asked again.
      expect([times('ls-remote'), times('fetch'), times('push')]).toEqual([1, 1, 1])
      expect(times('cat-file')).toBe(1)
      expect(times('check-ref-format') + times('ls-tree')).toBe(0)
      expect(calls.filter((c) => c.includes('--show-object-format'))).toEqual([])
    }
  })

  it("fails in git's words when the remote is gone, having asked it once", async () => {
    const q = await startPipeline({ command: 'generic-agent' })
    checkoutShallow(q.sb)
    renameSync(q.sb.origin, `${q.sb.origin}.gone`)
    const counter = gitCounter()
    const r = await runAction('main', q.sb, q.gh, {
      event: 'issues.labeled',
      eventOptions: { issue: q.issue, label: 'Todo', labels: ['Todo'], sender: 'ada', title: 'x' },
      env: { PATH: counter.path(`${q.sb.agentsBin}:${process.env.PATH}`) }
    })
    await q.gh.stop()
    expect(r.outputs.outcome).toBe('failed')
    // The first line says what starts; then the tokens are masked before anything else is said.
    expect(r.stdout.split('\n').slice(0, 3)).toEqual([
      `itervox handoff starting: issues event, issue #${q.issue}, run 1001 attempt 1`,
      '::add-mask::ghs_test_token',
      `::add-mask::${Buffer.from('x-access-token:ghs_test_token').toString('base64')}`
    ])
    expect(r.stdout).toMatch(/^::error::git ls-remote --heads origin .* failed \(exit 128\)/m)
    expect(r.stdout).not.toMatch(/internal error/)
    expect(
      counter
        .take()
        .map(subcommand)
        .filter((s) => s === 'ls-remote')
    ).toHaveLength(1)
  })
})
