import { describe, expect, it } from '@jest/globals'
import type { JobTrigger } from '../../src/pipeline/ports.js'
import { job, MemoryWorld, type AgentScript } from '../harness/memory-pipeline.js'
import { seedConfig } from './pipeline-config.js'

const STATES = ['Todo', 'Researching', 'Implementing', 'Reviewing', 'Done', "Won't Do"]
const ada = { login: 'ada', type: 'User' }
const grace = { login: 'grace', type: 'User' }
const bot = { login: 'github-actions[bot]', type: 'Bot' }
const todo: JobTrigger = { source: 'label', issue: '7', actor: ada, label: 'Todo' }
const label = (name: string, actor = grace): JobTrigger => ({
  source: 'label',
  issue: '7',
  actor,
  label: name
})
const comment = (body: string, actor = grace): JobTrigger => ({
  source: 'comment',
  issue: '7',
  actor,
  reply: { body, author: actor.login }
})

function world(script?: AgentScript, gate = true): MemoryWorld {
  const w = new MemoryWorld(seedConfig({ gate }), STATES, script)
  w.labels.set('7', ['Todo'])
  return w
}

let runs = 0
/** One job, then every wake-up it sent, as GitHub would run them. */
async function drive(w: MemoryWorld, first: JobTrigger, o: { paused?: boolean } = {}) {
  const queue = [first]
  const reasons: string[] = []
  while (queue.length > 0) {
    const seen = w.wakeups.length
    const r = await job(w, queue.shift()!, { id: `run${++runs}`, attempt: '1' }, undefined, o)
    reasons.push(r.reason)
    for (const wk of w.wakeups.slice(seen)) {
      queue.push({ source: 'wake', issue: wk.issue, actor: bot, state: wk.state, wake: wk })
    }
  }
  return reasons
}

const ran = (w: MemoryWorld) => w.agentRuns.map((k) => `${k.state}/${k.profile}`)
const addLabel = (w: MemoryWorld, name: string) => w.labels.get('7')!.push(name)

describe('approval gates', () => {
  it('waits, refuses the person who started the pipeline, then runs once another writer approves', async () => {
    const w = world()
    const first = await drive(w, todo)
    expect(ran(w)).toEqual(['Todo/researcher'])
    expect(first.at(-1)).toBe('the implementer stage in "Researching" waits for approval')
    expect(w.record()).toMatchObject({
      startedBy: 'ada',
      approval: { state: 'Researching', entry: 2 }
    })
    expect(w.record()?.approval?.by).toBeUndefined()

    addLabel(w, 'itervox-approved')
    const refused = await drive(w, label('itervox-approved', ada))
    expect(ran(w)).toEqual(['Todo/researcher'])
    expect(refused[0]).toContain('@ada started this pipeline and cannot approve it')
    expect(w.record()?.approval?.refused).toContain('approval.distinct_approver')
    // Spent, so another writer can add it.
    expect(w.labels.get('7')).not.toContain('itervox-approved')

    addLabel(w, 'itervox-approved')
    await drive(w, label('itervox-approved'))
    expect(ran(w)).toEqual(['Todo/researcher', 'Researching/implementer', 'Implementing/reviewer'])
    expect(w.record()?.approval).toMatchObject({ state: 'Researching', entry: 2, by: 'grace' })
    expect(w.labels.get('7')).not.toContain('itervox-approved')
    expect(w.state('7')).toBe('Reviewing')
  })

  it('keeps the gate shut under approval.distinct_approver when a wake-up, not a person, started the pipeline', async () => {
    // A reconcile's repair of a label event that started nothing: who added the label is not
    // in the record, so nobody can be told apart from them.
    const w = world()
    await drive(w, { source: 'wake', issue: '7', actor: bot, state: 'Todo', wake: { entry: 1 } })
    expect(ran(w)).toEqual(['Todo/researcher'])
    expect(w.record()?.startedBy).toBeUndefined()
    addLabel(w, 'itervox-approved')
    const refused = await drive(w, label('itervox-approved'))
    expect(refused[0]).toContain('no person is recorded as starting this entry')
    expect(ran(w)).toEqual(['Todo/researcher'])
  })

  it('takes /approve as the first line of a comment, from a person, for the entry it was given for', async () => {
    const w = world()
    await drive(w, todo)
    expect((await drive(w, comment('I would /approve this')))[0]).toBe(
      'no stage of this issue is waiting for input'
    )
    expect((await drive(w, comment('/approve', bot)))[0]).toContain('is a bot and cannot approve')
    expect(ran(w)).toEqual(['Todo/researcher'])
    await drive(w, comment('/approve\n\nLooks right.'))
    expect(ran(w)).toEqual(['Todo/researcher', 'Researching/implementer', 'Implementing/reviewer'])
    // A second approval approves nothing: the entry ran.
    expect((await drive(w, comment('/approve')))[0]).toBe(
      'no automation starts when an issue enters "Reviewing"'
    )
    expect(w.agentRuns).toHaveLength(3)

    // A person moving the issue back is a new entry, which waits again.
    w.labels.set('7', ['Researching'])
    expect((await drive(w, label('Researching')))[0]).toContain('waits for approval')
    expect(w.agentRuns).toHaveLength(3)
  })

  it("never takes an agent's words as an approval", async () => {
    // The researcher asks for the command as a comment; with a person's token as github-token,
    // the comment would be that person's, and its event an approval.
    const w = world((k) =>
      k.profile === 'researcher' ? { text: '---\ncomment: "/approve"\n---\n# Research\n' } : {}
    )
    await drive(w, todo)
    for (const c of w.comments.filter((c) => c.agent)) {
      await drive(w, comment(c.body, { login: 'token-owner', type: 'User' }))
    }
    expect(ran(w)).toEqual(['Todo/researcher'])
    expect(w.record()?.stages[0]?.refused).toEqual([
      'comment: agents cannot approve; a line "/approve" is a person\'s approval, so the text was not posted'
    ])
  })
})

describe('the stop switch', () => {
  it('holds the next stage at once, says so, and resumes where the pipeline was', async () => {
    const w: MemoryWorld = world((k) => {
      // A person adds the label while the researcher runs.
      if (k.profile === 'researcher') addLabel(w, 'itervox-paused')
      return {}
    }, false)
    const reasons = await drive(w, todo)
    expect(ran(w)).toEqual(['Todo/researcher'])
    expect(reasons.at(-1)).toBe(
      'the implementer stage did not start: paused by the itervox-paused label; remove it to resume where the pipeline was'
    )
    expect(w.record()?.paused).toContain('itervox-paused')
    expect(w.state('7')).toBe('Researching')

    // Another event while paused starts nothing either, and writes nothing new.
    const saves = w.calls.filter((c) => c === 'saveRecord').length
    await drive(w, { source: 'workflow_dispatch', issue: '7', actor: grace })
    expect(ran(w)).toEqual(['Todo/researcher'])
    expect(w.calls.filter((c) => c === 'saveRecord').length).toBe(saves)

    w.labels.set('7', ['Researching'])
    await drive(w, { source: 'label', issue: '7', actor: grace, resume: true })
    expect(ran(w)).toEqual(['Todo/researcher', 'Researching/implementer', 'Implementing/reviewer'])
    expect(w.record()?.paused).toBeUndefined()
    // The entry the pause held is the one that ran: no new entry, no stage twice.
    expect(w.record()?.stages.map((s) => s.entry)).toEqual([1, 2, 3])
  })

  it('the repository switch holds every stage, and a resume with nothing owed starts nothing', async () => {
    const w = world(undefined, false)
    expect(await drive(w, todo, { paused: true })).toEqual([
      'the researcher stage did not start: paused for the whole repository by the variable ITERVOX_PAUSED (the action input paused); unset it and the scheduled reconcile resumes where the pipeline was'
    ])
    expect(w.agentRuns).toHaveLength(0)
    // What the reconcile does once the variable is unset: the wake-up of the held entry.
    await drive(w, { source: 'label', issue: '7', actor: grace, resume: true })
    expect(ran(w)).toEqual(['Todo/researcher', 'Researching/implementer', 'Implementing/reviewer'])
    expect((await drive(w, { source: 'label', issue: '7', actor: grace, resume: true }))[0]).toBe(
      'resumed; nothing to start: #7 no automation starts in "Reviewing"'
    )
  })
})
