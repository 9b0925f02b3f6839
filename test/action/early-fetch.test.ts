import { afterAll, describe, expect, it } from '@jest/globals'
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { startEarlyFetch } from '../../src/action/early-fetch.js'
import { jobTrigger, readEvent, triggerFromEvent } from '../../src/action/event.js'
import { readSettings } from '../../src/action/inputs.js'
import { stageStart } from '../../src/action/stage-start.js'
import { EVENT_NAME, makeEvent, writeEvent, type EventOptions } from '../harness/events.js'
import { cleanup, makeOrigin, sh, shallowCheckout, tmp } from '../git/repos.js'

afterAll(cleanup)

/** A runner's environment for a label event on issue 7, in `workspace`. */
function jobEnv(
  workspace: string,
  o: EventOptions = {},
  more: Record<string, string> = {}
): NodeJS.ProcessEnv {
  const event = o.head ? 'pull_request.labeled' : o.inputs ? 'workflow_dispatch' : 'issues.labeled'
  return {
    'INPUT_GITHUB-TOKEN': 'ghs_test_token',
    GITHUB_REPOSITORY: 'octo-org/demo',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_WORKSPACE: workspace,
    GITHUB_EVENT_NAME: EVENT_NAME[event],
    GITHUB_EVENT_PATH: writeEvent(
      tmp('event-'),
      makeEvent(event, { issue: 7, label: 'Todo', sender: 'ada', ...o })
    ),
    ...more
  }
}

/** The plan the stage itself makes from the same environment. */
function stagePlan(env: NodeJS.ProcessEnv) {
  const s = readSettings(env)
  const start = stageStart(s, triggerFromEvent(s.eventName, readEvent(s.eventPath), {}))
  if (start.kind !== 'run') throw new Error(`no stage: ${start.reason}`)
  return start.fetch
}

/** The early fetch as the light entry starts it: with the trigger it read. */
const startIn = (env: NodeJS.ProcessEnv) => startEarlyFetch(env, jobTrigger(env))

/** A checkout of an origin that also has the issue's branch, and the early fetch begun there. */
function startedOnIssueBranch() {
  const origin = makeOrigin()
  const work = shallowCheckout(origin)
  sh(origin.dir, 'branch', 'itervox/7', 'main')
  const env = jobEnv(work)
  const early = startIn(env)
  expect(early).toBeDefined()
  return { origin, work, env, early }
}

describe('startEarlyFetch', () => {
  it("fetches the stage's branches before the stage asks, for exactly the stage's plan", async () => {
    const { origin, work, env, early } = startedOnIssueBranch()
    await early?.started
    const plan = stagePlan(env)
    expect(await early?.take(plan)).toEqual({
      remote: 'origin',
      asked: ['main', 'itervox/7'],
      present: ['main', 'itervox/7']
    })
    expect(sh(work, 'rev-parse', 'refs/remotes/origin/itervox/7')).toBe(origin.main)
    // Another plan (other branches, another token) is not this fetch's to answer.
    await expect(early?.take({ ...plan, branches: ['main'] })).resolves.toBeUndefined()
    const token = { ...plan, auth: { ...plan.auth, token: 'ghs_other' } }
    await expect(early?.take(token)).resolves.toBeUndefined()
  })

  it.each<[string, (work: string) => NodeJS.ProcessEnv]>([
    ['reconcile mode', (w) => jobEnv(w, {}, { INPUT_MODE: 'reconcile' })],
    ['an empty token', (w) => jobEnv(w, {}, { 'INPUT_GITHUB-TOKEN': '' })],
    ['a pull request from a fork', (w) => jobEnv(w, { head: 'patch-1', headRepo: 'eve/demo' })],
    [
      'an issue that is no number',
      (w) => jobEnv(w, { inputs: { issue: '7; rm' } }, { INPUT_ISSUE: '7; rm' })
    ],
    ['a bad input', (w) => jobEnv(w, {}, { INPUT_CHAIN: 'sometimes' })],
    [
      'an event file that is not there',
      (w) => jobEnv(w, {}, { GITHUB_EVENT_PATH: path.join(w, 'gone.json') })
    ]
  ])('starts nothing for %s, which the stage reports or skips itself', (_, envFor) => {
    const work = shallowCheckout(makeOrigin())
    expect(startIn(envFor(work))).toBeUndefined()
  })

  it('starts nothing in a workspace with no repository, which the stage makes', () => {
    expect(startIn(jobEnv(path.join(tmp(), 'not-yet')))).toBeUndefined()
    // Nor where the workspace cannot be one (a path through a file): the stage says why.
    const file = path.join(tmp(), 'a-file')
    writeFileSync(file, '')
    expect(startIn(jobEnv(path.join(file, 'work')))).toBeUndefined()
  })

  it('lets the program load once the fetch is under way, before it ends', async () => {
    const origin = makeOrigin()
    const work = shallowCheckout(origin)
    // The remote's side of the second connection (the fetch; the first is the listing)
    // waits for a file the test writes.
    const gate = tmp('gate-')
    writeFileSync(
      path.join(gate, 'upload-pack'),
      `#!/bin/sh
n=$(cat "${gate}/count" 2>/dev/null || echo 0); echo $((n + 1)) > "${gate}/count"
if [ "$n" -ge 1 ]; then while [ ! -e "${gate}/go" ] && [ -d "${gate}" ]; do sleep 0.01; done; fi
exec git-upload-pack "$@"
`,
      { mode: 0o755 }
    )
    sh(work, 'config', 'remote.origin.uploadpack', path.join(gate, 'upload-pack'))
    const env = jobEnv(work)
    const early = startIn(env)
    expect(early).toBeDefined()
    await early?.started
    // The fetch reaches the gate (the remote's second connection) and is held there.
    const connections = () => readFileSync(path.join(gate, 'count'), 'utf8').trim()
    while (connections() !== '2') await new Promise((resolve) => setTimeout(resolve, 10))
    const taken = early?.take(stagePlan(env))
    const pending = new Promise((resolve) => setTimeout(resolve, 50, 'pending'))
    expect(await Promise.race([taken, pending])).toBe('pending')
    writeFileSync(path.join(gate, 'go'), '')
    await expect(taken).resolves.toMatchObject({ present: ['main'] })
  })

  it('answers another plan once the early git has ended, so that the two never run at once', async () => {
    const { origin, work, env, early } = startedOnIssueBranch()
    const other = early?.take({ ...stagePlan(env), branches: ['main'] })
    await expect(other).resolves.toBeUndefined()
    // By then the early fetch had finished its work.
    expect(sh(work, 'rev-parse', 'refs/remotes/origin/itervox/7')).toBe(origin.main)
  })

  it('answers nothing when the fetch failed, so that the stage fetches and reports it', async () => {
    const origin = makeOrigin()
    const work = shallowCheckout(origin)
    renameSync(origin.dir, `${origin.dir}.gone`)
    const env = jobEnv(work)
    const early = startIn(env)
    await early?.started
    expect(early).toBeDefined()
    await expect(early?.take(stagePlan(env))).resolves.toBeUndefined()
  })
})
